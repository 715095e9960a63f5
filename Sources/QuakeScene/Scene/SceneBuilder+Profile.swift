import Foundation
import QuakeGeo
import QuakeModel
import QuakeQuery

/// A cross-section's profile over the events: where the section was cut, as
/// the map beside a section chart shows it.
extension SceneBuilder {
    /// The profile line A→B, thin lines along its band's edges, and the
    /// letters A and B just beyond its ends.
    package func profileOverlay(_ geometry: MapGeometry) -> SceneOverlay {
        guard let profile = options.profile else { return SceneOverlay() }
        let s = overlayScale
        // White over a dark casing: the line reads on the dark ocean and on the grey land alike.
        let casing = RGBA(red: 0.05, green: 0.05, blue: 0.08, alpha: 0.85), line = RGBA(red: 1, green: 1, blue: 1, alpha: 1)
        let edge = RGBA(red: 1, green: 1, blue: 1, alpha: 0.7)
        // A point every ~1/200 of the profile keeps the great circle's curve smooth.
        let spacing = max(1, profile.length / 200)
        var overlay = SceneOverlay()
        for across in [-profile.halfWidth, profile.halfWidth] {
            for piece in geometry.pixelLines(profile.points(spacing: spacing, across: across)) {
                overlay.lines.append(SceneLine(points: piece, stroke: casing, width: 2.2 * s))
                overlay.lines.append(SceneLine(points: piece, stroke: edge, width: 0.9 * s))
            }
        }
        for piece in geometry.pixelLines(profile.points(spacing: spacing)) {
            overlay.lines.append(SceneLine(points: piece, stroke: casing, width: 4 * s))
            overlay.lines.append(SceneLine(points: piece, stroke: line, width: 2 * s))
        }
        // Each letter sits on a small dark square a little beyond its end, on the line's continuation.
        let extra = max(profile.length * 0.05, profile.halfWidth * 0.6)
        let size = 13 * s, half = 9 * s
        for (letter, distance) in [("A", -extra), ("B", profile.length + extra)] {
            let place = profile.point(atDistance: distance)
            let at = geometry.point(latitude: place.latitude, longitude: place.longitude)
            overlay.panels.append(ScenePolygon(rings: [[
                PixelPoint(x: at.x - half, y: at.y - half), PixelPoint(x: at.x + half, y: at.y - half),
                PixelPoint(x: at.x + half, y: at.y + half), PixelPoint(x: at.x - half, y: at.y + half),
            ]], fill: casing))
            overlay.texts.append(SceneText(text: letter, position: PixelPoint(x: at.x, y: at.y + 0.36 * size), size: size,
                                           bold: true, color: line, alignment: .center))
        }
        return overlay
    }
}
