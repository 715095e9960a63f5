/// How wide a label is drawn: all that laying out the title, legend and
/// footer needs from the renderer's fonts. The renderer supplies it (Cairo,
/// with the font it draws with: ``TextMeasurer``), so the scene sizes its
/// panels exactly and still holds no drawing code.

package protocol TextMetrics {
    /// The advance width of `text` in pixels at `size` pixels, bold or regular.
    func width(_ text: String, size: Double, bold: Bool) -> Double
}

extension TextMetrics {
    /// The advance width of `text` in the regular weight.
    package func width(_ text: String, size: Double) -> Double {
        width(text, size: size, bold: false)
    }
}
