/// Resolves events and a basemap into a ``MapScene``.
public struct SceneBuilder: Sendable {
    /// The look of the map.
    public var options: MapOptions

    /// Creates a builder.
    public init(options: MapOptions = MapOptions()) {
        self.options = options
    }

    /// The scene for `events`, which should already be selected.
    ///
    /// Circles are ordered largest first so small ones stay visible on top;
    /// among equal sizes the most recent comes first. A circle that crosses
    /// the left or right edge appears on the other side too, since the world wraps.
    public func scene(for events: [SeismicEvent]) -> MapScene {
        let projection = PlateCarree(width: Double(options.width), height: Double(options.height))
        let polygons = (options.basemap?.land ?? []).map { polygon in
            ScenePolygon(
                rings: polygon.rings.map { ring in
                    ring.map { projection.project(latitude: $0.latitude, longitude: $0.longitude) }
                },
                fill: options.palette.land
            )
        }
        let ordered = events.compactMap { event -> (SeismicEvent, Double)? in
            guard let magnitude = event.magnitude else { return nil }
            return (event, options.style.diameter(magnitude: magnitude))
        }.enumerated().sorted { lhs, rhs in
            let (a, b) = (lhs.element, rhs.element)
            if a.1 != b.1 { return a.1 > b.1 }
            if a.0.time != b.0.time { return a.0.time > b.0.time }
            return lhs.offset < rhs.offset
        }.map(\.element)

        var circles: [SceneCircle] = []
        circles.reserveCapacity(ordered.count)
        for (event, diameter) in ordered {
            let center = projection.project(latitude: event.latitude, longitude: event.longitude)
            let circle = SceneCircle(
                center: center,
                diameter: diameter,
                fill: options.style.fill(magnitude: event.magnitude ?? 0),
                eventID: event.id
            )
            circles.append(circle)
            let radius = diameter / 2
            if center.x - radius < 0 {
                circles.append(circle.shifted(by: projection.wrapWidth))
            }
            if center.x + radius > projection.wrapWidth {
                circles.append(circle.shifted(by: -projection.wrapWidth))
            }
        }
        return MapScene(
            width: options.width,
            height: options.height,
            background: options.basemap == nil ? nil : options.palette.ocean,
            polygons: polygons,
            circles: circles
        )
    }
}

extension SceneCircle {
    func shifted(by dx: Double) -> SceneCircle {
        var copy = self
        copy.center.x += dx
        return copy
    }
}
