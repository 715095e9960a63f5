import Foundation
import QuakeModel
import QuakeParse
import QuakeGeo

/// A time-lapse of a selection resolved into scenes: the map under the events
/// (`base`), every event's circle in time order, and the scene of any
/// moment (``scene(at:)``). Time runs linearly from the first event to the
/// last; an event appears at its time with its map symbol, fades to a remnant
/// over `fade` and stays, so the last frame shows the whole
/// sequence. Circles are drawn oldest first, so a new event sits on top.
///
/// The title, legend and footer are those of the map of all the events, placed
/// once where they hide the fewest of them; the clock goes in the corner that
/// hides the fewest and touches no panel.
public struct Animation: Sendable, Hashable {
    /// The options it was made with.
    package let options: AnimationOptions
    /// The first event's time (`nil` without events).
    package let start: Date?
    /// The last event's time (`nil` without events).
    package let end: Date?
    /// Frames from `start` to `end`: `frameCount`, or 1
    /// when there is no span (no events, or all at one time).
    public let frameCount: Int
    /// The fade in catalogue seconds, the default applied.
    package let fade: TimeInterval
    /// What lies under the events: background, land, graticule, plates, no
    /// circles and no overlay. Drawn once for all frames.
    package let base: MapScene
    /// Every circle (wrap copies included), oldest event first.
    package let circles: CircleLayer
    /// For each circle, its event's time (seconds since 1970), ascending.
    package let circleTimes: [Double]
    /// Title, legend and footer (the events under the panels are not drawn again on them).
    package let overlay: SceneOverlay
    /// Where the clock goes, and its text's size.
    package let clock: ClockPlace?
    package let palette: MapPalette

    /// Resolves `events` (the selection, in any order; those outside the
    /// map's region are left out) into the animation's layers.
    package init(events: [MapEvent], options: AnimationOptions, builder: SceneBuilder, feedGenerated: Date?, feedTitle: String?) {
        self.options = options
        self.palette = options.map.palette
        // Each event's time order, as its id: the circles then sort back into time order
        // whatever order and copies the map's builder makes.
        // Only the events the map shows set the span, as only they are drawn.
        let box = options.map.region ?? .world
        let shown = events.filter { box.contains(latitude: $0.latitude, longitude: $0.longitude) }
        let sorted = shown.enumerated().sorted { lhs, rhs in
            lhs.element.time != rhs.element.time ? lhs.element.time < rhs.element.time : lhs.offset < rhs.offset
        }.map(\.element)
        let tagged = sorted.enumerated().map { position, event in
            var event = event
            event.id = String(position)
            return event
        }
        var builder = builder
        builder.options.labelCount = 0
        var map = builder.scene(for: tagged, feedGenerated: feedGenerated, feedTitle: feedTitle)
        let layer = map.circles
        var byTime: [(event: Int, circle: Int)] = []
        byTime.reserveCapacity(layer.count)
        for index in layer.indices { byTime.append((Int(layer[index].eventID) ?? 0, index)) }
        byTime.sort { lhs, rhs in lhs.event != rhs.event ? lhs.event < rhs.event : lhs.circle < rhs.circle }
        var circles = CircleLayer()
        circles.reserveCapacity(byTime.count)
        for (event, index) in byTime {
            var circle = layer[index]
            circle.eventID = sorted[event].id
            circles.append(circle)
        }
        self.circles = circles
        self.circleTimes = byTime.map { sorted[$0.event].time.timeIntervalSince1970 }
        self.start = sorted.first?.time
        self.end = sorted.last?.time
        let span = (end?.timeIntervalSince(start ?? .distantPast)) ?? 0
        self.frameCount = span > 0 ? options.frameCount : 1
        self.fade = options.fade ?? span / 10
        var overlay = map.overlay
        overlay.eventCircles = []
        self.overlay = overlay
        map.circles = CircleLayer()
        map.overlay = SceneOverlay()
        self.base = map
        self.clock = options.showsClock && start != nil
            ? Self.clockPlace(builder: builder, overlay: overlay, circles: circles) : nil
    }

    /// The moment frame `index` (0 ..< ``frameCount``) shows: linear from
    /// ``start`` to ``end``.
    package func time(ofFrame index: Int) -> Date? {
        guard let start, let end else { return nil }
        guard frameCount > 1 else { return end }
        let fraction = Double(min(max(index, 0), frameCount - 1)) / Double(frameCount - 1)
        return start.addingTimeInterval(end.timeIntervalSince(start) * fraction)
    }

    /// How long frame `index` stays on screen, in seconds: 1 / fps, and the
    /// last frame the hold more.
    package func delay(ofFrame index: Int) -> Double {
        let step = 1 / Double(options.fps)
        return index == frameCount - 1 ? step + options.hold : step
    }

    /// The scene of frame `index`: ``scene(at:)`` of its time.
    package func scene(ofFrame index: Int) -> MapScene {
        scene(at: time(ofFrame: index))
    }

    /// The map at `moment`: the base, the events up to it (faded by their
    /// age, oldest first), the title, legend and footer, and the clock.
    /// `nil` (no events) is the empty map.
    public func scene(at moment: Date?) -> MapScene {
        var scene = base
        var overlay = self.overlay
        if let moment {
            let now = moment.timeIntervalSince1970
            // Circles are in time order: those shown are a prefix.
            var low = 0, high = circleTimes.count
            while low < high {
                let middle = (low + high) / 2
                if circleTimes[middle] <= now { low = middle + 1 } else { high = middle }
            }
            var layer = CircleLayer()
            layer.reserveCapacity(low)
            for index in 0..<low {
                var circle = circles[index]
                circle.fill.alpha *= opacity(age: now - circleTimes[index])
                layer.append(circle)
            }
            scene.circles = layer
            if let clock {
                let corners = [PixelPoint(x: clock.panel.x, y: clock.panel.y), PixelPoint(x: clock.panel.maxX, y: clock.panel.y),
                               PixelPoint(x: clock.panel.maxX, y: clock.panel.maxY), PixelPoint(x: clock.panel.x, y: clock.panel.maxY),
                               PixelPoint(x: clock.panel.x, y: clock.panel.y)]
                overlay.panels.append(ScenePolygon(rings: [corners], fill: palette.panel))
                overlay.texts.append(SceneText(text: Self.clockText(moment),
                                               position: PixelPoint(x: clock.panel.x + clock.padding,
                                                                    y: clock.panel.y + clock.padding + clock.size),
                                               size: clock.size, bold: true, color: palette.text))
            }
        }
        scene.overlay = overlay
        return scene
    }

    /// The share of its map opacity an event keeps `age` seconds after its
    /// time: 1 falling linearly to the remnant over the fade, in steps of
    /// 1/128 (the circles of a frame share few distinct fills).
    package func opacity(age: Double) -> Double {
        let remnant = options.remnant
        guard fade > 0 else { return age <= 0 ? 1 : remnant }
        let faded = min(1, max(0, age / fade))
        return ((1 - (1 - remnant) * faded) * 128).rounded() / 128
    }

    /// `2020-06-14 03:27:05 UTC`.
    package static func clockText(_ date: Date) -> String {
        Formatted.time(date, .seconds) + " UTC"
    }

    /// The corner for the clock: clear of the title, legend and footer, and
    /// among those the one hiding the fewest circles (top right first on ties).
    private static func clockPlace(builder: SceneBuilder, overlay: SceneOverlay,
                                   circles: CircleLayer) -> ClockPlace {
        let s = builder.overlayScale, size = 15 * s, padding = 8 * s
        // Digits are as wide as each other in the map's font: one sample measures every time.
        let width = builder.textMetrics().width(clockText(Date(timeIntervalSince1970: 0)), size: size, bold: true) + 2 * padding
        let height = size * 1.2 + 2 * padding
        let placement = PanelPlacement(mapWidth: Double(builder.options.pixelWidth),
                                       mapHeight: Double(builder.options.pixelHeight), margin: 12 * s)
        let taken = overlay.panels.map { panel -> PanelRect in
            let points = panel.rings.flatMap { $0 }
            let xs = points.map(\.x), ys = points.map(\.y)
            let left = xs.min() ?? 0, top = ys.min() ?? 0
            return PanelRect(x: left, y: top, width: (xs.max() ?? 0) - left, height: (ys.max() ?? 0) - top)
        }
        let anchors: [PanelPlacement.Anchor] = [.topRight, .bottomCenter, .topCenter, .bottomRight, .bottomLeft, .topLeft]
        let candidates = anchors.map { placement.rect(width: width, height: height, at: $0) }
        let costs = PanelPlacement.coverage(of: candidates, in: circles)
        let free = candidates.indices.filter { index in !taken.contains { candidates[index].overlaps($0, gap: 6 * s) } }
        let best = (free.isEmpty ? Array(candidates.indices) : free).min { costs[$0] < costs[$1] } ?? 0
        return ClockPlace(panel: candidates[best], size: size, padding: padding)
    }
}

/// Where an animation's clock goes: its panel, and its text's size and inset.
package struct ClockPlace: Sendable, Hashable {
    package var panel: PanelRect
    package var size: Double
    package var padding: Double
}
