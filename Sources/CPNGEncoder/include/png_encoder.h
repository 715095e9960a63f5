#ifndef QUAKEMAP_PNG_ENCODER_H
#define QUAKEMAP_PNG_ENCODER_H

#include <stddef.h>
#include <stdint.h>

/// A growable byte buffer the encoder writes into; free `bytes` with qm_png_buffer_free.
typedef struct {
    uint8_t *bytes;
    size_t count;
    size_t capacity;
} qm_png_buffer;

/// How one kind of image is deflated: a zlib level (0-9) and strategy (zlib's
/// Z_DEFAULT_STRATEGY 0, Z_FILTERED 1, Z_HUFFMAN_ONLY 2, Z_RLE 3), and the PNG
/// filter every row gets (0 none, 1 sub: each byte less the one a pixel before).
typedef struct {
    int level;
    int strategy;
    int filter;
} qm_png_deflate;

/// Encodes Cairo's premultiplied ARGB32 pixels (native-endian 32-bit words, `stride`
/// bytes a row) as PNG into `out`, un-premultiplying exactly as Cairo's own PNG writer
/// does, as 8-bit RGB when every pixel is opaque and RGBA otherwise.
/// `opaque` and `alpha` are the deflate settings for the two cases.
/// Rows are filtered as the settings say. Stripes of rows are compressed on up to `threads`
/// threads at once; the output does not depend on it beyond where the deflate
/// stream is flushed.
/// Returns 0 on success; on failure, a negative number and `out` is empty.
int qm_png_encode_argb32(const uint8_t *pixels, int width, int height, int stride,
                         qm_png_deflate opaque, qm_png_deflate alpha, int threads, qm_png_buffer *out);

void qm_png_buffer_free(qm_png_buffer *buffer);

/// Whether every pixel of premultiplied ARGB32 `pixels` is opaque.
int qm_png_is_opaque(const uint8_t *pixels, int width, int height, int stride);

/// The 13 bytes of an IHDR chunk's data: 8-bit truecolour (`channels` 3) or
/// truecolour with alpha (4), no interlace.
void qm_png_header(int width, int height, int channels, uint8_t header[13]);

/// The image data of one PNG image (the zlib stream that IDAT or fdAT chunks
/// carry) of `channels` 3 (alpha dropped) or 4, deflated with `settings` in up to
/// `threads` stripes, into `out`, which is emptied first and reused: a caller
/// encoding many frames keeps one buffer. Returns 0 on success; on failure, a
/// negative number and `out` holds no bytes (free it with qm_png_buffer_free).
int qm_png_image_data(const uint8_t *pixels, int width, int height, int stride, int channels,
                      qm_png_deflate settings, int threads, qm_png_buffer *out);

/// The CRC-32 of a chunk: over its type, then `prefix` (an fdAT's sequence
/// number; may be empty), then `data`.
uint32_t qm_png_chunk_crc(const char type[4], const uint8_t *prefix, size_t prefix_length,
                          const uint8_t *data, size_t length);

#endif
