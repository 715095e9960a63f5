import Foundation
import QuakeModel
import QuakeParse
import QuakeQuery
import QuakeGeo
import QuakeScene
import QuakeRender
import QuakeWrite

/// The paper a report is printed on.
public enum PaperSize: String, Sendable, Hashable, CaseIterable {
    /// ISO A4, 210 × 297 mm.
    case a4
    /// US Letter, 8.5 × 11 in.
    case letter

    /// Width and height in PDF points (1/72 in).
    package var points: (width: Double, height: Double) {
        switch self {
        case .a4: (595.28, 841.89)
        case .letter: (612, 792)
        }
    }
}

/// What a seismicity report shows and how (``SeismicityReport``). Every default
/// is what `quakemap report` uses.
public struct ReportOptions: Sendable, Hashable {
    /// The paper. Default A4.
    package var paper: PaperSize
    /// The heading of page 1; default `Seismicity report`.
    package var title: String?
    /// Where the events came from (a file name, a URL, a service), named under the title.
    package var source: String?
    /// The region of page 2's map; default the box the events occupy (the world
    /// when they spread over more than 300° of longitude).
    package var region: GeoBox?
    /// The profile of page 3's cross-section; without one there is no page 3.
    package var profile: CrossSectionProfile?
    /// How magnitudes are binned for the frequency–magnitude chart. Default Δm = 0.1.
    package var binning: MagnitudeBinning
    /// How Mc is found. Default maximum curvature + 0.2.
    package var completeness: CompletenessMethod
    /// Rows of page 1's table of the largest events (1…25). Default 10.
    package var largestEvents: Int
    /// Plate boundaries on the maps. Default ``PlateBoundaries/bird2003``.
    package var plateBoundaries: PlateBoundaries?
    /// The grid of the b-value page; `nil` leaves the page out. By default each
    /// node of about 100 across the region takes its nearest 200 events; the binning
    /// and Mc method are the report's. The page is left out for a region wider than 30°
    /// or when fewer than 10 nodes have enough events.
    package var bValueGrid: BValueGridOptions?

    /// Creates options.
    public init(paper: PaperSize = .a4, title: String? = nil, source: String? = nil, region: GeoBox? = nil,
                profile: CrossSectionProfile? = nil, binning: MagnitudeBinning = .tenth,
                completeness: CompletenessMethod = .standard, largestEvents: Int = 10,
                plateBoundaries: PlateBoundaries? = .bird2003, bValueGrid: BValueGridOptions? = BValueGridOptions()) {
        self.paper = paper
        self.title = title
        self.source = source
        self.region = region
        self.profile = profile
        self.binning = binning
        self.completeness = completeness
        self.largestEvents = largestEvents
        self.plateBoundaries = plateBoundaries
        self.bValueGrid = bValueGrid
    }

    /// How many rows the table of the largest events may have: one page's room.
    public static let largestEventsRange = 1...25

    /// Checks every limit, so a report is refused before anything is read or drawn.
    ///
    /// - Throws: ``ReportOptionsError`` naming the limit.
    public func validate() throws(ReportOptionsError) {
        guard Self.largestEventsRange.contains(largestEvents) else {
            throw .largestEvents(largestEvents, allowed: Self.largestEventsRange)
        }
    }
}

/// Report options out of range (``ReportOptions/validate()``).
public enum ReportOptionsError: QuakeKitError, Equatable {
    /// Rows of the largest-events table outside `allowed`.
    case largestEvents(Int, allowed: ClosedRange<Int>)

    public var message: String {
        switch self {
        case .largestEvents(let rows, let allowed):
            "the table of the largest events takes \(allowed.lowerBound)…\(allowed.upperBound) rows, not \(rows)"
        }
    }
}

/// A seismicity report as PDF pages, from a selection of events:
///
/// 1. the title, the period, the counts by type, a world map, the largest
///    events (time, magnitude, depth, place) and the events per hour, day or week;
/// 2. a map of the region the events occupy coloured by depth, magnitude
///    against time, and the frequency–magnitude distribution with Mc and b;
/// 3. for a region up to 30° across with enough events: maps of the b-value and of
///    Mc on a grid over it (``BValueGridOptions``);
/// 4. with a `profile`: the profile's map, the depth
///    cross-section along it and the depths of the events in its band;
/// 5. when events have focal mechanisms: their beachballs on a map of the region
///    they occupy, and a table of the largest (planes, Mw, faulting style).
///
/// Every page carries the credits and its number. Text stays text (fonts
/// embedded, words selectable); maps and charts are vector drawings.
public enum SeismicityReport {
    /// The report's pages.
    public static func pages(for selection: FeedSelection, options: ReportOptions = ReportOptions()) -> [ReportPage] {
        var layout = ReportLayout(options: options, measure: TextMeasurer())
        layout.firstPage(selection)
        layout.secondPage(selection.events)
        layout.bValuePage(selection.events)
        if let profile = options.profile { layout.profilePage(selection.events, profile: profile) }
        layout.mechanismPage(selection.events)
        return layout.finished()
    }

    /// The report as a PDF.
    package static func pdfData(for selection: FeedSelection, options: ReportOptions = ReportOptions()) throws -> Data {
        try MapRenderer().pdfData(for: pages(for: selection, options: options), title: options.title ?? ReportLayout.defaultTitle)
    }
}

extension QuakeMap {
    /// The seismicity report of a selection as a PDF (see ``SeismicityReport``):
    /// an overview page, maps and charts of the region, and a cross-section
    /// when the options have a profile.
    ///
    /// - Throws: ``ReportOptionsError`` for options out of range; ``RenderError``.
    public static func report(for selection: FeedSelection, options: ReportOptions = ReportOptions()) throws -> Data {
        try options.validate()
        return try SeismicityReport.pdfData(for: selection, options: options)
    }
}

/// Lays out the report's pages, top to bottom, in points.
package struct ReportLayout {
    package static let defaultTitle = "Seismicity report"

    package let options: ReportOptions
    package let measure: any TextMetrics
    package let pageWidth: Double, pageHeight: Double
    package let margin = 42.0
    package var pages: [ReportPage] = []
    private var page: ReportPage
    private var y = 0.0
    /// Who the data is from (the feed's sources), credited on the first page and in every map's footer.
    private var dataSources: [String] = []

    package static let ink = RGBA(hex: 0x111111), muted = RGBA(hex: 0x555555), rule = RGBA(hex: 0xBBBBBB)
    package static let credits = [Credits.naturalEarth, Credits.plates + ", ODC-By", "Made with quakemap"].joined(separator: " · ")

    package init(options: ReportOptions, measure: any TextMetrics) {
        self.options = options
        self.measure = measure
        (pageWidth, pageHeight) = options.paper.points
        page = ReportPage(width: pageWidth, height: pageHeight)
    }

    package var contentWidth: Double { pageWidth - 2 * margin }
    package var bottom: Double { pageHeight - margin - 14 }

    // MARK: Pages

    package mutating func firstPage(_ selection: FeedSelection) {
        let events = selection.events
        startPage()
        text(options.title ?? Self.defaultTitle, size: 20, bold: true, advance: 24)
        let period = Self.period(of: events)
        dataSources = selection.summary.sources
        text([period, options.source, Credits.data(dataSources)].compactMap { $0 }.joined(separator: " · "),
             size: 10, color: Self.muted, advance: 16)
        for line in wrapped(Self.summary(of: selection), size: 10) { text(line, size: 10, advance: 13) }
        y += 6
        // The map takes what the table and the rates chart leave, up to its natural size.
        let shown = min(events.filter { $0.magnitude != nil }.count, tableRows)
        let tableHeight = shown == 0 ? 15 : 15 + Double(shown + 1) * 12.5
        let rateHeight = 200.0
        placeMap(events, region: nil, coloring: .magnitude, maximumHeight: bottom - y - 10 - tableHeight - 10 - rateHeight,
                 feedGenerated: selection.summary.generated, feedTitle: selection.summary.title)
        y += 10
        largestEventsTable(events)
        y += 10
        place(chart(height: max(rateHeight, bottom - y)).rate(events), height: max(rateHeight, bottom - y))
    }

    package mutating func secondPage(_ events: [SeismicEvent]) {
        startPage()
        let region = options.region ?? GeoBox.enclosing(events.map { GeoPoint(longitude: $0.longitude, latitude: $0.latitude) })
        text(region == nil ? "The events by depth" : "The region by depth", size: 14, bold: true, advance: 8)
        let timeHeight = 190.0, fmdHeight = 230.0
        placeMap(events, region: region, coloring: .depth, maximumHeight: bottom - y - 8 - timeHeight - 8 - fmdHeight)
        y += 8
        place(chart(height: timeHeight).magnitudeTime(events), height: timeHeight)
        y += 8
        let height = max(fmdHeight, bottom - y)
        place(chart(height: height).frequencyMagnitude(events, binning: options.binning, method: options.completeness), height: height)
    }

    /// The widest region (degrees each way) the b-value page is drawn for.
    package static let bValueRegionSpan = 30.0
    /// The fewest nodes with an estimate for the b-value page: fewer is no map.
    package static let bValueMinimumNodes = 10

    /// Maps of b and Mc on a grid over page 2's region, each node from its own events;
    /// nothing for a region wider than 30° or fewer than 10 nodes with an estimate.
    package mutating func bValuePage(_ events: [SeismicEvent]) {
        guard var grid = options.bValueGrid else { return }
        grid.binning = options.binning
        grid.completeness = options.completeness
        let mapEvents = events.compactMap(MapEvent.init)
        // A b-value map is a regional study: over a continent or the world its nodes mix tectonic
        // settings and magnitude scales, so the page is left out there.
        guard let region = options.region ?? GeoBox.enclosing(events.map { GeoPoint(longitude: $0.longitude, latitude: $0.latitude) }),
              region.longitudeSpan <= Self.bValueRegionSpan, region.latitudeSpan <= Self.bValueRegionSpan,
              var computed = try? QuakeMap.bValueGrid(mapEvents, grid: grid, region: region),
              computed.nodes.count(where: { $0.fit != nil }) >= Self.bValueMinimumNodes else { return }
        startPage()
        text("b-value and completeness", size: 14, bold: true, advance: 8)
        let height = (bottom - y - 8) / 2
        for layer in [BValueGridOptions.Layer.bValue, .completeness] {
            computed.options.layer = layer
            let grid = computed
            placeMap(region: region, coloring: .magnitude, maximumHeight: height) { $0.scene(for: grid, events: mapEvents) }
            y += 8
        }
    }

    package mutating func profilePage(_ events: [SeismicEvent], profile: CrossSectionProfile) {
        startPage()
        let inBand = events.filter { profile.locate(longitude: $0.longitude, latitude: $0.latitude) != nil }
        text("Cross-section A → B", size: 14, bold: true, advance: 14)
        text(Self.profileCaption(profile, count: inBand.count), size: 9.5, color: Self.muted, advance: 6)
        var edges = profile.points(spacing: max(1, profile.length / 50), across: -profile.halfWidth)
        edges += profile.points(spacing: max(1, profile.length / 50), across: profile.halfWidth)
        let region = GeoBox.enclosing(edges, margin: 0.15, minimumMargin: 1)
        let sectionHeight = 230.0, histogramHeight = 200.0
        placeMap(events, region: region, coloring: .depth, profile: profile,
                 maximumHeight: bottom - y - 8 - sectionHeight - 8 - histogramHeight)
        y += 8
        // The caption above names the ends, the half-width and the count: no second title.
        place(chart(height: sectionHeight, title: "").crossSection(events, profile: profile), height: sectionHeight)
        y += 8
        let height = max(histogramHeight, bottom - y)
        place(chart(height: height, title: "Depths of the events within \(Self.number(profile.halfWidth)) km of the profile")
            .depthHistogram(inBand), height: height)
    }

    /// The beachballs of the events with a focal mechanism, on a map of the region they
    /// occupy, and the largest of them in a table; no page when none has one.
    package mutating func mechanismPage(_ events: [SeismicEvent]) {
        let withMechanism = events.filter { $0.mechanism != nil }
        guard !withMechanism.isEmpty else { return }
        startPage()
        text("Focal mechanisms", size: 14, bold: true, advance: 14)
        let count = withMechanism.count
        // A page's map holds about a hundred balls at the page's scale before they hide each other.
        let drawn = Array(withMechanism.sorted(by: Self.largestFirst).prefix(Self.mechanismsOnTheMap))
        let shown = count > drawn.count ? " (the map shows the \(drawn.count) largest)" : ""
        let caption = "\(Self.number(Double(count))) \(count == 1 ? "event" : "events") with a focal mechanism\(shown): "
            + "lower-hemisphere equal-area beachballs coloured by depth, compressional quadrants coloured, moved clear of "
            + "each other with a line to the epicentre where they crowd."
        for line in wrapped(caption, size: 9.5) { text(line, size: 9.5, color: Self.muted, advance: 12) }
        y += 2
        let region = GeoBox.enclosing(drawn.map { GeoPoint(longitude: $0.longitude, latitude: $0.latitude) },
                                      margin: 0.15, minimumMargin: 2)
        let tableHeight = 15 + Double(min(count, tableRows) + 1) * 12.5
        var options = mapOptions(width: contentWidth, region: region, coloring: .depth)
        options.symbols.beachballs = BeachballStyle(scale: Self.pageBeachballScale)
        let maximumHeight = bottom - y - 10 - tableHeight
        if Double(options.height) > maximumHeight {
            let width = max(120, contentWidth * maximumHeight / Double(options.height))
            let symbols = options.symbols
            options = mapOptions(width: width, region: region, coloring: .depth)
            options.symbols = symbols
        }
        let scene = SceneBuilder(options: options).scene(for: drawn)
        place(scene, height: Double(scene.height), width: Double(scene.width))
        y += 10
        mechanismTable(withMechanism)
    }

    /// The order of the tables: the largest first, the most recent first on a tie, events without a magnitude last.
    private static func largestFirst(_ a: SeismicEvent, _ b: SeismicEvent) -> Bool {
        (a.magnitude ?? -.infinity, a.time) > (b.magnitude ?? -.infinity, b.time)
    }

    /// The most beachballs the mechanism page's map draws, the largest.
    package static let mechanismsOnTheMap = 100
    /// Beachballs on a page's map: smaller than on a screen map, whose pixels are a page's points here.
    package static let pageBeachballScale = 0.6

    /// The largest events with a mechanism: time, Mw (else the magnitude), depth, both planes, style, place.
    private mutating func mechanismTable(_ events: [SeismicEvent]) {
        let largest = events.sorted(by: Self.largestFirst).prefix(tableRows)
        text("Largest events with a focal mechanism", size: 12, bold: true, advance: 6)
        let columns: [TableColumn] = [
            ("Time (UTC)", margin, .left), ("Mw", margin + 112, .right), ("Depth", margin + 146, .right),
            ("Plane 1", margin + 156, .left), ("Plane 2", margin + 222, .left), ("Style", margin + 288, .left),
            ("Place", margin + 340, .left),
        ]
        table(columns, rows: largest.map { event in
            let mechanism = event.mechanism!
            let planes = mechanism.planes.map { plane in
                [plane.strike, plane.dip, plane.rake].map { Formatted.minusSigns(Formatted.fixed($0, 0)) }.joined(separator: "/")
            }
            let magnitude = mechanism.momentMagnitude ?? event.magnitude
            return [Self.tableTime(event.time), magnitude.map { Formatted.fixed($0, 1) } ?? "—",
                    event.depth.map { Formatted.fixed($0, 0) } ?? "—", planes.first ?? "—", planes.dropFirst().first ?? "—",
                    mechanism.faultingStyle?.rawValue ?? "—", event.place]
        })
    }

    /// The pages with their footers: credits and `Page n of N`.
    package mutating func finished() -> [ReportPage] {
        if !page.maps.isEmpty || !page.texts.isEmpty { pages.append(page) }
        page = ReportPage(width: pageWidth, height: pageHeight)
        let count = pages.count
        for index in pages.indices {
            let baseline = pageHeight - margin + 6
            pages[index].lines.append(SceneLine(points: [PixelPoint(x: margin, y: baseline - 12),
                                                         PixelPoint(x: pageWidth - margin, y: baseline - 12)],
                                                stroke: Self.rule, width: 0.5))
            pages[index].texts.append(SceneText(text: Self.credits, position: PixelPoint(x: margin, y: baseline), size: 7.5,
                                                color: Self.muted))
            pages[index].texts.append(SceneText(text: "Page \(index + 1) of \(count)", position: PixelPoint(x: pageWidth - margin, y: baseline),
                                                size: 7.5, color: Self.muted, alignment: .right))
        }
        return pages
    }

    // MARK: Pieces

    private mutating func startPage() {
        if !page.maps.isEmpty || !page.texts.isEmpty { pages.append(page) }
        page = ReportPage(width: pageWidth, height: pageHeight)
        y = margin
    }

    /// One line of text (cut to the text width) at the current position; the next starts `advance` below it.
    private mutating func text(_ string: String, size: Double, bold: Bool = false, color: RGBA = Self.ink, advance: Double) {
        let fitted = Self.fitted(string, width: contentWidth, size: size, bold: bold, measure: measure)
        page.texts.append(SceneText(text: fitted, position: PixelPoint(x: margin, y: y + size), size: size, bold: bold, color: color))
        y += size + advance - size * 0.25
    }

    private mutating func place(_ scene: MapScene, height: Double, width: Double? = nil) {
        let width = width ?? contentWidth
        page.maps.append(PlacedMap(scene: scene, frame: PixelRect(x: margin + (contentWidth - width) / 2, y: y, width: width, height: height)))
        y += height
    }

    private func mapOptions(width: Double, region: GeoBox?, coloring: SymbolColoring,
                            profile: CrossSectionProfile? = nil) -> MapOptions {
        // The profile's map shows where the section runs; labels of events would crowd its letters.
        var options = MapOptions(width: Int(width.rounded()), region: region, coloring: coloring,
                                 plateBoundaries: self.options.plateBoundaries, labelCount: profile == nil ? 3 : 0)
        // The report's own headings say what the map's title would.
        options.title = ""
        options.profile = profile
        options.dataSources = dataSources
        return options
    }

    /// A map as wide as the text, or narrower and centred when it would be
    /// taller than `maximumHeight`.
    private mutating func placeMap(_ events: [SeismicEvent], region: GeoBox?, coloring: SymbolColoring,
                                   profile: CrossSectionProfile? = nil, maximumHeight: Double,
                                   feedGenerated: Date? = nil, feedTitle: String? = nil) {
        placeMap(region: region, coloring: coloring, profile: profile, maximumHeight: maximumHeight) { builder in
            builder.scene(for: events, feedGenerated: feedGenerated, feedTitle: feedTitle)
        }
    }

    /// A map of `region` as wide as the text, or narrower (and centred) to keep within
    /// `maximumHeight`; `scene` draws it with the builder of those options.
    private mutating func placeMap(region: GeoBox?, coloring: SymbolColoring, profile: CrossSectionProfile? = nil,
                                   maximumHeight: Double, scene: (SceneBuilder) -> MapScene) {
        var options = mapOptions(width: contentWidth, region: region, coloring: coloring, profile: profile)
        if Double(options.height) > maximumHeight {
            let width = max(120, contentWidth * maximumHeight / Double(options.height))
            options = mapOptions(width: width, region: region, coloring: coloring, profile: profile)
        }
        let drawn = scene(SceneBuilder(options: options))
        place(drawn, height: Double(drawn.height), width: Double(drawn.width))
    }

    /// Rows of the table of the largest events.
    private var tableRows: Int {
        min(max(options.largestEvents, ReportOptions.largestEventsRange.lowerBound), ReportOptions.largestEventsRange.upperBound)
    }

    private func chart(height: Double, title: String? = nil) -> ChartBuilder {
        ChartBuilder(options: ChartOptions(width: Int(contentWidth.rounded()), height: Int(height.rounded()), title: title))
    }

    /// Page 1's table: the largest events, largest first (the most recent first on a tie).
    private mutating func largestEventsTable(_ events: [SeismicEvent]) {
        let largest = events.filter { $0.magnitude != nil }.sorted(by: Self.largestFirst).prefix(tableRows)
        text(largest.isEmpty ? "Largest events: none with a magnitude" : "Largest events", size: 12, bold: true, advance: 6)
        guard !largest.isEmpty else { return }
        // Columns: time, magnitude, depth (right-aligned numbers), place.
        let columns: [TableColumn] = [
            ("Time (UTC)", margin, .left), ("Mag", margin + 122, .right), ("Type", margin + 128, .left),
            ("Depth (km)", margin + 210, .right), ("Place", margin + 222, .left),
        ]
        table(columns, rows: largest.map { event in
            [Self.tableTime(event.time), Formatted.fixed(event.magnitude!, 1), event.magnitudeType ?? "",
             event.depth.map { Formatted.fixed($0, 1) } ?? "—", event.place]
        })
    }

    /// A table column: its heading, the x of its cells' anchor, and their alignment.
    private typealias TableColumn = (title: String, x: Double, alignment: SceneText.Alignment)

    /// A table at the current position: bold headings, a rule, a row of cells each, a rule. The last
    /// column runs to the right margin, its cells cut to fit.
    private mutating func table(_ columns: [TableColumn], rows: [[String]]) {
        let size = 8.5, row = 12.5
        for column in columns {
            page.texts.append(SceneText(text: column.title, position: PixelPoint(x: column.x, y: y + size), size: size, bold: true,
                                        color: Self.ink, alignment: column.alignment))
        }
        y += row
        rule(at: y - 3.5)
        let lastWidth = pageWidth - margin - (columns.last?.x ?? margin)
        for cells in rows {
            for (index, (cell, column)) in zip(cells, columns).enumerated() {
                let text = index == columns.count - 1 ? Self.fitted(cell, width: lastWidth, size: size, bold: false, measure: measure) : cell
                page.texts.append(SceneText(text: text, position: PixelPoint(x: column.x, y: y + size), size: size, color: Self.ink,
                                            alignment: column.alignment))
            }
            y += row
        }
        rule(at: y - 3.5)
    }

    private mutating func rule(at y: Double) {
        page.lines.append(SceneLine(points: [PixelPoint(x: margin, y: y), PixelPoint(x: pageWidth - margin, y: y)],
                                    stroke: Self.rule, width: 0.5))
    }

    /// Lines of at most the text width, broken at spaces.
    private func wrapped(_ string: String, size: Double) -> [String] {
        var lines: [String] = [], line = ""
        for word in string.split(separator: " ") {
            let candidate = line.isEmpty ? String(word) : line + " " + word
            if !line.isEmpty, measure.width(candidate, size: size, bold: false) > contentWidth {
                lines.append(line)
                line = String(word)
            } else {
                line = candidate
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    // MARK: Wording

    /// `string`, cut at a word with an ellipsis when wider than `width`.
    package static func fitted(_ string: String, width: Double, size: Double, bold: Bool, measure: any TextMetrics) -> String {
        guard measure.width(string, size: size, bold: bold) > width else { return string }
        var words = string.split(separator: " ").map(String.init)
        while words.count > 1 {
            words.removeLast()
            let candidate = words.joined(separator: " ").trimmingCharacters(in: CharacterSet(charactersIn: " ,;:-–—·")) + "…"
            if measure.width(candidate, size: size, bold: bold) <= width { return candidate }
        }
        var characters = Array(string)
        while characters.count > 1 {
            characters.removeLast()
            if measure.width(String(characters) + "…", size: size, bold: bold) <= width { return String(characters) + "…" }
        }
        return "…"
    }

    /// `12 May 2020 15:41 – 11 Jun 2020 15:27 UTC (30 days)`.
    package static func period(of events: [SeismicEvent]) -> String {
        guard let first = events.map(\.time).min(), let last = events.map(\.time).max() else { return "No events" }
        let days = last.timeIntervalSince(first) / 86_400
        let span = days >= 2 ? "\(Int(days.rounded())) days" : (days * 24 >= 1 ? "\(Int((days * 24).rounded())) hours" : "under an hour")
        return "\(SceneBuilder.labelDate(first, withYear: true)) – \(SceneBuilder.labelDate(last, withYear: true)) UTC (\(span))"
    }

    /// `19,813 events: 19,569 earthquakes, 108 quarry blasts, … · M −1.6 to 6.8 · depths −3 to 642 km`.
    package static func summary(of selection: FeedSelection) -> String {
        let statistics = CatalogStatistics(selection.events)
        guard statistics.count > 0 else { return "No events matched." }
        let types = statistics.types.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .map { "\(number(Double($0.value))) \($0.value == 1 ? $0.key : plural($0.key))" }
        var parts = ["\(number(Double(statistics.count))) \(statistics.count == 1 ? "event" : "events"): " + types.joined(separator: ", ")]
        if let range = statistics.magnitudeRange {
            parts.append(Formatted.minusSigns("magnitudes \(Formatted.fixed(range.lowerBound, 1)) to \(Formatted.fixed(range.upperBound, 1))"))
        }
        if let range = statistics.depthRange {
            parts.append(Formatted.minusSigns("depths \(Formatted.fixed(range.lowerBound, 0)) to \(Formatted.fixed(range.upperBound, 0)) km"))
        }
        return parts.joined(separator: " · ")
    }

    package static func plural(_ type: String) -> String {
        type.hasSuffix("s") ? type : type + "s"
    }

    /// `A (142.0°E, 38.0°N) → B (145.0°E, 38.0°N) · 280 km long · 50 km each side · 1,234 events`.
    package static func profileCaption(_ profile: CrossSectionProfile, count: Int) -> String {
        func coordinate(_ point: GeoPoint) -> String {
            "\(Formatted.fixed(abs(point.longitude), 1))°\(point.longitude < 0 ? "W" : "E"), "
                + "\(Formatted.fixed(abs(point.latitude), 1))°\(point.latitude < 0 ? "S" : "N")"
        }
        return "A (\(coordinate(profile.start))) → B (\(coordinate(profile.end))) · \(number(profile.length.rounded())) km long · "
            + "\(number(profile.halfWidth)) km each side · \(number(Double(count))) \(count == 1 ? "event" : "events")"
    }

    /// `2020-06-03 07:35:21`.
    package static func tableTime(_ time: Date) -> String {
        Formatted.time(time, .seconds)
    }

    /// A whole number with thousands separated by commas (`19,813`), or a short decimal.
    package static func number(_ value: Double) -> String {
        Formatted.grouped(value)
    }
}
