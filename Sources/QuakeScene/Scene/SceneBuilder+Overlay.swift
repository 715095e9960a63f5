import Foundation
import QuakeModel
import QuakeParse
import QuakeQuery
import QuakeGeo

/// The title, the legend and the footer, laid out in pixels.
extension SceneBuilder {
    /// Reference magnitudes in the legend, drawn at the map's exact symbol sizes
    /// so sizes compare across maps.
    package static let legendMagnitudes: [Double] = [3, 5, 7]

    /// The title, legend, footer and labels over `circles` (the scene's event
    /// circles): the panels are measured first, then placed where they hide
    /// the fewest circles (``PanelPlacement``), then the labels around their
    /// events; circles a panel still covers are drawn again over it.
    ///
    /// `keepClear` are points the panels must not cover (a profile's line and
    /// letters): a candidate place covering one counts as covering many events.
    package func overlay(for events: [MapEvent], circles: CircleLayer, geometry: MapGeometry, places: [String: String],
                 feedGenerated: Date?, feedTitle: String? = nil, keepClear: [PixelPoint] = []) -> SceneOverlay {
        var overlay = SceneOverlay()
        var occupied: [PanelRect] = []
        if options.showsLegend {
            let pieces = panelPieces(for: events, feedGenerated: feedGenerated, feedTitle: feedTitle)
            let placement = PanelPlacement(mapWidth: Double(options.pixelWidth), mapHeight: Double(options.pixelHeight),
                                           margin: 12 * overlayScale)
            let anchors = placement.place(pieces.map(\.panel)) { rects in
                var coverage = PanelPlacement.coverage(of: rects, in: circles)
                for (index, rect) in rects.enumerated() {
                    let covered = keepClear.filter { $0.x >= rect.x && $0.x <= rect.maxX && $0.y >= rect.y && $0.y <= rect.maxY }
                    coverage[index] += Double(covered.count) * 1_000
                }
                return coverage
            }
            for (piece, anchor) in zip(pieces, anchors) {
                let rect = placement.rect(width: piece.panel.width, height: piece.panel.height, at: anchor)
                overlay.append(piece.content.translated(dx: rect.x, dy: rect.y))
                occupied.append(rect)
            }
        }
        let labels = labelOverlay(for: events, circles: circles, geometry: geometry, places: places, avoiding: occupied)
        overlay.append(labels.overlay)
        occupied += labels.rects
        // Events under a panel are drawn again on it, so none is hidden.
        overlay.eventCircles = circles.circles(touching: occupied)
        return overlay
    }

    /// A panel measured and drawn at the origin, with the places it may take.
    package struct PanelPiece {
        package var panel: PanelPlacement.Panel
        package var content: SceneOverlay
    }

    /// The title, the legend and the footer, each laid out at the origin.
    package func panelPieces(for events: [MapEvent], feedGenerated: Date?, feedTitle: String?) -> [PanelPiece] {
        let measure = textMetrics()
        let s = overlayScale
        let margin = 12 * s, padding = 8 * s
        let mapWidth = Double(options.pixelWidth)
        var pieces: [PanelPiece] = []

        // Title, top left unless that hides events.
        var title = options.title ?? Self.defaultTitle(events, feedTitle: feedTitle)
        if !title.isEmpty {
            var layout = OverlayLayout(palette: options.palette)
            // Shrink, never overflow: a long title on a small map gets smaller type.
            var titleSize = 15 * s
            let room = mapWidth - 2 * margin - 2 * padding
            let natural = measure.width(title, size: titleSize, bold: true)
            if natural > room { titleSize = max(6 * options.scale, titleSize * room / natural) }
            title = Self.fitting(title, into: room) { measure.width($0, size: titleSize, bold: true) }
            let width = measure.width(title, size: titleSize, bold: true) + 2 * padding
            let height = titleSize * 1.2 + 2 * padding
            layout.panel(0, 0, width, height)
            layout.text(title, padding, padding + titleSize, titleSize, true, .left)
            pieces.append(PanelPiece(panel: .init(width: width, height: height,
                                                  anchors: [.topLeft, .topRight, .topCenter, .bottomCenter, .bottomLeft, .bottomRight]),
                                     content: layout.overlay))
        }

        var legendLayout = OverlayLayout(palette: options.palette)
        let legendSize = colorBar.map { colorBarLegend($0, into: &legendLayout, measure: measure) }
            ?? legend(into: &legendLayout, measure: measure, otherTypes: otherTypesLegendRow(for: events, measure: measure),
                      mechanisms: mechanismLegendRow(for: events, measure: measure))

        // Footer, bottom right unless that hides events.
        var footerSize = 10 * s
        var credits: [String] = []
        if let feedGenerated { credits.append("Feed generated \(Self.minutes(feedGenerated)) UTC") }
        credits.append("\(events.count) \(events.count == 1 ? "event" : "events")")
        if let data = Credits.data(options.dataSources) { credits.append(data) }
        if options.basemap == .relief { credits.append(Credits.relief) }
        if options.basemap == .naturalEarth || options.basemap == .relief { credits.append(Credits.naturalEarth) }
        if let credit = shownPlates?.credit { credits.append(credit) }
        let footer = credits.joined(separator: " · ")
        // Sized to fit beside the legend on the bottom edge, its usual place.
        let footerRoom = mapWidth - legendSize.width - 3 * margin - padding
        let naturalFooter = measure.width(footer, size: footerSize)
        if naturalFooter > footerRoom { footerSize = max(6 * options.scale, footerSize * footerRoom / naturalFooter) }
        let fitted = Self.fitting(footer, into: footerRoom) { measure.width($0, size: footerSize) }
        let footerWidth = measure.width(fitted, size: footerSize) + padding
        let footerHeight = footerSize * 1.2 + padding
        var footerLayout = OverlayLayout(palette: options.palette)
        footerLayout.panel(0, 0, footerWidth, footerHeight)
        footerLayout.text(fitted, footerWidth - padding / 2, padding / 2 + footerSize, footerSize, false, .right)

        pieces.append(PanelPiece(panel: .init(width: legendSize.width, height: legendSize.height,
                                              anchors: [.bottomLeft, .bottomRight, .topLeft, .topRight]),
                                 content: legendLayout.overlay))
        pieces.append(PanelPiece(panel: .init(width: footerWidth, height: footerHeight,
                                              anchors: [.bottomRight, .bottomLeft, .topRight, .topLeft, .bottomCenter, .topCenter]),
                                 content: footerLayout.overlay))
        return pieces
    }

    /// The size of labels and panels: the map's scale, smaller on small maps so
    /// that the overlay leaves room for the map (the legend's circles keep the
    /// map's exact symbol sizes whatever this is).
    package var overlayScale: Double {
        options.scale * min(1, max(0.55, Double(options.width) / 800))
    }

    /// The legend panel at the origin: the colour scale (for depth and age),
    /// then the sizes, the other event types' symbol if any, and the plate
    /// boundaries when shown. Returns its size.
    private func legend(into layout: inout OverlayLayout, measure: any TextMetrics,
                        otherTypes: OtherTypesLegendRow? = nil,
                        mechanisms: MechanismLegendRow? = nil) -> (width: Double, height: Double) {
        let s = overlayScale
        let padding = 8 * s, gap = 10 * s
        let headingSize = 11 * s, labelSize = 10 * s

        // Measure first, then place: the panel must hold its widest row.
        let bands = options.symbols.coloring.bands
        let colorHeading = options.symbols.coloring.legendHeading
        let swatch = 10 * s, rowHeight = 15 * s
        let bandWidth = bands.map { swatch + 6 * s + measure.width($0.label, size: labelSize) }.max() ?? 0
        let diameters = Self.legendMagnitudes.map { options.symbols.diameter(magnitude: $0, scale: options.scale) }
        let labels = Self.legendMagnitudes.map { "M\(Int($0))" }
        let slots = zip(diameters, labels).map { max($0, measure.width($1, size: labelSize)) }
        let sizesWidth = slots.reduce(0, +) + gap * Double(slots.count - 1)
        let headingWidth = max(measure.width("Magnitude", size: headingSize, bold: true),
                               measure.width(colorHeading, size: headingSize, bold: true))
        let plates = plateLegendSize(measure: measure)
        let contentWidth = max(sizesWidth, bandWidth, headingWidth, otherTypes?.width ?? 0, mechanisms?.width ?? 0, plates.width)
        let colorHeight = bands.isEmpty ? 0 : headingSize * 1.4 + Double(bands.count) * rowHeight + gap
        let sizesHeight = headingSize * 1.4 + (diameters.max() ?? 0) + 4 * s + labelSize * 1.2
        let width = contentWidth + 2 * padding
        let height = colorHeight + sizesHeight + (otherTypes?.height ?? 0) + (mechanisms?.height ?? 0) + plates.height + 2 * padding
        let left = 0.0, top = 0.0
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
        mechanisms?.place(into: &layout, left: left + padding,
                          top: top + colorHeight + sizesHeight + padding + (otherTypes?.height ?? 0))
        addPlateLegendRows(into: &layout, left: left + padding,
                           top: top + padding + colorHeight + sizesHeight + (otherTypes?.height ?? 0) + (mechanisms?.height ?? 0))
        return (width, height)
    }

    /// `text`, cut short with an ellipsis if even the smallest type cannot hold it.
    package static func fitting(_ text: String, into room: Double, width: (String) -> Double) -> String {
        guard width(text) > room else { return text }
        var kept = text
        while !kept.isEmpty, width(kept + "…") > room { kept.removeLast() }
        return kept.isEmpty ? "" : kept + "…"
    }

    /// `300 earthquakes, 2026-11-20 23:59 – 2026-11-21 23:56 UTC` (`300 events`
    /// when some are not earthquakes); with no
    /// events, `No earthquakes`, followed by the feed's title when it gives one
    /// (`No earthquakes — USGS Significant Earthquakes, Past Day`): without a
    /// time span the title would not say what was looked at.
    package static func defaultTitle(_ events: [MapEvent], feedTitle: String? = nil) -> String {
        guard let first = events.map(\.time).min(), let last = events.map(\.time).max() else {
            return feedTitle.map { "No earthquakes — \($0)" } ?? "No earthquakes"
        }
        // Quarry blasts and explosions are not earthquakes: a mixed map counts events.
        let kind = events.allSatisfy(\.isEarthquake) ? "earthquake" : "event"
        let noun = events.count == 1 ? kind : kind + "s"
        return "\(events.count) \(noun), \(minutes(first)) – \(minutes(last)) UTC"
    }

    /// `2026-11-21 23:56`.
    package static func minutes(_ date: Date) -> String {
        Formatted.time(date, .minutes)
    }
}

extension SceneOverlay {
    /// Adds `other`'s shapes on top of each kind of this overlay's.
    package mutating func append(_ other: SceneOverlay) {
        lines += other.lines
        panels += other.panels
        eventCircles += other.eventCircles
        circles += other.circles
        beachballs += other.beachballs
        texts += other.texts
    }

    /// The same overlay moved by (`dx`, `dy`) pixels.
    package func translated(dx: Double, dy: Double) -> SceneOverlay {
        func moved(_ point: PixelPoint) -> PixelPoint { PixelPoint(x: point.x + dx, y: point.y + dy) }
        var result = self
        result.lines = lines.map { SceneLine(points: $0.points.map(moved), stroke: $0.stroke, width: $0.width) }
        result.panels = panels.map { ScenePolygon(rings: $0.rings.map { $0.map(moved) }, fill: $0.fill) }
        // Copies moved, not made afresh, so every other property (a symbol's shape) stays.
        result.eventCircles = eventCircles.map { var circle = $0; circle.center = moved($0.center); return circle }
        result.circles = circles.map { var circle = $0; circle.center = moved($0.center); return circle }
        result.texts = texts.map { var text = $0; text.position = moved($0.position); return text }
        result.beachballs = beachballs.map { ball in
            var ball = ball
            ball.center = moved(ball.center)
            ball.compressional = ball.compressional.map { $0.map(moved) }
            ball.nodalLines = ball.nodalLines.map { $0.map(moved) }
            ball.epicentre = ball.epicentre.map(moved)
            return ball
        }
        return result
    }
}

/// Collects the overlay's shapes while it is laid out.
package struct OverlayLayout {
    package let palette: MapPalette
    package var overlay = SceneOverlay()

    package mutating func panel(_ x: Double, _ y: Double, _ width: Double, _ height: Double) {
        let corners = [PixelPoint(x: x, y: y), PixelPoint(x: x + width, y: y),
                       PixelPoint(x: x + width, y: y + height), PixelPoint(x: x, y: y + height), PixelPoint(x: x, y: y)]
        overlay.panels.append(ScenePolygon(rings: [corners], fill: palette.panel))
    }

    package mutating func text(_ string: String, _ x: Double, _ baseline: Double, _ size: Double, _ bold: Bool,
                       _ alignment: SceneText.Alignment) {
        overlay.texts.append(SceneText(text: string, position: PixelPoint(x: x, y: baseline), size: size,
                                       bold: bold, color: palette.text, alignment: alignment))
    }
}
