#ifndef QUAKEMAP_CCAIRO_SHIM_H
#define QUAKEMAP_CCAIRO_SHIM_H
#include <cairo/cairo.h>
#include <cairo/cairo-pdf.h>
#include <cairo/cairo-svg.h>
#endif
