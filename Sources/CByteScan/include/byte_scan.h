#ifndef QUAKEMAP_BYTE_SCAN_H
#define QUAKEMAP_BYTE_SCAN_H

#include <stdint.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// What ends the unquoted CSV fields in 64 bytes: bit i of `commas` is set
/// when byte i is a comma, of `breaks` when it is LF, CR or NUL.
typedef struct {
    uint64_t commas;
    uint64_t breaks;
} qk_field_stops;

/// The ``qk_field_stops`` of the 64 bytes at `p`.
///
/// In C because Swift has no portable way to turn a vector comparison into a
/// bit mask, and the masks are what make this fast: with SSE2 (every x86-64),
/// sixteen compares and eight mask moves per 64 bytes. Elsewhere a plain
/// loop, which compilers vectorise.
static inline qk_field_stops qk_field_stops64(const uint8_t *p) {
    qk_field_stops stops = {0, 0};
#if defined(__SSE2__)
    const __m128i comma = _mm_set1_epi8(','), lf = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r');
    const __m128i zero = _mm_setzero_si128();
    for (int block = 0; block < 4; block++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * block));
        __m128i breaks = _mm_or_si128(_mm_cmpeq_epi8(v, lf), _mm_or_si128(_mm_cmpeq_epi8(v, cr), _mm_cmpeq_epi8(v, zero)));
        stops.commas |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, comma)) << (16 * block);
        stops.breaks |= (uint64_t)(uint16_t)_mm_movemask_epi8(breaks) << (16 * block);
    }
#else
    for (int i = 0; i < 64; i++) {
        uint8_t byte = p[i];
        stops.commas |= (uint64_t)(byte == ',') << i;
        stops.breaks |= (uint64_t)(byte == '\n' || byte == '\r' || byte == 0) << i;
    }
#endif
    return stops;
}

#endif
