import Foundation
import QuakeModel
import QuakeScene
import QuakeRender

// The PNG entry points of the drawing stage's types. Here, not beside them:
// encoding comes after drawing, which hands on plain pixels (``PixelBuffer``)
// and knows nothing of file formats.

extension MapRenderer {
    /// The scene as a PNG file's bytes.
    package func pngData(for scene: MapScene) throws -> Data {
        try rasterize(scene).pngData()
    }

    /// The scene as PNG bytes, deflated in `threads` stripes (the bytes, not
    /// the pixels, depend on the count).
    package func pngData(for scene: MapScene, threads: Int) throws -> Data {
        try rasterize(scene).pngData(threads: threads)
    }
}

extension RasterImage {
    /// The image encoded as PNG.
    package func pngData() throws -> Data {
        try CairoImageSurface(image: self).pngData()
    }
}

extension CairoImageSurface {
    /// The surface encoded as PNG (see ``PNGEncoder``).
    package func pngData(threads: Int = ParallelParts.cores) throws -> Data {
        try withPixels { try PNGEncoder.encode($0, threads: threads) }
    }
}
