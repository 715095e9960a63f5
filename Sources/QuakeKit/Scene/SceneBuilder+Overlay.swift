import Foundation

/// The title, the legend and the footer, laid out in pixels.
extension SceneBuilder {
    /// Reference magnitudes in the legend, drawn at the map's exact symbol sizes
    /// so sizes compare across maps.
    static let legendMagnitudes: [Double] = [3, 5, 7]

    func overlay(for events: [MapEvent], feedGenerated: Date?, feedTitle: String? = nil) -> SceneOverlay {
        let measure = textMetrics()
        let s = overlayScale
        let margin = 12 * s, padding = 8 * s
        let mapWidth = Double(options.pixelWidth)
        var layout = OverlayLayout(palette: options.palette)
        func panel(x: Double, y: Double, width: Double, height: Double) {
            layout.panel(x, y, width, height)
        }
        func text(_ string: String, x: Double, baseline: Double, size: Double, bold: Bool = false,
                  alignment: SceneText.Alignment = .left) {
            layout.text(string, x, baseline, size, bold, alignment)
        }

        // Title, top left.
        var title = options.title ?? Self.defaultTitle(events, feedTitle: feedTitle)
        if !title.isEmpty {
            // Shrink, never overflow: a long title on a small map gets smaller type.
            var titleSize = 15 * s
            let room = mapWidth - 2 * margin - 2 * padding
            let natural = measure.width(title, size: titleSize, bold: true)
            if natural > room { titleSize = max(6 * options.scale, titleSize * room / natural) }
            title = Self.fitting(title, into: room) { measure.width($0, size: titleSize, bold: true) }
            let width = measure.width(title, size: titleSize, bold: true)
            panel(x: margin, y: margin, width: width + 2 * padding, height: titleSize * 1.2 + 2 * padding)
            text(title, x: margin + padding, baseline: margin + padding + titleSize, size: titleSize, bold: true)
        }

        // Footer, bottom right.
        var footerSize = 10 * s
        var credits: [String] = []
        if let feedGenerated { credits.append("Feed generated \(Self.minutes(feedGenerated)) UTC") }
        credits.append("\(events.count) \(events.count == 1 ? "event" : "events")")
        credits.append("Data: USGS")
        if case .naturalEarth = options.basemap { credits.append("Made with Natural Earth") }
        if let credit = shownPlates?.credit { credits.append(credit) }
        let footer = credits.joined(separator: " · ")
        // The footer shares the bottom edge with the legend; it shrinks to fit beside it.
        let legendWidth = legend(into: &layout, measure: measure,
                                 otherTypes: otherTypesLegendRow(for: events, measure: measure))
        let footerRoom = mapWidth - legendWidth - 3 * margin - padding
        let naturalFooter = measure.width(footer, size: footerSize)
        if naturalFooter > footerRoom { footerSize = max(6 * options.scale, footerSize * footerRoom / naturalFooter) }
        let fitted = Self.fitting(footer, into: footerRoom) { measure.width($0, size: footerSize) }
        let footerWidth = measure.width(fitted, size: footerSize)
        let footerHeight = footerSize * 1.2 + padding
        let footerRight = Double(options.pixelWidth) - margin
        let footerTop = Double(options.pixelHeight) - margin - footerHeight
        panel(x: footerRight - footerWidth - padding, y: footerTop, width: footerWidth + padding, height: footerHeight)
        text(fitted, x: footerRight - padding / 2, baseline: footerTop + padding / 2 + footerSize, size: footerSize, alignment: .right)

        return layout.overlay
    }

    /// The size of labels and panels: the map's scale, smaller on small maps so
    /// that the overlay leaves room for the map (the legend's circles keep the
    /// map's exact symbol sizes whatever this is).
    var overlayScale: Double {
        options.scale * min(1, max(0.55, Double(options.width) / 800))
    }

    /// The legend panel, bottom left: the colour scale (for depth and age), then
    /// the sizes, then the other event types' symbol if any. Returns its width.
    @discardableResult
    private func legend(into layout: inout OverlayLayout, measure: any TextMetrics,
                        otherTypes: OtherTypesLegendRow? = nil) -> Double {
        let s = overlayScale
        let margin = 12 * s, padding = 8 * s, gap = 10 * s
        let headingSize = 11 * s, labelSize = 10 * s

        // Measure first, then place: the panel must hold its widest row.
        let bands: [SymbolColoring.Band]
        let colorHeading: String
        switch options.symbols.coloring {
        case .magnitude: bands = []; colorHeading = ""
        case .depth: bands = SymbolColoring.depthBands; colorHeading = "Depth"
        case .age: bands = SymbolColoring.ageBands; colorHeading = "Age"
        }
        let swatch = 10 * s, rowHeight = 15 * s
        let bandWidth = bands.map { swatch + 6 * s + measure.width($0.label, size: labelSize) }.max() ?? 0
        let diameters = Self.legendMagnitudes.map { options.symbols.diameter(magnitude: $0, scale: options.scale) }
        let labels = Self.legendMagnitudes.map { "M\(Int($0))" }
        let slots = zip(diameters, labels).map { max($0, measure.width($1, size: labelSize)) }
        let sizesWidth = slots.reduce(0, +) + gap * Double(slots.count - 1)
        let headingWidth = max(measure.width("Magnitude", size: headingSize, bold: true),
                               measure.width(colorHeading, size: headingSize, bold: true))
        let plates = plateLegendSize(measure: measure)
        let contentWidth = max(sizesWidth, bandWidth, headingWidth, otherTypes?.width ?? 0, plates.width)
        let colorHeight = bands.isEmpty ? 0 : headingSize * 1.4 + Double(bands.count) * rowHeight + gap
        let sizesHeight = headingSize * 1.4 + (diameters.max() ?? 0) + 4 * s + labelSize * 1.2
        let width = contentWidth + 2 * padding
        let height = colorHeight + sizesHeight + (otherTypes?.height ?? 0) + plates.height + 2 * padding
        let left = margin, top = Double(options.pixelHeight) - margin - height
        layout.panel(left, top, width, height)

        var y = top + padding
        if !bands.isEmpty {
            layout.text(colorHeading, left + padding, y + headingSize, headingSize, true, .left)
            y += headingSize * 1.4
            for band in bands {
                layout.overlay.circles.append(SceneCircle(center: PixelPoint(x: left + padding + swatch / 2, y: y + rowHeight / 2),
                                                          diameter: swatch, fill: band.fill, eventID: ""))
                layout.text(band.label, left + padding + swatch + 6 * s, y + rowHeight / 2 + labelSize * 0.35, labelSize, false, .left)
                y += rowHeight
            }
            y += gap
        }
        layout.text("Magnitude", left + padding, y + headingSize, headingSize, true, .left)
        y += headingSize * 1.4
        let rowCenter = y + (diameters.max() ?? 0) / 2
        var x = left + padding
        for ((diameter, label), slot) in zip(zip(diameters, labels), slots) {
            let center = PixelPoint(x: x + slot / 2, y: rowCenter)
            let fill: RGBA
            if case .magnitude = options.symbols.coloring {
                fill = options.symbols.sizes.fill(magnitude: Self.legendMagnitudes[labels.firstIndex(of: label)!])
            } else {
                fill = RGBA(red: 0.85, green: 0.87, blue: 0.9, alpha: 0.6)
            }
            layout.overlay.circles.append(SceneCircle(center: center, diameter: diameter, fill: fill, eventID: ""))
            layout.text(label, center.x, rowCenter + (diameters.max() ?? 0) / 2 + 4 * s + labelSize, labelSize, false, .center)
            x += slot + gap
        }
        otherTypes?.place(into: &layout, left: left + padding, top: top + colorHeight + sizesHeight + padding)
        addPlateLegendRows(into: &layout, left: left + padding,
                           top: top + padding + colorHeight + sizesHeight + (otherTypes?.height ?? 0))
        return width
    }

    /// `text`, cut short with an ellipsis if even the smallest type cannot hold it.
    static func fitting(_ text: String, into room: Double, width: (String) -> Double) -> String {
        guard width(text) > room else { return text }
        var kept = text
        while !kept.isEmpty, width(kept + "…") > room { kept.removeLast() }
        return kept.isEmpty ? "" : kept + "…"
    }

    /// `300 earthquakes, 2026-11-20 23:59 – 2026-11-21 23:56 UTC`; with no
    /// events, `No earthquakes`, followed by the feed's title when it gives one
    /// (`No earthquakes — USGS Significant Earthquakes, Past Day`): without a
    /// time span the title would not say what was looked at.
    static func defaultTitle(_ events: [MapEvent], feedTitle: String? = nil) -> String {
        guard let first = events.map(\.time).min(), let last = events.map(\.time).max() else {
            return feedTitle.map { "No earthquakes — \($0)" } ?? "No earthquakes"
        }
        let noun = events.count == 1 ? "earthquake" : "earthquakes"
        return "\(events.count) \(noun), \(minutes(first)) – \(minutes(last)) UTC"
    }

    /// `2026-11-21 23:56`.
    static func minutes(_ date: Date) -> String {
        let stamp = CivilTime.iso8601(date)
        return String(stamp.prefix(10)) + " " + String(stamp.dropFirst(11).prefix(5))
    }
}

/// Collects the overlay's shapes while it is laid out.
struct OverlayLayout {
    let palette: MapPalette
    var overlay = SceneOverlay()

    mutating func panel(_ x: Double, _ y: Double, _ width: Double, _ height: Double) {
        let corners = [PixelPoint(x: x, y: y), PixelPoint(x: x + width, y: y),
                       PixelPoint(x: x + width, y: y + height), PixelPoint(x: x, y: y + height), PixelPoint(x: x, y: y)]
        overlay.panels.append(ScenePolygon(rings: [corners], fill: palette.panel))
    }

    mutating func text(_ string: String, _ x: Double, _ baseline: Double, _ size: Double, _ bold: Bool,
                       _ alignment: SceneText.Alignment) {
        overlay.texts.append(SceneText(text: string, position: PixelPoint(x: x, y: baseline), size: size,
                                       bold: bold, color: palette.text, alignment: alignment))
    }
}
