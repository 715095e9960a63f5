import Foundation
import QuakeModel
import QuakeParse
import QuakeGeo

/// Labels for the largest events: `M 6.5 · 72 km W of Challis, Idaho · 31 Mar 23:52 UTC`,
/// each on a small panel beside its circle.
extension SceneBuilder {
    /// Places longer than this many characters are shortened (``shortenedPlace(_:)``).
    package static let placeLengthLimit = 40

    /// The `count` largest of `events` by magnitude, the most recent first
    /// among equals, then the earlier in `events`; largest first.
    package static func largest(_ events: [MapEvent], count: Int) -> [MapEvent] {
        var largest = LargestEvents<Int>(capacity: count)
        for (index, event) in events.enumerated() {
            largest.offer(magnitude: event.magnitude, time: event.time, index)
        }
        return largest.entries.map { events[$0.payload] }
    }

    /// A label's text: magnitude to one decimal, the place (shortened), the
    /// UTC day, month and time; with the year when `withYear` (the map's
    /// events span more than one calendar year). Without a place, it is left out.
    package static func labelText(magnitude: Double, time: Date, place: String?, withYear: Bool) -> String {
        var parts = ["M " + Formatted.fixed(magnitude, 1)]
        if let place, !place.trimmingCharacters(in: .whitespaces).isEmpty { parts.append(shortenedPlace(place)) }
        parts.append(labelDate(time, withYear: withYear) + " UTC")
        return parts.joined(separator: " · ")
    }

    /// `31 Mar 23:52`, or `31 Mar 2020 23:52`.
    package static func labelDate(_ time: Date, withYear: Bool) -> String {
        Formatted.dayAndTime(time, withYear: withYear)
    }

    /// `place` when it is at most ``placeLengthLimit`` characters; otherwise
    /// cut at the last word boundary that leaves room for an ellipsis (so the
    /// leading `72 km W of` stays), without a dangling comma or dash.
    package static func shortenedPlace(_ place: String) -> String {
        let trimmed = place.trimmingCharacters(in: .whitespaces)
        guard trimmed.count > placeLengthLimit else { return trimmed }
        let room = trimmed.prefix(placeLengthLimit - 1)
        var kept = room
        if let space = room.lastIndex(of: " "), room.distance(from: room.startIndex, to: space) >= placeLengthLimit / 2 {
            kept = room[..<space]
        }
        let cut = String(kept).trimmingCharacters(in: CharacterSet(charactersIn: " ,;:-–—·"))
        return cut + "…"
    }

    /// The labels of the ``MapOptions/labelCount`` largest events, placed
    /// beside their circles, and the rectangles they take.
    ///
    /// Each label tries eight places around its circle, then rings of the same
    /// further out (with a thin leader line back to the circle): of the
    /// nearest ring with room, the place hiding the fewest of `circles` (the
    /// first on a tie) that stays inside the map and clear of `occupied`
    /// (the panels), of the labels placed before it and of the labelled
    /// circles. A label with no such place is left out. The largest event
    /// chooses first. A map without a basemap is a bare overlay of the events
    /// (for layering over other maps) and carries none, as it carries no plates.
    package func labelOverlay(for events: [MapEvent], circles: CircleLayer, geometry: MapGeometry, places: [String: String],
                      avoiding occupied: [PanelRect]) -> (overlay: SceneOverlay, rects: [PanelRect]) {
        let count = min(max(options.labelCount, 0), MapOptions.maximumLabelCount)
        guard count > 0, !events.isEmpty, options.basemap != .none else { return (SceneOverlay(), []) }
        let chosen = Self.largest(events, count: count)
        var earliest = events[0].time, latest = events[0].time
        for event in events {
            earliest = min(earliest, event.time)
            latest = max(latest, event.time)
        }
        let withYear = Formatted.year(earliest) != Formatted.year(latest)

        let measure = textMetrics()
        let s = overlayScale
        let size = 10 * s, padding = 4 * s, gap = 4 * s, inset = 4 * s
        let mapWidth = Double(options.pixelWidth), mapHeight = Double(options.pixelHeight)
        let anchors = chosen.map { event in
            (center: Self.pixel(of: event, geometry: geometry),
             // How far the symbol reaches: a diamond's corners go past its circle's radius.
             radius: SymbolShape(event).reach(diameter: options.symbols.diameter(magnitude: event.magnitude, scale: options.scale)))
        }

        let texts = chosen.map { event -> (text: String, width: Double) in
            let text = Self.fitting(Self.labelText(magnitude: event.magnitude, time: event.time, place: places[event.id],
                                                   withYear: withYear),
                                    into: mapWidth - 2 * inset - 2 * padding) { measure.width($0, size: size) }
            return (text, measure.width(text, size: size) + 2 * padding)
        }
        let height = size * 1.3 + 2 * padding
        // The spots' costs count only the circles binned near them: a label's spots span most
        // of a small map, and a list of the circles near each held most of a big map's circles.
        let grid = CircleGrid(circles, width: mapWidth, height: mapHeight)

        var overlay = SceneOverlay()
        var taken = occupied
        var placed: [PanelRect] = []
        for (label, anchor) in anchors.enumerated() {
            let (text, width) = texts[label]
            guard !text.isEmpty else { continue }
            let spots = Self.labelSpots(center: anchor.center, radius: anchor.radius, width: width, height: height, gap: gap)
                .filter { spot in
                    spot.rect.isInside(width: mapWidth, height: mapHeight, inset: inset)
                        && !taken.contains { $0.overlaps(spot.rect, gap: gap / 2) }
                        && !anchors.contains { spot.rect.intersectsDisc(x: $0.center.x, y: $0.center.y, diameter: 2 * $0.radius + gap) }
                }
            // The nearest ring that has room; in it, the spot hiding fewest events.
            let nearest = spots.filter { $0.ring == spots.first?.ring }
            let costs = nearest.map { grid.count(touching: $0.rect) }
            let spot = zip(nearest, costs).min { $0.1 < $1.1 }?.0
            guard let spot else { continue }
            let rect = spot.rect
            if spot.ring > 0 {
                overlay.lines.append(SceneLine(points: Self.leader(from: anchor.center, radius: anchor.radius, to: rect),
                                               stroke: options.palette.text.withAlpha(0.7), width: 0.8 * s))
            }
            var layout = OverlayLayout(palette: options.palette)
            layout.panel(rect.x, rect.y, rect.width, rect.height)
            layout.text(text, rect.x + padding, rect.y + padding + size, size, false, .left)
            overlay.append(layout.overlay)
            taken.append(rect)
            placed.append(rect)
        }
        return (overlay, placed)
    }

    /// Where a `width` × `height` label may go around a circle, nearest first:
    /// right, left, the four diagonals, above, below; then the same rings
    /// further out (`ring` above 0, drawn with a leader line).
    package static func labelSpots(center: PixelPoint, radius: Double, width: Double, height: Double,
                           gap: Double) -> [(rect: PanelRect, ring: Int)] {
        var spots: [(rect: PanelRect, ring: Int)] = []
        for ring in 0..<labelRings {
            let d = radius + gap + Double(ring) * height * 1.5, diagonal = d * 0.7071
            let origins = [
                (center.x + d, center.y - height / 2), (center.x - d - width, center.y - height / 2),
                (center.x + diagonal, center.y - diagonal - height), (center.x + diagonal, center.y + diagonal),
                (center.x - diagonal - width, center.y - diagonal - height), (center.x - diagonal - width, center.y + diagonal),
                (center.x - width / 2, center.y - d - height), (center.x - width / 2, center.y + d),
            ]
            for (x, y) in origins {
                spots.append((PanelRect(x: x, y: y, width: width, height: height), ring))
            }
        }
        return spots
    }

    /// The rings of ``labelSpots``: the nearest, then four further out.
    package static let labelRings = 5

    /// A leader line from the circle's edge to the nearest point of `rect`.
    package static func leader(from center: PixelPoint, radius: Double, to rect: PanelRect) -> [PixelPoint] {
        let end = PixelPoint(x: min(max(center.x, rect.x), rect.maxX), y: min(max(center.y, rect.y), rect.maxY))
        let dx = end.x - center.x, dy = end.y - center.y, length = (dx * dx + dy * dy).squareRoot()
        guard length > radius, length > 0 else { return [center, end] }
        return [PixelPoint(x: center.x + dx / length * radius, y: center.y + dy / length * radius), end]
    }
}

extension RGBA {
    /// The same colour at another opacity.
    package func withAlpha(_ alpha: Double) -> RGBA {
        RGBA(red: red, green: green, blue: blue, alpha: alpha)
    }
}
