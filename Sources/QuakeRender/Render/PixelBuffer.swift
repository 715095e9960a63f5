/// Drawn pixels as the renderer hands them on to be encoded: premultiplied
/// ARGB32 (Cairo's layout, one native-endian 32-bit word a pixel), `stride`
/// bytes a row. Borrowed, not copied, so encoding costs no copy of the image:
/// valid only inside the closure of ``CairoImageSurface/withPixels(_:)``.

package struct PixelBuffer {
    /// The first byte of the top row.
    package let base: UnsafeRawPointer
    /// Pixels a row.
    package let width: Int
    /// Rows.
    package let height: Int
    /// Bytes from one row to the next (at least `width × 4`).
    package let stride: Int
}
