import QuakeModel
import QuakeQuery

/// The charts quakemap draws, with what each needs beyond the events.
public enum ChartKind: Sendable, Hashable {
    /// Each event's magnitude against its time, sized and coloured as on the map.
    case magnitudeTime
    /// The cumulative count of events, and of seismic moment, against time.
    case cumulative
    /// Events per hour, day, week or month (whichever the span suits).
    case rate
    /// How many events at each depth.
    case depth
    /// The frequency–magnitude distribution with its completeness magnitude and b-value.
    case frequencyMagnitude(binning: MagnitudeBinning = .tenth, completeness: CompletenessMethod = .standard)
    /// Depth against distance along a profile, for the events within its half-width.
    case crossSection(CrossSectionProfile)
}

extension ChartBuilder {
    /// The chart `kind` of `events`, resolved in pixels like a map's scene.
    public func scene(_ kind: ChartKind, for events: [SeismicEvent]) -> MapScene {
        switch kind {
        case .magnitudeTime: magnitudeTime(events)
        case .cumulative: cumulative(events)
        case .rate: rate(events)
        case .depth: depthHistogram(events)
        case .frequencyMagnitude(let binning, let completeness): frequencyMagnitude(events, binning: binning, method: completeness)
        case .crossSection(let profile): crossSection(events, profile: profile)
        }
    }
}
