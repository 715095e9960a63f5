// libpng reports errors by longjmp, which Swift cannot host: this file keeps the
// setjmp and every libpng call in C, and hands Swift a plain status code.
#include "png_encoder.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

static void append(png_structp png, png_bytep data, png_size_t length) {
    qm_png_buffer *buffer = (qm_png_buffer *)png_get_io_ptr(png);
    if (buffer->count + length > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 65536;
        while (capacity < buffer->count + length) capacity *= 2;
        uint8_t *grown = realloc(buffer->bytes, capacity);
        if (!grown) png_error(png, "out of memory");
        buffer->bytes = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->bytes + buffer->count, data, length);
    buffer->count += length;
}

static void flush(png_structp png) { (void)png; }

static int is_opaque(const uint8_t *pixels, int width, int height, int stride) {
    for (int y = 0; y < height; y++) {
        const uint32_t *row = (const uint32_t *)(pixels + (size_t)y * stride);
        for (int x = 0; x < width; x++) {
            if ((row[x] >> 24) != 0xFF) return 0;
        }
    }
    return 1;
}

int qm_png_encode_argb32(const uint8_t *pixels, int width, int height, int stride,
                         int opaque_level, int alpha_level, int filter, qm_png_buffer *out) {
    memset(out, 0, sizeof *out);
    if (width <= 0 || height <= 0 || stride < width * 4) return -1;
    const int opaque = is_opaque(pixels, width, height, stride);
    const int channels = opaque ? 3 : 4;
    uint8_t *row = malloc((size_t)width * channels);
    if (!row) return -2;

    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_write_struct(&png, &info);
        free(row);
        return -3;
    }
    // `volatile`: these are read after a longjmp back here.
    uint8_t *volatile rowBuffer = row;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(rowBuffer);
        qm_png_buffer_free(out);
        return -4;
    }
    png_set_write_fn(png, out, append, flush);
    png_set_compression_level(png, opaque ? opaque_level : alpha_level);
    if (filter) png_set_filter(png, PNG_FILTER_TYPE_BASE, filter);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8,
                 opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    png_write_info(png, info);
    for (int y = 0; y < height; y++) {
        const uint32_t *source = (const uint32_t *)(pixels + (size_t)y * stride);
        uint8_t *target = rowBuffer;
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
            if (!opaque) target[3] = (uint8_t)alpha;
            target += channels;
        }
        png_write_row(png, rowBuffer);
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    free(rowBuffer);
    return 0;
}

void qm_png_buffer_free(qm_png_buffer *buffer) {
    free(buffer->bytes);
    buffer->bytes = NULL;
    buffer->count = buffer->capacity = 0;
}
