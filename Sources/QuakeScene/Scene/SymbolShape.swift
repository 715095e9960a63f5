import Foundation
import QuakeModel
import QuakeGeo

/// The outline of an event's symbol: a circle for an earthquake, a diamond
/// for any other type (quarry blast, explosion, ice quake…), as the USGS
/// maps tell them apart.
///
/// A diamond has the area of the circle it stands in for, so its size still
/// reads as the magnitude: a square turned 45°, its diagonal
/// ``diamondDiagonal(diameter:)`` = D·√(π/2) for a circle of diameter D.
package enum SymbolShape: UInt8, Sendable, Hashable, CaseIterable {
    /// An earthquake.
    case circle
    /// Any other event type.
    case diamond

    /// The shape `event` is drawn with.
    package init(_ event: MapEvent) {
        self = event.isEarthquake ? .circle : .diamond
    }

    /// The diagonal of the diamond whose area is that of a circle of
    /// `diameter`: πD²/4 = d²/2.
    package static func diamondDiagonal(diameter: Double) -> Double {
        diameter * (Double.pi / 2).squareRoot()
    }

    /// How far the shape of a circle of `diameter` reaches from its centre
    /// along x or y: half its bounding box's side. A diamond reaches
    /// √(π/2) ≈ 1.25 times as far as the circle, at its corners.
    package func reach(diameter: Double) -> Double {
        switch self {
        case .circle: diameter / 2
        case .diamond: Self.diamondDiagonal(diameter: diameter) / 2
        }
    }

    /// Whether the shape of `diameter` centred at `offset` from the nearest
    /// point of a box (0 for a centre inside it) overlaps the box.
    package func touches(offsetX dx: Double, offsetY dy: Double, diameter: Double) -> Bool {
        switch self {
        case .circle:
            let radius = diameter / 2
            return dx * dx + dy * dy < radius * radius
        case .diamond:
            return abs(dx) + abs(dy) < reach(diameter: diameter)
        }
    }

    /// The diamond's corners around `center`, clockwise from the top (y down).
    package static func diamondCorners(center: PixelPoint, diameter: Double) -> [PixelPoint] {
        let half = diamondDiagonal(diameter: diameter) / 2
        return [PixelPoint(x: center.x, y: center.y - half), PixelPoint(x: center.x + half, y: center.y),
                PixelPoint(x: center.x, y: center.y + half), PixelPoint(x: center.x - half, y: center.y)]
    }
}
