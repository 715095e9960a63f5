import Foundation
import QuakeModel
import QuakeParse
import QuakeGeo

/// Resolves events and a basemap into a ``MapScene``.
public struct SceneBuilder: Sendable {
    /// The look of the map.
    package var options: MapOptions
    /// Makes what measures the overlay's labels, once for each scene: a
    /// measurer may hold drawing state, which one thread at a time may use.
    package let textMetrics: @Sendable () -> any TextMetrics
    /// Whether the circles keep their events' ids (``SceneCircle/eventID``): what reads a scene
    /// needs them (animations, tests), a map only drawn does not (16 bytes a circle).
    package var keepsEventIDs = true
    /// A map of values (``scene(for:events:feedGenerated:feedTitle:)``) shows this colour bar in the legend's place.
    package var colorBar: SceneColorBar?

    /// A builder whose labels are measured by what `textMetrics` makes (the
    /// renderer stage's `init(options:)` passes Cairo's).
    package init(options: MapOptions, textMetrics: @escaping @Sendable () -> any TextMetrics) {
        self.options = options
        self.textMetrics = textMetrics
    }

    /// The scene for `events`, which should already be selected.
    ///
    /// Circles are ordered largest first so small ones stay visible on top;
    /// among equal sizes the most recent comes first, then the earlier in
    /// `events`. On a plate carrée world map a circle that crosses the left or
    /// right edge appears on the other side too (a globe has no such copies).
    /// Events without a magnitude are not drawn.
    ///
    /// No events is a map too: land, legend and footer, under a title that
    /// says there are none.
    ///
    /// - Parameters:
    ///   - feedGenerated: the feed's own time, for the footer and as "now" of
    ///     the age colouring.
    ///   - feedTitle: what the feed calls itself (``FeedSummary/title``): named
    ///     in the default title of a map with no events, which has no time span
    ///     to show.
    public func scene(for events: [SeismicEvent], feedGenerated: Date? = nil, feedTitle: String? = nil) -> MapScene {
        // Candidates from the events the map shows: larger ones outside its box would crowd them out.
        let box = options.region ?? .world
        let shown = events.allSatisfy { box.contains(latitude: $0.latitude, longitude: $0.longitude) } ? events
            : events.filter { box.contains(latitude: $0.latitude, longitude: $0.longitude) }
        return scene(for: shown.compactMap(MapEvent.init), feedGenerated: feedGenerated, feedTitle: feedTitle,
                     places: PlaceCandidates.places(of: shown))
    }

    /// The scene for events reduced to what a map needs (see ``MapEvent``),
    /// by the same rules as for whole events.
    ///
    /// - Parameter places: event id → place (`72 km W of Challis, Idaho`)
    ///   for the events that may be labelled, the largest
    ///   (``SelectedEvents/places``); a labelled event missing from it is
    ///   labelled without a place.
    package func scene(for events: consuming [MapEvent], feedGenerated: Date? = nil,
                      feedTitle: String? = nil, places: [String: String] = [:]) -> MapScene {
        let projection = options.projection
        let box = options.region ?? .world
        if !events.allSatisfy({ box.contains(latitude: $0.latitude, longitude: $0.longitude) }) {
            events = events.filter { box.contains(latitude: $0.latitude, longitude: $0.longitude) }
        }
        let geometry = options.geometry
        let land: (polygons: [ScenePolygon], coastlines: [SceneLine]), lines: [SceneLine]
        var background = options.basemap == .none ? nil : options.palette.ocean
        switch geometry {
        case .plateCarree:
            land = landLayers(projection)
            lines = graticule(projection) + land.coastlines
        case .globe(let globe):
            // The ocean fills the globe only; the corners outside it stay transparent.
            land = globeLayers(globe)
            // Without a basemap the map is the events alone: no outline either.
            lines = globeGraticule(globe) + land.coastlines + (options.basemap == .none ? [] : [globeOutline(globe)])
            background = nil
        }
        let plates = plateLayers(geometry)
        let resolver = CircleResolver(symbols: options.symbols, scale: options.scale, events: events, feedGenerated: feedGenerated)
        // Events with a mechanism are beachballs when asked for (placed once the panels are); the rest stay circles.
        let ballStyle = events.contains { $0.mechanism != nil } ? options.symbols.beachballs : nil
        let circleLayer: CircleLayer
        if ballStyle == nil {
            circleLayer = circles(for: events, geometry: geometry, resolver: resolver)
        } else {
            let drawnAsCircles = (copy events).filter { $0.mechanism == nil }
            circleLayer = circles(for: drawnAsCircles, geometry: geometry, resolver: resolver)
        }
        var overlay = profileOverlay(geometry)
        // The panels keep clear of the profile: its line and its letters are what the map is for.
        let keepClear = overlay.lines.flatMap(\.points) + overlay.panels.flatMap { $0.rings.flatMap { $0 } }
        overlay.append(self.overlay(for: events, circles: circleLayer, geometry: geometry, places: places,
                                    feedGenerated: feedGenerated, feedTitle: feedTitle, keepClear: keepClear))
        var scene = MapScene(
            width: options.pixelWidth,
            height: options.pixelHeight,
            background: background,
            polygons: land.polygons,
            lines: lines + plates.lines,
            lineMarks: plates.teeth,
            circleLayer: circleLayer,
            overlay: overlay
        )
        if options.basemap == .relief {
            let mapping: SceneRelief.Mapping
            switch geometry {
            case .plateCarree(let projection): mapping = .plateCarree(projection)
            case .globe(let globe): mapping = .globe(globe)
            }
            scene.relief = SceneRelief(mapping: mapping, width: scene.width, height: scene.height, palette: options.palette.relief)
        }
        if let ballStyle {
            scene.beachballs = beachballs(for: events, style: ballStyle, geometry: geometry, resolver: resolver,
                                          panels: scene.overlay.panels)
        }
        return scene
    }

    /// The beachballs of the events with a mechanism, largest first (the small ones on top, as circles are),
    /// crowded ones moved clear of each other and of the panels with a leader line to their epicentre.
    private func beachballs(for events: [MapEvent], style: BeachballStyle, geometry: MapGeometry,
                            resolver: CircleResolver, panels: [ScenePolygon]) -> [SceneBeachball] {
        let withMechanism = events.filter { $0.mechanism != nil }
            .sorted { $0.magnitude != $1.magnitude ? $0.magnitude > $1.magnitude : $0.time > $1.time }
        func diameter(_ event: MapEvent) -> Double {
            max(resolver.diameter(event) * style.scale, BeachballStyle.minimumDiameter * options.scale)
        }
        guard let largest = withMechanism.first else { return [] }
        var placement = BeachballPlacement(width: Double(options.pixelWidth), height: Double(options.pixelHeight), panels: panels,
                                           largestRadius: diameter(largest) / 2, gap: 1.5 * options.scale)
        return withMechanism.compactMap { event in
            let circle = resolver.circle(event, at: Self.pixel(of: event, geometry: geometry))
            let size = diameter(event)
            let center = placement.place(circle.center, radius: size / 2)
            guard var ball = Beachball.ball(event.mechanism!, drawing: style.drawing, center: center, diameter: size,
                                            fill: circle.fill, eventID: event.id) else { return nil }
            let dx = center.x - circle.center.x, dy = center.y - circle.center.y
            if dx * dx + dy * dy > 0.25 { ball.epicentre = circle.center }
            return ball
        }
    }

    /// Where `event` is drawn: the one call that places circles and labels alike.
    package static func pixel(of event: MapEvent, geometry: MapGeometry) -> PixelPoint {
        geometry.point(latitude: event.latitude, longitude: event.longitude)
    }

    /// The circles, largest first, made in drawing order: no second copy of
    /// the layer to reorder (for a million circles, 44 MB of fresh memory
    /// and a fifth of the scene's time), in parts on all cores.
    private func circles(for events: [MapEvent], geometry: MapGeometry, resolver: CircleResolver) -> CircleLayer {
        // Diameters are worked out again where needed rather than kept: a few
        // multiplications against 8 MB per million at the scene's peak (which is the process's).
        let order = resolver.drawingOrder(events)
        // Where a circle crosses the left or right edge, a copy a turn east
        // (bit 0) or west (bit 1) shows the part cut off. A globe does not wrap.
        let copies: [UInt8]
        let wrapWidth: Double
        if case .plateCarree(let projection) = geometry, projection.wraps {
            wrapWidth = projection.wrapWidth
            copies = events.map { event in
                let x = projection.project(latitude: 0, longitude: event.longitude).x, radius = resolver.reach(event)
                return (x - radius < 0 ? 1 : 0) | (x + radius > projection.width ? 2 : 0)
            }
        } else {
            wrapWidth = 0
            copies = []
        }
        let parts = events.count >= 50_000 ? ParallelParts.cores : 1
        let bounds = (0...parts).map { events.count * $0 / parts }
        let counts = (0..<parts).map { part in
            let positions = bounds[part]..<bounds[part + 1]
            guard !copies.isEmpty else { return positions.count }
            return positions.reduce(0) { count, position in
                let flags = copies[Int(order[position])]
                return count + 1 + Int(flags & 1) + Int(flags >> 1)
            }
        }
        return CircleLayer(parts: counts, keepingIDs: keepsEventIDs) { part, layer in
            for position in bounds[part]..<bounds[part + 1] {
                let index = Int(order[position]), event = events[index]
                var circle = resolver.circle(event, at: Self.pixel(of: event, geometry: geometry))
                layer.append(circle)
                let flags = copies.isEmpty ? 0 : copies[index], x = circle.center.x
                if flags & 1 != 0 {
                    circle.center.x = x + wrapWidth
                    layer.append(circle)
                }
                if flags & 2 != 0 {
                    circle.center.x = x - wrapWidth
                    layer.append(circle)
                }
            }
        }
    }

    /// The land to draw: the caller's, or Natural Earth at the detail the scale needs.
    package var basemap: Basemap? {
        switch options.basemap {
        case .none: return nil
        case .custom(let basemap): return basemap
        case .naturalEarth, .relief:
            return .naturalEarth(pixelsPerDegree: Double(options.pixelWidth) / (options.region ?? .world).longitudeSpan)
        }
    }

    /// Land polygons and their coastlines, repeated a turn east or west where
    /// the map's longitudes need it (a Pacific-centred world, a box across 180°).
    private func landLayers(_ projection: PlateCarree) -> (polygons: [ScenePolygon], coastlines: [SceneLine]) {
        guard let basemap else { return ([], []) }
        let visibleWest = projection.west, visibleEast = projection.west + projection.longitudeSpan
        var landRings: [[PixelPoint]] = []
        var coastlines: [SceneLine] = []
        let coastWidth = 0.6 * options.scale
        for polygon in basemap.land {
            guard let outline = polygon.rings.first, !outline.isEmpty else { continue }
            let longitudes = outline.map(\.longitude), latitudes = outline.map(\.latitude)
            guard latitudes.max()! >= projection.south, latitudes.min()! <= projection.north else { continue }
            for turn in -1...1 {
                let shift = Double(turn) * 360
                guard longitudes.max()! + shift > visibleWest, longitudes.min()! + shift < visibleEast else { continue }
                let rings = polygon.rings.map { ring in
                    ring.map { projection.projectUnwrapped(latitude: $0.latitude, longitude: $0.longitude + shift) }
                }
                landRings.append(contentsOf: rings)
                for (ring, pixels) in zip(polygon.rings, rings) {
                    for run in Self.coastalRuns(ring) {
                        coastlines.append(SceneLine(points: Array(pixels[run]), stroke: options.palette.coastline, width: coastWidth))
                    }
                }
            }
        }
        // One path for all land: where polygons meet (Natural Earth's cut at
        // ±180°, now inside the map), separate fills would leave a faint seam.
        return (landRings.isEmpty || options.basemap == .relief ? [] : [ScenePolygon(rings: landRings, fill: options.palette.land)],
                coastlines)
    }

    /// The stretches of a ring that are real coast: Natural Earth cuts land at
    /// ±180° and closes Antarctica along −90°, and stroking those cuts would
    /// draw lines that are not there.
    package static func coastalRuns(_ ring: [GeoPoint]) -> [ClosedRange<Int>] {
        var runs: [ClosedRange<Int>] = []
        var start: Int?
        for index in 0..<max(0, ring.count - 1) {
            let a = ring[index], b = ring[index + 1]
            let artificial = (abs(a.longitude) == 180 && abs(b.longitude) == 180) || (a.latitude == -90 && b.latitude == -90)
            if artificial {
                if let first = start { runs.append(first...index) }
                start = nil
            } else if start == nil {
                start = index
            }
        }
        if let first = start, ring.count > 1 { runs.append(first...(ring.count - 1)) }
        return runs
    }
}
