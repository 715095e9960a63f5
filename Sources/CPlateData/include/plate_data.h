// Peter Bird's PB2002 plate boundaries (Bird 2003) as compact bytes, generated from the
// PB2002 GeoJSON by scripts/embed_plates.py (which describes the format and checks each
// subduction zone's polarity) and decoded by QuakeKit's Basemap/PlateBoundaries.swift.
// Compiled C for the reasons of CBasemapData: no resource to find, no literal to type-check.
#ifndef QUAKEMAP_PLATE_DATA_H
#define QUAKEMAP_PLATE_DATA_H

#include <stddef.h>
#include <stdint.h>

/// PB2002's 241 boundary lines; sets *count to the number of bytes. Static, never freed.
const uint8_t *qm_plates_pb2002(size_t *count);

#endif
