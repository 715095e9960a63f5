// The relief PNG embedded byte for byte with C23's #embed: the data file stays the one
// source of truth (no generated array beside it), and the compiler's dependency file names
// it, so a new PNG rebuilds this file.
#pragma clang diagnostic ignored "-Wc23-extensions"
#include "relief_data.h"

static const uint8_t bytes[] = {
#embed "../../Data/relief/etopo1_relief.png"
};

const uint8_t *qm_relief_png(size_t *count) {
    *count = sizeof bytes;
    return bytes;
}
