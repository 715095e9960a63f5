import QuakeScene

extension SceneBuilder {
    /// Creates a builder.
    // Here, not in Scene/: its labels are measured with the renderer's font
    // (``TextMeasurer``), which the scene stage must not name.
    public init(options: MapOptions = MapOptions()) {
        self.init(options: options, textMetrics: { TextMeasurer() })
    }
}
