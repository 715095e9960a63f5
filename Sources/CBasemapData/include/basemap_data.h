// The built-in land as compact bytes, generated from Data/basemap/*.geojson by
// scripts/embed_basemap.py (which describes the format) and decoded by
// QuakeKit's Basemap/EmbeddedLand.swift. Compiled C, not a Swift literal: a large
// Swift array literal takes minutes to type-check, and a resource bundle would have to
// be found beside the executable at run time.
#ifndef QUAKEMAP_BASEMAP_DATA_H
#define QUAKEMAP_BASEMAP_DATA_H

#include <stddef.h>
#include <stdint.h>

/// Natural Earth 1:110m land; sets *count to the number of bytes. Static, never freed.
const uint8_t *qm_land_110m(size_t *count);

/// Natural Earth 1:10m land simplified to 0.05°; sets *count to the number of bytes. Static, never freed.
const uint8_t *qm_land_10m(size_t *count);

#endif
