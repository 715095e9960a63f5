import Foundation

/// A cross-section's profile over the events: where the section was cut, as
/// the map beside a section chart shows it.
extension SceneBuilder {
    /// The profile line A→B, thin lines along its band's edges, and the
    /// letters A and B just beyond its ends.
    func profileOverlay(_ geometry: MapGeometry) -> SceneOverlay {
        guard let profile = options.profile else { return SceneOverlay() }
        let s = overlayScale, ink = RGBA(red: 0.05, green: 0.05, blue: 0.08, alpha: 1)
        // Spacing: a point every ~1/200 of the profile keeps the great circle's curve smooth.
        let spacing = max(1, profile.length / 200)
        var overlay = SceneOverlay()
        for across in [-profile.halfWidth, profile.halfWidth] {
            for piece in geometry.pixelLines(profile.points(spacing: spacing, across: across)) {
                overlay.lines.append(SceneLine(points: piece, stroke: RGBA(red: 0.05, green: 0.05, blue: 0.08, alpha: 0.55), width: 0.8 * s))
            }
        }
        for piece in geometry.pixelLines(profile.points(spacing: spacing)) {
            overlay.lines.append(SceneLine(points: piece, stroke: ink, width: 2 * s))
        }
        // Each letter sits a little beyond its end, on the line's continuation.
        let extra = max(profile.length * 0.04, profile.halfWidth * 0.6)
        for (letter, distance) in [("A", -extra), ("B", profile.length + extra)] {
            let at = geometry.point(latitude: profile.point(atDistance: distance).latitude,
                                    longitude: profile.point(atDistance: distance).longitude)
            overlay.texts.append(SceneText(text: letter, position: PixelPoint(x: at.x, y: at.y + 5 * s), size: 14 * s,
                                           bold: true, color: ink, alignment: .center))
        }
        return overlay
    }
}
