// Pipeline/ — the stages wired together for callers: QuakeMap (feed → selection → map) and
// TilePyramid (events → every tile, drawn on all cores).

import Foundation
import QuakeModel
import QuakeParse
import QuakeQuery
import QuakeScene
import QuakeRender
import QuakeWrite

/// The selected events of a feed, with what reading it found: whole events
/// (``FeedSelection``) or what a map draws of them (``MapSelection``).
public struct SelectedEvents<Event: Sendable & Hashable>: Sendable, Hashable {
    /// The selected events, most recent first; a ``MapSelection`` without a
    /// limit keeps feed order (``SceneBuilder`` orders the circles itself).
    public var events: [Event]
    /// Counts and rejections from reading the feed.
    public var summary: FeedSummary
    /// Rows that repeated an event id; only the latest version of each was kept.
    public var duplicates: Int
    /// Event id → place (`72 km W of Challis, Idaho`) of the largest selected
    /// events, the ones a map may label (``MapOptions/labelCount``): a
    /// ``MapEvent`` has no place, and keeping one for each of a million
    /// events would cost more than the events. Empty for whole events, which
    /// carry their places.
    package var places: [String: String]

    /// Creates a selection result.
    package init(events: [Event], summary: FeedSummary, duplicates: Int = 0, places: [String: String] = [:]) {
        self.events = events
        self.summary = summary
        self.duplicates = duplicates
        self.places = places
    }
}

/// Whole selected events (``QuakeMap/select(from:feed:selection:)``).
public typealias FeedSelection = SelectedEvents<SeismicEvent>

extension SelectedEvents where Event == MapEvent {
    /// The map events of whole events that `produce` hands over one at a time, already
    /// selected and in order (a catalogue's, a server's), with the places of the largest for
    /// labels, as a read of a file keeps them: memory is a map event's per event, never a whole one's.
    /// `expected`, an upper bound of the events (a catalogue's count, the limit), sizes the array
    /// once: grown by doubling, 5 M events would briefly hold 1.5 times their memory, in two buffers.
    /// Room never written costs address space, not memory.
    package static func collecting(expected: Int = 0,
                                   _ produce: ((SeismicEvent) throws -> Void) async throws -> FeedSummary) async rethrows
        -> MapSelection {
        var events: [MapEvent] = [], largest = PlaceCandidates()
        events.reserveCapacity(expected)
        let summary = try await produce { event in
            guard let mapped = MapEvent(event) else { return }
            events.append(mapped)
            largest.offer(magnitude: mapped.magnitude, time: mapped.time, (event.id, event.place))
        }
        return MapSelection(events: events, summary: summary, places: largest.places)
    }
}

/// Selected events reduced to what a map draws (``QuakeMap/select(from:feed:selection:as:)`` with ``MapEvent``).
public typealias MapSelection = SelectedEvents<MapEvent>

/// One call per job, each the documented way in for an embedding program:
///
/// | job | call |
/// |---|---|
/// | select | ``select(from:feed:selection:)`` (``select(from:feed:selection:as:)`` for ``MapEvent``) |
/// | render a map | ``render(_:options:format:)-(FeedSelection,_,_)`` |
/// | export a list | ``list(from:feed:selection:format:columns:)`` |
/// | statistics | ``statistics(from:feed:selection:binning:completeness:)`` |
/// | chart | ``chart(_:for:options:format:)`` |
/// | report | ``report(for:options:)`` |
/// | animate | ``animate(for:options:to:)`` |
/// | tiles | ``tiles(for:zooms:options:to:)`` |
///
/// Each returns bytes or writes a file atomically; ``AtomicFileWriter`` writes
/// returned bytes the same way. To put several maps and charts on one page,
/// build scenes (``SceneBuilder``, ``ChartBuilder``) and lay them out with
/// ``ReportPage`` (see <doc:MapsInReports>).
public enum QuakeMap {
    /// The version of quakemap, the one that the programs' `--version` and the server's
    /// OpenAPI document give.
    public static let version = "0.2.0"

    /// Reads `source` and keeps the selected events while streaming, so memory
    /// is bounded by the limit, not by the size of the feed.
    public static func select(
        from source: FeedSource,
        feed: FeedOptions = FeedOptions(),
        selection: EventSelection = EventSelection()
    ) throws -> FeedSelection {
        try select(from: source, feed: feed, selection: selection, as: SeismicEvent.self)
    }

    /// Like ``select(from:feed:selection:)``, keeping of each event what
    /// `type` holds: ``MapEvent`` keeps only what a map draws, so without a
    /// limit a million events take about 60 MB (80 MB while repeated ids are
    /// found at the end) rather than several hundred.
    public static func select<Event: SelectableEvent>(
        from source: FeedSource,
        feed: FeedOptions = FeedOptions(),
        selection: EventSelection = EventSelection(),
        as type: Event.Type
    ) throws -> SelectedEvents<Event> {
        try Event.selectEvents(from: source, feed: feed, selection: selection)
    }

    /// Reads `source` and lists the selected events as `format`, spooled
    /// (``EventListSpool``): memory bounded independent of the feed's size,
    /// whatever the limit. The one element of `events` writes the list;
    /// `columns` are a CSV's or JSON's fields (the USGS CSV's 22 by default).
    public static func list(
        from source: FeedSource,
        feed: FeedOptions = FeedOptions(),
        selection: EventSelection = EventSelection(limit: nil),
        format: EventListFormat,
        columns: EventColumns = .usgs
    ) throws -> SelectedEvents<EventListSpool> {
        let spool = try EventListSpool(from: source, feed: feed, selection: selection, format: format, columns: columns)
        return SelectedEvents(events: [spool], summary: spool.summary, duplicates: spool.duplicates)
    }

    /// Draws `events` as a PNG map.
    package static func pngData(for events: [SeismicEvent], options: MapOptions = MapOptions()) throws -> Data {
        try MapRenderer().data(for: SceneBuilder(drawing: options).scene(for: events), format: .png)
    }

    /// Draws a selection as a map in `format`; the feed's generation time goes
    /// in the footer. An empty selection (a quiet day's feed) is a map too,
    /// titled with the feed's own title when it has one.
    ///
    /// - Throws: ``MapOptionsError`` for options out of range, before anything
    ///   is drawn; ``RenderError``.
    public static func render(_ selection: FeedSelection, options: MapOptions = MapOptions(),
                              format: ImageFormat = .png) throws -> Data {
        try options.validate()
        let scene = SceneBuilder(drawing: options.crediting(selection.summary))
            .scene(for: selection.events, feedGenerated: selection.summary.generated, feedTitle: selection.summary.title)
        return try MapRenderer().data(for: scene, format: format)
    }

    /// A selection of map events (``select(from:feed:selection:as:)``) drawn
    /// as a map in `format`: the way to draw a million events.
    public static func render(_ selection: MapSelection, options: MapOptions = MapOptions(),
                              format: ImageFormat = .png) throws -> Data {
        try options.validate()
        let scene = SceneBuilder(drawing: options.crediting(selection.summary))
            .scene(for: selection.events, feedGenerated: selection.summary.generated, feedTitle: selection.summary.title,
                   places: selection.places)
        return try MapRenderer().data(for: scene, format: format)
    }
}

/// What a selection can keep of each event: the whole ``SeismicEvent``, or
/// the ``MapEvent`` a map draws (see ``QuakeMap/select(from:feed:selection:as:)``).
public protocol SelectableEvent: Sendable, Hashable {
    /// Reads `source` and keeps the events `selection` selects, as this type.
    static func selectEvents(from source: FeedSource, feed: FeedOptions, selection: EventSelection) throws -> SelectedEvents<Self>
}

extension SeismicEvent: SelectableEvent {
    /// Keeps the most recent events while streaming (see ``QuakeMap/select(from:feed:selection:)``).
    public static func selectEvents(from source: FeedSource, feed: FeedOptions, selection: EventSelection) throws -> FeedSelection {
        try MostRecentAccumulator.readSelection(from: source, reader: FeedReader(options: feed), selection: selection)
    }
}

extension MapEvent: SelectableEvent {
    /// Without a limit, every admitted row straight into compact map events,
    /// with no whole event in between; with one, the most recent, reduced.
    public static func selectEvents(from source: FeedSource, feed: FeedOptions, selection: EventSelection) throws -> MapSelection {
        var reader = FeedReader(options: feed)
        reader.decodesDescriptions = selection.filter.readsDescriptions || selection.readsDetails
        guard selection.limit == nil else {
            // The selected few keep their places, for the labels.
            reader.decodesPlaces = true
            let selected = try MostRecentAccumulator.readSelection(from: source, reader: reader, selection: selection)
            return MapSelection(events: selected.events.compactMap(MapEvent.init), summary: selected.summary,
                                duplicates: selected.duplicates, places: PlaceCandidates.places(of: selected.events))
        }
        // Feed rows are 100 to 200 bytes; room for rows of 120 errs long, which costs nothing.
        let expectedRows = (source.byteCount ?? 0) / 120
        var collector = MapEventCollector(expectedRows: expectedRows)
        let revisions = RevisionLedger(expectedRows: expectedRows)
        let summary = try reader.readMapRows(source, admitting: selection.rowAdmission, revisions: revisions) {
            collector.append($0, firstVersion: $1)
        }
        let (events, duplicates) = collector.finish(revisions.settle())
        return MapSelection(events: events, summary: summary, duplicates: duplicates, places: collector.places)
    }
}

extension MostRecentAccumulator {
    /// The selection of `source`: read once with the default reserve, and
    /// again with one eight times larger while it is short
    /// (``MostRecentAccumulator``) and the source can be read again (a file,
    /// bytes); standard input is read once.
    package static func readSelection(from source: FeedSource, reader: FeedReader, selection: EventSelection) throws -> FeedSelection {
        var reserve: Int?
        while true {
            var accumulator = MostRecentAccumulator(selection: selection, reserve: reserve,
                                                    expectedRows: (source.byteCount ?? 0) / 120)
            let summary = try accumulator.offerAll(from: reader, source)
            let events = accumulator.result()
            guard accumulator.isShort, source.byteCount != nil, let limit = selection.limit else {
                return FeedSelection(events: events, summary: summary, duplicates: accumulator.duplicates)
            }
            reserve = (reserve ?? max(limit, 256)) * 8
        }
    }
}

extension MapOptions {
    /// These options with the feed's sources as the data's credit, unless the caller set one.
    package func crediting(_ summary: FeedSummary) -> MapOptions {
        guard dataSources.isEmpty else { return self }
        var options = self
        options.dataSources = summary.sources
        return options
    }
}
