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

/// Encodes Cairo's premultiplied ARGB32 pixels (native-endian 32-bit words, `stride`
/// bytes a row) as PNG into `out`, un-premultiplying exactly as Cairo's own PNG writer
/// does, as 8-bit RGB when every pixel is opaque and RGBA otherwise.
/// `opaque_level` and `alpha_level` are the zlib levels (0-9) for the two cases.
/// Rows are written unfiltered. Stripes of rows are compressed on up to `threads`
/// threads at once; the output does not depend on it beyond where the deflate
/// stream is flushed.
/// Returns 0 on success; on failure, a negative number and `out` is empty.
int qm_png_encode_argb32(const uint8_t *pixels, int width, int height, int stride,
                         int opaque_level, int alpha_level, int threads, qm_png_buffer *out);

void qm_png_buffer_free(qm_png_buffer *buffer);

#endif
