// A PNG writer for Cairo's ARGB32 surfaces, on zlib alone.
//
// The image is cut into horizontal stripes that are converted and deflated on
// separate threads, the way pigz parallelises gzip: every stripe but the last
// ends on a byte boundary (Z_SYNC_FLUSH), so the raw deflate streams simply
// concatenate into one; their Adler-32 checksums combine into the zlib trailer.
// One IDAT chunk holds the stream (PNG allows any split).
#include "png_encoder.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

enum { MAX_STRIPES = 8, MIN_ROWS_PER_STRIPE = 64 };

typedef struct {
    const uint8_t *pixels;
    int width, first_row, row_count, stride, channels, last;
    qm_png_deflate settings;
    uint8_t *out;
    size_t out_count;
    uLong adler;
    size_t raw_count;
    int status;
} stripe;

static int is_opaque(const uint8_t *pixels, int width, int height, int stride) {
    for (int y = 0; y < height; y++) {
        const uint32_t *row = (const uint32_t *)(pixels + (size_t)y * stride);
        for (int x = 0; x < width; x++) {
            if ((row[x] >> 24) != 0xFF) return 0;
        }
    }
    return 1;
}

// One scanline: its filter byte, then RGB(A) bytes, straight, filtered as asked.
static void convert_row(const uint32_t *source, int width, int channels, int filter, uint8_t *target) {
    uint8_t *const start = target;
    *target++ = (uint8_t)filter;
    for (int x = 0; x < width; x++) {
        const uint32_t pixel = source[x];
        const uint32_t alpha = pixel >> 24;
        uint32_t red = (pixel >> 16) & 0xFF, green = (pixel >> 8) & 0xFF, blue = pixel & 0xFF;
        if (alpha == 0) {
            red = green = blue = 0;
        } else if (alpha != 0xFF) {
            // The same rounding as Cairo's unpremultiply_data.
            red = (red * 255 + alpha / 2) / alpha;
            green = (green * 255 + alpha / 2) / alpha;
            blue = (blue * 255 + alpha / 2) / alpha;
        }
        target[0] = (uint8_t)red;
        target[1] = (uint8_t)green;
        target[2] = (uint8_t)blue;
        if (channels == 4) target[3] = (uint8_t)alpha;
        target += channels;
    }
    if (filter == 1) {
        // Sub, from the right end, so that each byte still sees its left neighbour unfiltered.
        uint8_t *const bytes = start + 1;
        for (int i = width * channels - 1; i >= channels; i--) bytes[i] = (uint8_t)(bytes[i] - bytes[i - channels]);
    }
}

static void *deflate_stripe(void *argument) {
    stripe *s = argument;
    const size_t row_bytes = 1 + (size_t)s->width * s->channels;
    uint8_t *row = malloc(row_bytes);
    z_stream z;
    memset(&z, 0, sizeof z);
    s->status = -2;
    // Raw deflate (negative window bits): the zlib header and trailer are written once, around all stripes.
    if (!row || deflateInit2(&z, s->settings.level, Z_DEFLATED, -15, 8, s->settings.strategy) != Z_OK) {
        free(row);
        return NULL;
    }
    size_t capacity = deflateBound(&z, (uLong)(row_bytes * s->row_count)) + 64;
    s->out = malloc(capacity);
    s->adler = adler32(0L, Z_NULL, 0);
    if (s->out) {
        z.next_out = s->out;
        z.avail_out = (uInt)capacity;
        s->status = 0;
        for (int y = 0; y < s->row_count && s->status == 0; y++) {
            convert_row((const uint32_t *)(s->pixels + (size_t)(s->first_row + y) * s->stride), s->width, s->channels, s->settings.filter, row);
            s->adler = adler32(s->adler, row, (uInt)row_bytes);
            z.next_in = row;
            z.avail_in = (uInt)row_bytes;
            const int final_row = y == s->row_count - 1;
            const int flush = final_row ? (s->last ? Z_FINISH : Z_SYNC_FLUSH) : Z_NO_FLUSH;
            const int result = deflate(&z, flush);
            if (result == Z_STREAM_ERROR || z.avail_in != 0) s->status = -3;
            if (final_row && s->last && result != Z_STREAM_END) s->status = -3;
        }
        s->out_count = capacity - z.avail_out;
        s->raw_count = row_bytes * s->row_count;
    }
    deflateEnd(&z);
    free(row);
    return NULL;
}

static int reserve(qm_png_buffer *buffer, size_t extra) {
    if (buffer->count + extra <= buffer->capacity) return 1;
    size_t capacity = buffer->capacity ? buffer->capacity : 65536;
    while (capacity < buffer->count + extra) capacity *= 2;
    uint8_t *grown = realloc(buffer->bytes, capacity);
    if (!grown) return 0;
    buffer->bytes = grown;
    buffer->capacity = capacity;
    return 1;
}

static void put32(uint8_t *at, uint32_t value) {
    at[0] = (uint8_t)(value >> 24);
    at[1] = (uint8_t)(value >> 16);
    at[2] = (uint8_t)(value >> 8);
    at[3] = (uint8_t)value;
}

// Appends a chunk whose data is the concatenation of `parts`; the CRC covers type and data.
static int append_chunk(qm_png_buffer *out, const char type[4], const uint8_t *const *parts,
                        const size_t *lengths, int part_count) {
    size_t length = 0;
    for (int i = 0; i < part_count; i++) length += lengths[i];
    if (length > 0x7FFFFFFFu || !reserve(out, length + 12)) return 0;
    uint8_t *start = out->bytes + out->count;
    put32(start, (uint32_t)length);
    memcpy(start + 4, type, 4);
    uLong crc = crc32(0L, (const Bytef *)type, 4);
    size_t offset = 8;
    for (int i = 0; i < part_count; i++) {
        memcpy(start + offset, parts[i], lengths[i]);
        crc = crc32(crc, parts[i], (uInt)lengths[i]);
        offset += lengths[i];
    }
    put32(start + offset, (uint32_t)crc);
    out->count += length + 12;
    return 1;
}

// Deflates the rows into `stripes` (count of them) and returns the combined Adler-32 in `adler`.
static int deflate_rows(const uint8_t *pixels, int width, int height, int stride, int channels, qm_png_deflate settings,
                        int threads, stripe *stripes, int *stripe_count, uLong *adler_out) {
    int count = threads < 1 ? 1 : threads > MAX_STRIPES ? MAX_STRIPES : threads;
    if (count > height / MIN_ROWS_PER_STRIPE) count = height / MIN_ROWS_PER_STRIPE;
    if (count < 1) count = 1;

    pthread_t workers[MAX_STRIPES];
    int started[MAX_STRIPES] = {0};
    for (int i = 0; i < count; i++) {
        const int first = (int)((long long)height * i / count), next = (int)((long long)height * (i + 1) / count);
        stripes[i] = (stripe){.pixels = pixels, .width = width, .first_row = first, .row_count = next - first,
                              .stride = stride, .channels = channels, .settings = settings, .last = i == count - 1};
        // The first stripe runs on this thread; a thread that cannot start is done here too.
        if (i > 0) started[i] = pthread_create(&workers[i], NULL, deflate_stripe, &stripes[i]) == 0;
    }
    deflate_stripe(&stripes[0]);
    for (int i = 1; i < count; i++) {
        if (started[i]) pthread_join(workers[i], NULL);
        else deflate_stripe(&stripes[i]);
    }
    *stripe_count = count;

    int status = 0;
    uLong adler = adler32(0L, Z_NULL, 0);
    for (int i = 0; i < count; i++) {
        if (stripes[i].status != 0 && status == 0) status = stripes[i].status;
        if (stripes[i].status == 0) adler = adler32_combine(adler, stripes[i].adler, (z_off_t)stripes[i].raw_count);
    }
    *adler_out = adler;
    return status;
}

// zlib header: deflate with a 32 KiB window, FCHECK making it a multiple of 31.
static const uint8_t zlib_header[2] = {0x78, 0x9C};

int qm_png_encode_argb32(const uint8_t *pixels, int width, int height, int stride,
                         qm_png_deflate opaque_settings, qm_png_deflate alpha_settings, int threads,
                         qm_png_buffer *out) {
    memset(out, 0, sizeof *out);
    if (width <= 0 || height <= 0 || stride < width * 4) return -1;
    const int opaque = is_opaque(pixels, width, height, stride);
    const int channels = opaque ? 3 : 4;
    const qm_png_deflate settings = opaque ? opaque_settings : alpha_settings;

    stripe stripes[MAX_STRIPES];
    int count = 0;
    uLong adler = 0;
    int status = deflate_rows(pixels, width, height, stride, channels, settings, threads, stripes, &count, &adler);
    if (status == 0) {
        static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
        uint8_t header[13];
        qm_png_header(width, height, channels, header);
        uint8_t trailer[4];
        put32(trailer, (uint32_t)adler);

        const uint8_t *idat[MAX_STRIPES + 2];
        size_t lengths[MAX_STRIPES + 2];
        idat[0] = zlib_header;
        lengths[0] = 2;
        for (int i = 0; i < count; i++) {
            idat[i + 1] = stripes[i].out;
            lengths[i + 1] = stripes[i].out_count;
        }
        idat[count + 1] = trailer;
        lengths[count + 1] = 4;
        const uint8_t *header_part = header;
        const size_t header_length = sizeof header;
        if (!reserve(out, sizeof signature)) {
            status = -2;
        } else {
            memcpy(out->bytes, signature, sizeof signature);
            out->count = sizeof signature;
            if (!append_chunk(out, "IHDR", &header_part, &header_length, 1)
                || !append_chunk(out, "IDAT", idat, lengths, count + 2)
                || !append_chunk(out, "IEND", NULL, NULL, 0)) {
                status = -2;
            }
        }
    }
    for (int i = 0; i < count; i++) free(stripes[i].out);
    if (status != 0) qm_png_buffer_free(out);
    return status;
}

int qm_png_is_opaque(const uint8_t *pixels, int width, int height, int stride) {
    return is_opaque(pixels, width, height, stride);
}

void qm_png_header(int width, int height, int channels, uint8_t header[13]) {
    put32(header, (uint32_t)width);
    put32(header + 4, (uint32_t)height);
    header[8] = 8;                              // bits per channel
    header[9] = channels == 3 ? 2 : 6;          // truecolour, or truecolour with alpha
    header[10] = header[11] = header[12] = 0;  // deflate, adaptive filtering, no interlace
}

int qm_png_image_data(const uint8_t *pixels, int width, int height, int stride, int channels,
                      qm_png_deflate settings, int threads, qm_png_buffer *out) {
    out->count = 0;
    if (width <= 0 || height <= 0 || stride < width * 4 || (channels != 3 && channels != 4)) return -1;
    stripe stripes[MAX_STRIPES];
    int count = 0;
    uLong adler = 0;
    int status = deflate_rows(pixels, width, height, stride, channels, settings, threads, stripes, &count, &adler);
    if (status == 0) {
        size_t total = 2 + 4;
        for (int i = 0; i < count; i++) total += stripes[i].out_count;
        if (!reserve(out, total)) {
            status = -2;
        } else {
            memcpy(out->bytes, zlib_header, 2);
            out->count = 2;
            for (int i = 0; i < count; i++) {
                memcpy(out->bytes + out->count, stripes[i].out, stripes[i].out_count);
                out->count += stripes[i].out_count;
            }
            put32(out->bytes + out->count, (uint32_t)adler);
            out->count += 4;
        }
    }
    for (int i = 0; i < count; i++) free(stripes[i].out);
    if (status != 0) out->count = 0;
    return status;
}

uint32_t qm_png_chunk_crc(const char type[4], const uint8_t *prefix, size_t prefix_length,
                          const uint8_t *data, size_t length) {
    uLong crc = crc32(0L, (const Bytef *)type, 4);
    if (prefix_length) crc = crc32(crc, prefix, (uInt)prefix_length);
    // crc32 takes a uInt length: long data in pieces.
    while (length > 0) {
        const uInt piece = length > 0x40000000u ? 0x40000000u : (uInt)length;
        crc = crc32(crc, data, piece);
        data += piece;
        length -= piece;
    }
    return (uint32_t)crc;
}

void qm_png_buffer_free(qm_png_buffer *buffer) {
    free(buffer->bytes);
    buffer->bytes = NULL;
    buffer->count = buffer->capacity = 0;
}
