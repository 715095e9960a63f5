import QuakeScene

extension ChartBuilder {
    /// Creates a builder.
    // Here, not in Chart/: labels are measured with the renderer's font
    // (``TextMeasurer``), which the chart stage must not name.
    public init(options: ChartOptions = ChartOptions()) {
        self.init(options: options, textMetrics: { TextMeasurer() })
    }
}
