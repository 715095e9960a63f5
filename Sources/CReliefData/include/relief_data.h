// The built-in relief: Data/relief/etopo1_relief.png (made by scripts/make_relief.py, which
// describes its values), embedded as it is and decoded by QuakeRender's ReliefRaster.
#ifndef QUAKEMAP_RELIEF_DATA_H
#define QUAKEMAP_RELIEF_DATA_H

#include <stddef.h>
#include <stdint.h>

/// The relief PNG; sets *count to the number of bytes. Static, never freed.
const uint8_t *qm_relief_png(size_t *count);

#endif
