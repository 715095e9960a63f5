import QuakeScene

extension SceneBuilder {
    /// Creates a builder.
    // Here, not in Scene/: its labels are measured with the renderer's font
    // (``TextMeasurer``), which the scene stage must not name.
    public init(options: MapOptions = MapOptions()) {
        self.init(options: options, textMetrics: { TextMeasurer() })
    }
}

extension SceneBuilder {
    /// A builder for a scene that is only drawn: its circles keep no event ids
    /// (``keepsEventIDs``), 16 bytes a circle that nothing would read.
    package init(drawing options: MapOptions) {
        self.init(options: options)
        keepsEventIDs = false
    }
}
