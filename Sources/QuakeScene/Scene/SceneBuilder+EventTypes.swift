import Foundation
import QuakeModel
import QuakeGeo

/// The legend's row for events that are not earthquakes: a diamond sample
/// and what it means, shown only when such events are on the map.
package struct OtherTypesLegendRow {
    /// The row's words.
    package static let label = "Not an earthquake"

    /// The diameter of the circle whose area the sample diamond has.
    package let sampleDiameter: Double
    package let labelSize: Double
    package let labelWidth: Double
    /// Space above the row, and between the sample and its label.
    package let gap: Double
    package let fill: RGBA

    /// The sample's diagonal.
    package var diagonal: Double { SymbolShape.diamondDiagonal(diameter: sampleDiameter) }
    /// The width the row takes in the panel.
    package var width: Double { diagonal + gap / 2 + labelWidth }
    /// The height the row adds to the panel, the gap above it included.
    package var height: Double { gap + max(diagonal, labelSize * 1.2) }

    /// Lays the row out with its top left (above its gap) at (`left`, `top`).
    package func place(into layout: inout OverlayLayout, left: Double, top: Double) {
        let middle = top + gap + max(diagonal, labelSize * 1.2) / 2
        layout.overlay.circles.append(SceneCircle(center: PixelPoint(x: left + diagonal / 2, y: middle),
                                                  diameter: sampleDiameter, fill: fill, eventID: "", shape: .diamond))
        layout.text(Self.label, left + diagonal + gap / 2, middle + labelSize * 0.35, labelSize, false, .left)
    }
}

/// The legend's row for beachballs: a sample (a thrust, its compression in the colour of
/// an M5) and what the colours mean, shown only when balls are drawn.
package struct MechanismLegendRow {
    package static let label = "Focal mechanism: compression coloured"

    package let diameter: Double
    package let labelSize: Double
    package let labelWidth: Double
    package let gap: Double
    package let fill: RGBA

    package var width: Double { diameter + gap / 2 + labelWidth }
    package var height: Double { gap + max(diameter, labelSize * 1.2) }

    package func place(into layout: inout OverlayLayout, left: Double, top: Double) {
        let middle = top + gap + max(diameter, labelSize * 1.2) / 2
        let sample = FocalMechanism(nodalPlanes: [NodalPlane(strike: 30, dip: 40, rake: 90)])
        if let ball = Beachball.ball(sample, drawing: .doubleCouple, center: PixelPoint(x: left + diameter / 2, y: middle),
                                     diameter: diameter, fill: fill, eventID: "") {
            layout.overlay.beachballs.append(ball)
        }
        layout.text(Self.label, left + diameter + gap / 2, middle + labelSize * 0.35, labelSize, false, .left)
    }
}

extension SceneBuilder {
    /// The legend row for beachballs when they are drawn, else `nil`.
    package func mechanismLegendRow(for events: [MapEvent], measure: any TextMetrics) -> MechanismLegendRow? {
        guard options.symbols.beachballs != nil, events.contains(where: { $0.mechanism != nil }) else { return nil }
        let s = overlayScale, labelSize = 10 * s
        return MechanismLegendRow(diameter: 16 * s, labelSize: labelSize,
                                  labelWidth: measure.width(MechanismLegendRow.label, size: labelSize),
                                  gap: 10 * s, fill: options.symbols.sizes.fill(magnitude: 5))
    }

    /// The legend row for other event types when `events` hold any, else `nil`.
    package func otherTypesLegendRow(for events: [MapEvent], measure: any TextMetrics) -> OtherTypesLegendRow? {
        guard events.contains(where: { !$0.isEarthquake }) else { return nil }
        let s = overlayScale, labelSize = 10 * s
        // As large as the colour swatches: the sample shows the shape; sizes are the row above's.
        return OtherTypesLegendRow(sampleDiameter: 10 * s, labelSize: labelSize,
                                   labelWidth: measure.width(OtherTypesLegendRow.label, size: labelSize),
                                   gap: 10 * s, fill: RGBA(red: 0.85, green: 0.87, blue: 0.9, alpha: 0.6))
    }
}
