import CLibXML2
import Foundation
import QuakeModel

/// Reads QuakeML 1.2 (BED) as it streams in, through libxml2's SAX2 push
/// parser: each window of bytes is parsed as it comes, and an event's values
/// are kept only until the event ends, so memory stays bounded whatever the
/// size of the document.
///
/// For each `event` of `q:quakeml/eventParameters`: the preferred origin and
/// magnitude (the first when no preference is given or it names none of the
/// event's), `type`, the place from `description`, the id, and
/// `creationInfo/creationTime` as `updated`; the network from USGS's
/// `catalog:eventsource`, else `creationInfo/agencyID`; the status from the
/// origin's evaluation; and every other field ``EventField/Spec/quakeML`` places
/// in the origin or magnitude (``detail(_:_:_:)``). Values are judged by the rules
/// every reader shares (``RowValidator``, ``FieldText``).
///
/// A DOCTYPE is refused before its internal subset is read: QuakeML needs no
/// DTD, and entities are what XXE and "billion laughs" attacks are made of.
/// Nothing is ever fetched (`XML_PARSE_NONET`), and libxml2's default limits
/// stay on (no `XML_PARSE_HUGE`).
///
/// Blanks and a byte order mark before the document are passed over here, not
/// given to libxml2 (which allows nothing before an XML declaration); the
/// lines and columns it reports are moved by what was passed over, so that
/// they are the file's.
///
/// The libxml2 context is created and freed by this object, and used only
/// from the thread that calls ``parse(_:isLast:_:)``.
package final class QuakeMLDecoder {
    /// What one event became.
    package enum Outcome {
        case event(SeismicEvent)
        case rejected(FeedRejection)
    }

    package static let quakeMLNamespacePrefix = "http://quakeml.org/xmlns/quakeml/"
    package static let bedNamespace = "http://quakeml.org/xmlns/bed/1.2"
    package static let bedNamespaces: Set<String> = [bedNamespace, "http://quakeml.org/xmlns/bed-rt/1.2"]
    package static let catalogNamespace = "http://anss.org/xmlns/catalog/0.1"
    /// Origins or magnitudes of one event kept while its preferred id is not yet known.
    package static let maximumCandidates = 1024
    /// The longest text kept from one element (numbers, ids, places): longer is cut.
    package static let maximumText = 4096

    package let source: String
    package let now: Date
    private var parser: xmlParserCtxtPtr?
    private var handler = xmlSAXHandler()
    private var names: [UnsafePointer<xmlChar>: Tag] = [:]
    private var catalogURI: UnsafePointer<xmlChar>?
    private var bedURIs: Set<UnsafePointer<xmlChar>> = []

    /// Outcomes of the bytes parsed so far, taken by ``parse(_:isLast:_:)``.
    private var outcomes: [Outcome] = []
    /// The first error (libxml2's, or a refusal of ours); it stops the parser.
    private var failure: FeedError?
    /// `eventParameters/creationInfo/creationTime`.
    package private(set) var generated: Date?

    // The element stack, as tags (`other` for anything not read).
    private var stack: [Tag] = []
    private var collecting: Field?
    private var collectingDepth = 0
    private var text: [UInt8] = []
    private var event: EventState?

    // What was passed over before the document: whole lines, then the columns of the line it starts on.
    private var linesBefore: Int
    private var columnsBefore = 0
    private var previousByte: UInt8 = 0

    /// - Parameter firstLine: the line of the file the first byte given to
    ///   ``parse(_:isLast:_:)`` is on (blank lines before it were read elsewhere).
    package init(source: String, now: Date, firstLine: Int = 1) {
        self.source = source
        self.now = now
        linesBefore = max(firstLine, 1) - 1
        stack.reserveCapacity(64)
        text.reserveCapacity(256)
    }

    deinit {
        if let parser { xmlFreeParserCtxt(parser) }
    }

    /// Parses the next window of the document; `body` gets what the window's
    /// events became, in document order.
    ///
    /// - Throws: ``FeedError/malformedQuakeML(source:line:column:reason:)`` at
    ///   the first error; whatever `body` throws.
    package func parse(_ window: UnsafeRawBufferPointer, isLast: Bool, _ body: (Outcome) throws -> Void) throws {
        var bytes = window
        if parser == nil {
            bytes = UnsafeRawBufferPointer(rebasing: bytes[passOver(bytes)...])
            // Only blanks so far: the document starts in a later window.
            if bytes.isEmpty && !isLast { return }
            // The first bytes go to the context, which tells the encoding by them.
            let head = min(4, bytes.count)
            try start(with: UnsafeRawBufferPointer(rebasing: bytes[0..<head]))
            bytes = UnsafeRawBufferPointer(rebasing: bytes[head...])
        }
        guard let parser else { return }
        var offset = 0
        // xmlParseChunk takes an Int32 size.
        repeat {
            let count = min(bytes.count - offset, 1 << 30)
            let last = isLast && offset + count == bytes.count
            let pointer = bytes.baseAddress.map { UnsafeRawPointer($0 + offset).assumingMemoryBound(to: CChar.self) }
            _ = xmlParseChunk(parser, pointer, Int32(count), last ? 1 : 0)
            offset += count
            if failure == nil, parser.pointee.wellFormed == 0 {
                failure = error(line: Int(parser.pointee.input?.pointee.line ?? 0),
                                column: Int(parser.pointee.input?.pointee.col ?? 0), reason: "not well-formed XML")
            }
            // Taken out whole rather than copied and emptied (which would copy the array).
            var ready: [Outcome] = []
            swap(&ready, &outcomes)
            for outcome in ready { try body(outcome) }
            if let failure { throw failure }
        } while offset < bytes.count
    }

    /// How many of `bytes` are blanks or byte order marks (EF BB BF) before
    /// the document; their lines and columns are counted.
    private func passOver(_ bytes: UnsafeRawBufferPointer) -> Int {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0xEF, index + 2 < bytes.count, bytes[index + 1] == 0xBB, bytes[index + 2] == 0xBF {
                index += 3
                continue
            }
            guard byte.isXMLBlank else { break }
            // A line ends at CR, LF or CRLF, as the other readers count.
            if byte == 0x0D || (byte == 0x0A && previousByte != 0x0D) {
                linesBefore += 1
                columnsBefore = 0
            } else if byte != 0x0A {
                columnsBefore += 1
            }
            previousByte = byte
            index += 1
        }
        return index
    }

    /// The file's line and column of libxml2's `line` and `column`, which
    /// count from the first byte it was given.
    private func filePosition(line: Int, column: Int) -> (line: Int, column: Int) {
        let line = max(line, 1), column = max(column, 1)
        return (line + linesBefore, line == 1 ? column + columnsBefore : column)
    }

    /// libxml2's global state, set up once before any thread parses: its
    /// initialisation is not reentrant.
    private static let libraryInitialized: Void = xmlInitParser()

    private func start(with head: UnsafeRawBufferPointer) throws {
        Self.libraryInitialized
        handler.initialized = UInt32(truncatingIfNeeded: XML_SAX2_MAGIC)
        handler.startElementNs = { context, localName, _, uri, _, _, attributeCount, _, attributes in
            QuakeMLDecoder.from(context).startElement(localName, uri, Int(attributeCount), attributes)
        }
        handler.endElementNs = { context, _, _, _ in QuakeMLDecoder.from(context).endElement() }
        handler.characters = { context, bytes, count in QuakeMLDecoder.from(context).characters(bytes, Int(count)) }
        handler.cdataBlock = handler.characters
        handler.internalSubset = { context, _, _, _ in
            QuakeMLDecoder.from(context).refuse("a DOCTYPE declaration: DTDs and entities are refused (QuakeML needs neither)")
        }
        handler.externalSubset = handler.internalSubset
        handler.entityDecl = { context, _, _, _, _, _ in
            QuakeMLDecoder.from(context).refuse("an entity declaration: entities are refused")
        }
        handler.serror = { context, error in
            guard let context, let error else { return }
            QuakeMLDecoder.from(context).record(error.pointee)
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        parser = xmlCreatePushParserCtxt(&handler, context,
                                         head.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(head.count), source)
        guard let parser else {
            throw FeedError.malformedQuakeML(source: source, line: 1, column: 1, reason: "libxml2 could not start a parser")
        }
        let options = XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
        xmlCtxtUseOptions(parser, Int32(options))
        // Names and namespaces come from the parser's dictionary: a tag is told by its pointer.
        func intern(_ name: String) -> UnsafePointer<xmlChar>? {
            name.withCString { xmlDictLookup(parser.pointee.dict, UnsafeRawPointer($0).assumingMemoryBound(to: xmlChar.self), -1) }
        }
        for tag in Tag.allCases where tag != .other {
            if let pointer = intern(tag.rawValue) { names[pointer] = tag }
        }
        catalogURI = intern(Self.catalogNamespace)
        bedURIs = Set(Self.bedNamespaces.compactMap(intern))
        if let failure { throw failure }
    }

    /// Whether `bytes`, after blanks and a byte order mark, open an XML
    /// declaration (`<?xml`) or a `quakeml` root element, with or without a prefix.
    package static func opensDocument(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var start = 0
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains(bytes[start]) { start += 1 }
        let head = bytes[start..<min(bytes.count, start + 64)]
        guard head.first == UInt8(ascii: "<") else { return false }
        if head.starts(with: "<?xml".utf8) { return true }
        // `<quakeml`, `<q:quakeml`: a name, then the local name, then a blank, '>' or '/'.
        let name = head.dropFirst().prefix { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D && $0 != UInt8(ascii: ">") && $0 != UInt8(ascii: "/") }
        let local = name.split(separator: UInt8(ascii: ":"), maxSplits: 1, omittingEmptySubsequences: false).last ?? name
        return local.elementsEqual("quakeml".utf8) && name.endIndex < head.endIndex
    }

    private static func from(_ context: UnsafeMutableRawPointer?) -> QuakeMLDecoder {
        Unmanaged<QuakeMLDecoder>.fromOpaque(context!).takeUnretainedValue()
    }

    // MARK: - SAX callbacks

    private func startElement(_ localName: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?, _ attributeCount: Int,
                              _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) {
        guard failure == nil, let localName else { return }
        if stack.isEmpty {
            // The root: q:quakeml, any version's namespace told apart below.
            let name = String(cString: localName)
            let namespace = uri.map { String(cString: $0) } ?? ""
            guard name == "quakeml", namespace.hasPrefix(Self.quakeMLNamespacePrefix) else {
                let shown = namespace.isEmpty ? name : "\(name)' in namespace '\(namespace)"
                return refuse("the root element is '\(FeedRejection.shown(shown))', not q:quakeml")
            }
            guard namespace == Self.quakeMLNamespacePrefix + "1.2" else {
                return refuse("QuakeML '\(FeedRejection.shown(namespace))' is not version 1.2")
            }
            stack.append(.quakeml)
            return
        }
        let known = names[localName]
        let inBED = uri.map { bedURIs.contains($0) } == true
        if !inBED, let known, known == .eventParameters && stack.count == 1
            || known == .event && stack.count == 2 && stack[1] == .eventParameters {
            // Another namespace's (an older BED's, none): read as 1.2, it would be an empty catalogue.
            let found = uri.map { "found '\(FeedRejection.shown(String(cString: $0)))'" } ?? "it has no namespace"
            return refuse("<\(known.rawValue)> is not in the QuakeML 1.2 BED namespace \(Self.bedNamespace) (\(found))",
                          at: startTagPosition())
        }
        let tag = inBED ? known ?? .other : .other
        stack.append(tag)
        let depth = stack.count
        // Depths: 1 quakeml, 2 eventParameters, 3 event, 4 its children, 5 and 6 their values.
        guard depth >= 3, stack[1] == .eventParameters else { return }
        if depth == 3 {
            if tag == .event { beginEvent(attributeCount, attributes) }
            return
        }
        if depth == 4, stack[2] == .creationInfo, tag == .creationTime { return collect(.generated) }
        guard stack[2] == .event, event != nil else { return }
        switch (depth, tag) {
        case (4, .preferredOriginID): collect(.preferredOrigin)
        case (4, .preferredMagnitudeID): collect(.preferredMagnitude)
        case (4, .type): collect(.eventType)
        case (4, .origin): event!.origin = Origin(publicID: Self.attribute("publicID", attributeCount, attributes) ?? "")
        case (4, .magnitude): event!.magnitude = Magnitude(publicID: Self.attribute("publicID", attributeCount, attributes) ?? "")
        case (4, .description): event!.description = (nil, nil)
        case (4, .preferredFocalMechanismID): collect(.preferredMechanism)
        case (4, .focalMechanism): event!.mechanism = Mechanism(publicID: Self.attribute("publicID", attributeCount, attributes) ?? "")
        case (5, .nodalPlanes) where stack[3] == .focalMechanism:
            event!.mechanism?.preferredPlane = Self.attribute("preferredPlane", attributeCount, attributes)
        case (7, .value) where stack[3] == .focalMechanism && stack[4] == .momentTensor && stack[5] == .scalarMoment:
            collect(.scalarMoment)
        case (8, .value) where stack[3] == .focalMechanism:
            if let field = Field.mechanism(stack[4], stack[5], stack[6]) { collect(field) }
        case (5, .creationTime) where stack[3] == .creationInfo: collect(.updated)
        case (5, .agencyID) where stack[3] == .creationInfo: collect(.agency)
        case (5, .text) where stack[3] == .description: collect(.descriptionText)
        case (5, .type) where stack[3] == .description: collect(.descriptionType)
        case (5, .type) where stack[3] == .magnitude: collect(.magnitudeType)
        case (5, .evaluationMode) where stack[3] == .origin: collect(.evaluationMode)
        case (5, .evaluationStatus) where stack[3] == .origin: collect(.evaluationStatus)
        case (6, .value) where stack[3] == .origin:
            switch stack[4] {
            case .time: collect(.originTime)
            case .latitude: collect(.latitude)
            case .longitude: collect(.longitude)
            case .depth: collect(.depth)
            default: break
            }
        case (6, .value) where stack[3] == .magnitude && stack[4] == .mag: collect(.magnitudeValue)
        case (5, _) where tag != .other && (stack[3] == .origin || stack[3] == .magnitude):
            if let field = Self.detail(stack[3], tag) { collect(field) }
        case (6, _) where tag != .other && (stack[3] == .origin || stack[3] == .magnitude):
            if let field = Self.detail(stack[3], stack[4], tag) { collect(field) }
        default: break
        }
    }

    private func endElement() {
        guard failure == nil, let tag = stack.popLast() else { return }
        let depth = stack.count + 1
        if let field = collecting, depth == collectingDepth {
            collecting = nil
            assign(field)
        }
        guard event != nil else { return }
        if depth == 3 {
            if tag == .event { endEvent() }
            return
        }
        guard depth == 4, stack[2] == .event else { return }
        switch tag {
        case .origin: event!.keepOrigin()
        case .magnitude: event!.keepMagnitude()
        case .description: event!.keepDescription()
        case .focalMechanism: event!.keepMechanism()
        default: break
        }
    }

    private func characters(_ bytes: UnsafePointer<xmlChar>?, _ count: Int) {
        guard collecting != nil, let bytes, failure == nil else { return }
        let room = Self.maximumText - text.count
        if room > 0 { text.append(contentsOf: UnsafeBufferPointer(start: bytes, count: min(count, room))) }
    }

    private func collect(_ field: Field) {
        collecting = field
        collectingDepth = stack.count
        text.removeAll(keepingCapacity: true)
    }

    /// Stops the parse with `reason`, at `position` (libxml2's) or where the parser stands.
    private func refuse(_ reason: String, at position: (line: Int, column: Int)? = nil) {
        guard failure == nil else { return }
        let input = parser?.pointee.input?.pointee
        let (line, column) = position ?? (Int(input?.line ?? 1), Int(input?.col ?? 1))
        failure = error(line: line, column: column, reason: reason)
        if let parser { xmlStopParser(parser) }
    }

    /// Keeps libxml2's first error (warnings pass) and stops the parse.
    private func record(_ error: xmlError) {
        guard failure == nil, error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        let message = error.message.map { String(cString: $0) } ?? "error \(error.code)"
        failure = self.error(line: Int(error.line), column: Int(error.int2), reason: message)
        if let parser { xmlStopParser(parser) }
    }

    private func error(line: Int, column: Int, reason: String) -> FeedError {
        let words = reason.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        let (line, column) = filePosition(line: line, column: column)
        return .malformedQuakeML(source: source, line: line, column: column, reason: FeedRejection.shown(words, limit: 200))
    }

    // MARK: - Events

    private func beginEvent(_ attributeCount: Int, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) {
        var state = EventState()
        let (line, column) = startTagPosition()
        (state.line, state.column) = filePosition(line: line, column: column)
        state.publicID = Self.attribute("publicID", attributeCount, attributes) ?? ""
        if let catalogURI {
            state.catalogSource = Self.attribute("eventsource", attributeCount, attributes, namespace: catalogURI)
            state.catalogEventID = Self.attribute("eventid", attributeCount, attributes, namespace: catalogURI)
        }
        event = state
    }

    /// Where the start tag just read began: the parser stands at its end, and
    /// the whole tag is in the input buffer (a push parser reads a start tag
    /// only once its `>` has arrived); no `<` can occur inside a tag.
    private func startTagPosition() -> (Int, Int) {
        guard let input = parser?.pointee.input?.pointee, let base = input.base, let current = input.cur else { return (1, 1) }
        var line = Int(input.line), column = Int(input.col)
        var cursor = current
        while cursor > base {
            cursor -= 1
            if cursor.pointee == UInt8(ascii: "\n") { line -= 1 }
            if cursor.pointee == UInt8(ascii: "<") { break }
        }
        guard cursor.pointee == UInt8(ascii: "<"), line >= 1 else { return (Int(input.line), Int(input.col)) }
        if line == Int(input.line) { return (line, max(1, column - (current - cursor))) }
        // The tag spans lines: count its column from the line's start.
        var lineStart = cursor
        while lineStart > base, (lineStart - 1).pointee != UInt8(ascii: "\n") { lineStart -= 1 }
        column = cursor - lineStart + 1
        return (line, column)
    }

    private func assign(_ field: Field) {
        // A copy: a slice would share the collecting buffer, which the next field would then copy.
        let value = ArraySlice(Self.trimmed(text))
        if field == .generated {
            generated = value.withUnsafeBytes { TimeParser.parse($0) }
            return
        }
        guard event != nil else { return }
        switch field {
        case .preferredOrigin: event!.origins.prefer(String(decoding: value, as: UTF8.self))
        case .preferredMagnitude: event!.magnitudes.prefer(String(decoding: value, as: UTF8.self))
        case .eventType: event!.eventType = String(decoding: value, as: UTF8.self)
        case .updated: event!.updated = value
        case .descriptionText: event!.description.text = String(decoding: value, as: UTF8.self)
        case .descriptionType: event!.description.type = String(decoding: value, as: UTF8.self)
        case .magnitudeType: event!.magnitude?.type = String(decoding: value, as: UTF8.self)
        case .magnitudeValue: event!.magnitude?.value = value
        case .originTime: event!.origin?.time = value
        case .latitude: event!.origin?.latitude = value
        case .longitude: event!.origin?.longitude = value
        case .depth: event!.origin?.depth = value
        case .evaluationMode: event!.origin?.evaluationMode = String(decoding: value, as: UTF8.self)
        case .evaluationStatus: event!.origin?.evaluationStatus = String(decoding: value, as: UTF8.self)
        case .originDetail(let detail): event!.origin?.details.set(detail, value)
        case .magnitudeDetail(let detail): event!.magnitude?.details.set(detail, value)
        case .agency: event!.agency = String(decoding: value, as: UTF8.self)
        case .preferredMechanism: event!.mechanisms.prefer(String(decoding: value, as: UTF8.self))
        case .strike1, .dip1, .rake1, .strike2, .dip2, .rake2, .scalarMoment, .mrr, .mtt, .mpp, .mrt, .mrp, .mtp:
            event!.mechanism?.values[field] = value
        case .generated: break
        }
    }

    private func endEvent() {
        guard let state = event else { return }
        event = nil
        outcomes.append(state.outcome(source: source, now: now))
    }

    // MARK: - Values

    /// The value of the attribute `name` (in `namespace`, or none), from
    /// libxml2's five pointers per attribute: name, prefix, URI, value, end.
    private static func attribute(_ name: StaticString, _ count: Int, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
                                  namespace: UnsafePointer<xmlChar>? = nil) -> String? {
        guard let attributes else { return nil }
        for index in 0..<count {
            let entry = attributes + index * 5
            guard let local = entry[0], entry[2] == namespace,
                  strcmp(UnsafeRawPointer(local).assumingMemoryBound(to: CChar.self),
                         UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)) == 0,
                  let start = entry[3], let end = entry[4] else { continue }
            var first = start, last = end
            while first < last, first.pointee.isXMLBlank { first += 1 }
            while last > first, (last - 1).pointee.isXMLBlank { last -= 1 }
            return String(decoding: UnsafeBufferPointer(start: first, count: last - first), as: UTF8.self)
        }
        return nil
    }

    /// `bytes` without XML white space at either end.
    package static func trimmed(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        var start = 0, end = bytes.count
        while start < end, bytes[start].isXMLBlank { start += 1 }
        while end > start, bytes[end - 1].isXMLBlank { end -= 1 }
        return bytes[start..<end]
    }
}

extension QuakeMLDecoder {
    /// The elements read, by local name in the BED namespace.
    package enum Tag: String, CaseIterable {
        case quakeml, eventParameters, event, origin, magnitude, description, text, type, creationInfo, creationTime
        case preferredOriginID, preferredMagnitudeID, time, latitude, longitude, depth, value, mag
        case preferredFocalMechanismID, focalMechanism, nodalPlanes, nodalPlane1, nodalPlane2, strike, dip, rake
        case momentTensor, scalarMoment, tensor, Mrr, Mtt, Mpp, Mrt, Mrp, Mtp
        case uncertainty, quality, usedStationCount, azimuthalGap, minimumDistance, standardError, usedPhaseCount
        case associatedPhaseCount, associatedStationCount, originUncertainty, horizontalUncertainty
        case evaluationMode, evaluationStatus, agencyID, author, stationCount
        case other = ""
    }

    /// Where collected text goes.
    package enum Field: Hashable {
        case generated, preferredOrigin, preferredMagnitude, eventType, updated, descriptionText, descriptionType
        case originTime, latitude, longitude, depth, magnitudeValue, magnitudeType
        case preferredMechanism, strike1, dip1, rake1, strike2, dip2, rake2, scalarMoment, mrr, mtt, mpp, mrt, mrp, mtp
        /// The event's `creationInfo/agencyID`: its network when it has no `catalog:eventsource`.
        case agency
        /// The origin's, for ``EventField/status``.
        case evaluationMode, evaluationStatus
        /// A detail field kept by the origin or the magnitude (``detail(_:_:_:)``).
        case originDetail(EventField), magnitudeDetail(EventField)
    }

    /// The detail field kept at `owner/parent` or `owner/parent/leaf` (`owner` the origin or
    /// the magnitude), as ``EventField/Spec/quakeML`` places it (a test holds the two together);
    /// a switch, not a table: it is asked for most elements of an origin.
    package static func detail(_ owner: Tag, _ parent: Tag, _ leaf: Tag = .other) -> Field? {
        switch (owner, parent, leaf) {
        case (.origin, .time, .uncertainty): .originDetail(.timeError)
        case (.origin, .latitude, .uncertainty): .originDetail(.latitudeError)
        case (.origin, .longitude, .uncertainty): .originDetail(.longitudeError)
        case (.origin, .depth, .uncertainty): .originDetail(.depthError)
        case (.origin, .quality, .usedStationCount): .originDetail(.nst)
        case (.origin, .quality, .azimuthalGap): .originDetail(.gap)
        case (.origin, .quality, .minimumDistance): .originDetail(.dmin)
        case (.origin, .quality, .standardError): .originDetail(.rms)
        case (.origin, .quality, .usedPhaseCount): .originDetail(.usedPhaseCount)
        case (.origin, .quality, .associatedPhaseCount): .originDetail(.associatedPhaseCount)
        case (.origin, .quality, .associatedStationCount): .originDetail(.associatedStationCount)
        case (.origin, .originUncertainty, .horizontalUncertainty): .originDetail(.horizontalError)
        case (.origin, .creationInfo, .agencyID): .originDetail(.locationSource)
        case (.origin, .creationInfo, .author): .originDetail(.author)
        case (.magnitude, .mag, .uncertainty): .magnitudeDetail(.magError)
        case (.magnitude, .stationCount, .other): .magnitudeDetail(.magNst)
        case (.magnitude, .creationInfo, .agencyID): .magnitudeDetail(.magSource)
        default: nil
        }
    }

    /// `field`'s element path below `event` as messages name it (``EventField/Spec/quakeML``
    /// without its unit), or `nil` when QuakeML has none.
    package static func elementPath(_ field: EventField) -> String? {
        guard let path = field.spec.quakeML else { return nil }
        return String(path.prefix { $0 != " " })
    }

    /// The detail fields QuakeML writes in metres where the schema has kilometres
    /// (`horizontalError`, `depthError`): their ``EventField/Spec/quakeML`` ends `(m)`.
    package static let detailsInMetres: Set<EventField> = Set(EventField.detailFields.filter {
        $0.spec.unit == "km" && $0.spec.quakeML?.hasSuffix("(m)") == true
    })

    /// ``EventField/status`` from an origin's `evaluationMode` and `evaluationStatus`, in
    /// USGS's words: `rejected` is `deleted`, an automatic origin `automatic`, a manual or
    /// reviewed one `reviewed`; else QuakeML's `preliminary`, `confirmed` or `final` as written.
    /// ``QuakeMLEncoder`` writes each of these words so that it reads back the same.
    package static func status(evaluationMode mode: String?, evaluationStatus status: String?) -> String? {
        if status == "rejected" { return "deleted" }
        if mode == "automatic" { return "automatic" }
        if mode == "manual" || status == "reviewed" { return "reviewed" }
        switch status {
        case "preliminary", "confirmed", "final": return status
        default: return nil
        }
    }

    package struct Origin {
        package var publicID: String
        package var time: ArraySlice<UInt8>?
        package var latitude: ArraySlice<UInt8>?
        package var longitude: ArraySlice<UInt8>?
        package var depth: ArraySlice<UInt8>?
        package var evaluationMode: String?
        package var evaluationStatus: String?
        package var details = DetailTexts()
    }

    package struct Magnitude {
        package var publicID: String
        package var value: ArraySlice<UInt8>?
        package var type: String?
        package var details = DetailTexts()
    }

    /// The texts of an origin's or magnitude's detail fields, judged only for the one chosen.
    package struct DetailTexts {
        package private(set) var entries: [(field: EventField, text: ArraySlice<UInt8>)] = []

        /// Keeps `text` for `field`; an element given twice keeps the last.
        package mutating func set(_ field: EventField, _ text: ArraySlice<UInt8>) {
            if let index = entries.firstIndex(where: { $0.field == field }) {
                entries[index].text = text
            } else {
                entries.append((field, text))
            }
        }
    }

    /// Which of an event's origins (magnitudes, focal mechanisms) is used: the one
    /// its preferred id names, else the first. They may come before or after that
    /// id: the first is kept, and the others only until the id is known (up to
    /// ``maximumCandidates``; past them ``tooMany`` says so).
    package struct PreferredChoice<Item> {
        package private(set) var first: Item?
        package private(set) var preferred: Item?
        package private(set) var preferredID: String?
        package private(set) var tooMany = false
        private var candidates: [String: Item] = [:]

        /// The preferred one, else the first.
        package var chosen: Item? { preferred ?? first }

        package mutating func keep(_ item: Item, id: String) {
            if first == nil { first = item }
            if let preferredID {
                if preferred == nil, id == preferredID { preferred = item }
            } else if candidates.count < QuakeMLDecoder.maximumCandidates {
                candidates[id] = candidates[id] ?? item
            } else {
                tooMany = true
            }
        }

        package mutating func prefer(_ id: String) {
            preferredID = id
            if preferred == nil { preferred = candidates[id] }
            candidates = [:]
        }
    }

    /// One event's values while it is read.
    package struct EventState {
        package var line = 1, column = 1
        package var publicID = ""
        package var catalogSource: String?
        package var catalogEventID: String?
        package var eventType: String?
        package var updated: ArraySlice<UInt8>?
        /// The place and how good a name it is (0 best; see ``placeRank(_:)``).
        package var place: (text: String, rank: Int)?
        package var description: (text: String?, type: String?) = (nil, nil)
        /// `creationInfo/agencyID`.
        package var agency: String?

        /// The element being read, then kept by its choice.
        package var origin: Origin?
        package var magnitude: Magnitude?
        package var mechanism: Mechanism?
        package var origins = PreferredChoice<Origin>()
        package var magnitudes = PreferredChoice<Magnitude>()
        package var mechanisms = PreferredChoice<Mechanism>()

        package mutating func keepOrigin() {
            if let origin { origins.keep(origin, id: origin.publicID) }
            origin = nil
        }

        package mutating func keepMagnitude() {
            if let magnitude { magnitudes.keep(magnitude, id: magnitude.publicID) }
            magnitude = nil
        }

        package mutating func keepMechanism() {
            if let mechanism { mechanisms.keep(mechanism, id: mechanism.publicID) }
            mechanism = nil
        }

        package mutating func keepDescription() {
            guard let text = description.text, !text.isEmpty,
                  let rank = QuakeMLDecoder.placeRank(description.type) else { return }
            if place == nil || rank < place!.rank { place = (text, rank) }
        }

        package var id: String {
            if let eventID = catalogEventID, !eventID.isEmpty { return (catalogSource ?? "") + eventID }
            return QuakeMLDecoder.eventID(publicID: publicID)
        }

        /// The event, or why it is rejected: the rules of every reader.
        package func outcome(source: String, now: Date) -> Outcome {
            let id = self.id
            func reject(_ element: String?, _ value: String?, _ reason: String) -> Outcome {
                .rejected(FeedRejection(source: source, location: .element(line: line, column: column, id: id.isEmpty ? nil : id),
                                        column: element, value: value, reason: reason))
            }
            if origins.preferredID == nil && origins.tooMany {
                return reject(nil, nil, "has more than \(QuakeMLDecoder.maximumCandidates) origins before its preferredOriginID")
            }
            if magnitudes.preferredID == nil && magnitudes.tooMany {
                return reject(nil, nil, "has more than \(QuakeMLDecoder.maximumCandidates) magnitudes before its preferredMagnitudeID")
            }
            // The preferred one may have been among those not kept: the first would be a wrong guess.
            if let id = origins.preferredID, origins.preferred == nil, origins.tooMany {
                return reject("preferredOriginID", id,
                              "names none of the first \(QuakeMLDecoder.maximumCandidates) origins before it (more are not kept)")
            }
            if let id = magnitudes.preferredID, magnitudes.preferred == nil, magnitudes.tooMany {
                return reject("preferredMagnitudeID", id,
                              "names none of the first \(QuakeMLDecoder.maximumCandidates) magnitudes before it (more are not kept)")
            }
            guard let origin = origins.chosen else { return reject(nil, nil, "has no origin") }
            // The values are judged by the rules every reader shares; QuakeML writes depths in metres.
            let magnitude = magnitudes.chosen
            func value(_ text: ArraySlice<UInt8>?) -> RowValidator.Value {
                text.map { .string(String(decoding: $0, as: UTF8.self)) } ?? .absent
            }
            let row: RowValidator.Checked
            switch RowValidator(now: now).check(time: value(origin.time), latitude: value(origin.latitude),
                                                longitude: value(origin.longitude), depth: value(origin.depth),
                                                magnitude: value(magnitude?.value), updated: value(updated),
                                                depthUnit: .metres) {
            case .success(let checked): row = checked
            case .failure(let problem): return reject(QuakeMLDecoder.element(problem.field), problem.shown, problem.reason)
            }
            // The preferred focal mechanism, else the first; one whose values are not numbers in range is refused.
            let focal: FocalMechanism?
            switch mechanisms.chosen?.focalMechanism() {
            case .failure(let problem)?: return reject(problem.element, problem.value, problem.reason)
            case .success(let value)?: focal = value
            case nil: focal = nil
            }
            // The other fields of the chosen origin and magnitude, judged as every reader judges them.
            var details = EventDetails()
            let texts = (origin.details.entries + (magnitude?.details.entries ?? [])).sorted { $0.field < $1.field }
            for (field, text) in texts {
                switch QuakeMLDecoder.detailValue(field, text) {
                case .success(let value?): details[field] = value
                case .success(nil): continue
                case .failure(let refusal): return reject(QuakeMLDecoder.elementPath(field), refusal.shown, refusal.reason)
                }
            }
            // Already trimmed of XML's blanks; kept by the rule every reader shares (a byte order mark dropped).
            let text = RowValidator.text
            return .event(SeismicEvent(
                id: id,
                time: row.time,
                latitude: row.latitude,
                longitude: row.longitude,
                depth: row.depth,
                magnitude: row.magnitude,
                magnitudeType: text(magnitude?.type),
                place: text(place?.text) ?? "",
                eventType: text(eventType) ?? "earthquake",
                // USGS's attribute, as before; else the agency QuakeML itself names.
                network: text(catalogSource) ?? text(agency),
                updated: row.updated,
                status: QuakeMLDecoder.status(evaluationMode: text(origin.evaluationMode),
                                              evaluationStatus: text(origin.evaluationStatus)),
                mechanism: focal,
                details: details
            ))
        }
    }

    /// How good a place name a description of this `type` gives; `nil` for none.
    package static func placeRank(_ type: String?) -> Int? {
        switch type?.trimmingBlanks() {
        case "earthquake name": return 0
        case "region name": return 1
        case "Flinn-Engdahl region": return 2
        default: return nil
        }
    }

    /// The id in a public id: its `eventid=` query parameter (percent-decoded),
    /// else its last path component without a `key=` prefix (ISC's
    /// `smi:ISC/evid=600516598`; the one before a last component `event`, as ObsPy
    /// writes `smi:local/ndk/C201303010329A/event`), else the whole.
    package static func eventID(publicID: String) -> String {
        if let query = publicID.firstIndex(of: "?") {
            for pair in publicID[publicID.index(after: query)...].split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                if parts.count == 2, parts[0].lowercased() == "eventid" { return percentDecoded(parts[1]) }
            }
        }
        let path = publicID.drop(while: { $0 != ":" }).dropFirst()
        let trimmed = path.reversed().drop(while: { $0 == "/" }).reversed()
        if let slash = trimmed.lastIndex(of: "/") {
            var last = trimmed[trimmed.index(after: slash)...]
            // ObsPy names events it reads from NDK `smi:local/ndk/C201303010329A/event`: the name is before the word.
            if String(last).lowercased() == "event", let previous = trimmed[..<slash].lastIndex(of: "/"),
               trimmed.index(after: previous) < slash {
                last = trimmed[trimmed.index(after: previous)..<slash]
            }
            if let equals = last.firstIndex(of: "="), equals > last.startIndex, last.index(after: equals) < last.endIndex,
               last[..<equals].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) {
                last = last[last.index(after: equals)...]
            }
            if !last.isEmpty { return String(last) }
        }
        return publicID
    }

    /// `%HH` sequences decoded as UTF-8; text that does not decode stays as written.
    package static func percentDecoded(_ text: Substring) -> String {
        guard text.contains("%") else { return String(text) }
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.first {
            if byte == UInt8(ascii: "%"), utf8.count >= 3,
               let value = UInt8(String(decoding: utf8.dropFirst().prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(3)
            } else {
                bytes.append(byte)
                utf8 = utf8.dropFirst()
            }
        }
        return String(validating: bytes, as: UTF8.self) ?? String(text)
    }

    /// Kilometres from a depth written in metres, by the rule every reader
    /// shares (``RowValidator/kilometres(fromMetres:)``).
    package static func kilometres(fromMetres text: ArraySlice<UInt8>) -> Double? {
        RowValidator.kilometres(fromMetres: text)
    }

    /// A detail field's value from its text, by ``FieldText``; one QuakeML writes in metres
    /// becomes kilometres by moving the point, as depths do (``RowValidator/kilometres(fromMetres:)``).
    package static func detailValue(_ field: EventField, _ text: ArraySlice<UInt8>) -> Result<EventValue?, RowValidator.QuantityRefusal> {
        let value = text.withUnsafeBytes { FieldText.value(field, bytes: $0) }
        guard detailsInMetres.contains(field), case .success(.number(let metres)?) = value else { return value }
        return .success(.number(kilometres(fromMetres: text) ?? metres / 1000))
    }

    /// Where a field the validator refused is, as messages name it.
    package static func element(_ field: RowValidator.Field) -> String {
        switch field {
        case .time, .date: "origin/time"
        case .latitude: "origin/latitude"
        case .longitude: "origin/longitude"
        case .depth: "origin/depth"
        case .magnitude: "magnitude/mag"
        case .updated: "creationInfo/creationTime"
        }
    }
}

/// Moves the point of a plain decimal (`[+-]digits[.digits]`) by powers of ten,
/// exactly, as text: metres to kilometres and back without rounding.
package enum DecimalShift {
    /// `text` times 10^`places`, or `nil` when it is not a plain decimal.
    package static func shifted<Bytes: Collection<UInt8>>(_ text: Bytes, by places: Int) -> [UInt8]? {
        var bytes = Array(text)[...]
        var sign: [UInt8] = []
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            if first == UInt8(ascii: "-") { sign = [first] }
            bytes = bytes.dropFirst()
        }
        let point = bytes.firstIndex(of: UInt8(ascii: ".")) ?? bytes.endIndex
        let whole = Array(bytes[..<point])
        let fraction = point == bytes.endIndex ? [] : Array(bytes[(point + 1)...])
        guard whole.count + fraction.count > 0, whole.count + fraction.count < 400,
              (whole + fraction).allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        var digits = whole + fraction
        var pointAt = whole.count + places
        if pointAt < 0 { digits.insert(contentsOf: repeatElement(UInt8(ascii: "0"), count: -pointAt), at: 0); pointAt = 0 }
        if pointAt > digits.count { digits.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: pointAt - digits.count)) }
        var integer = Array(digits[..<pointAt].drop(while: { $0 == UInt8(ascii: "0") }))
        if integer.isEmpty { integer = [UInt8(ascii: "0")] }
        var decimals = Array(digits[pointAt...])
        while decimals.last == UInt8(ascii: "0") { decimals.removeLast() }
        return sign + integer + (decimals.isEmpty ? [] : [UInt8(ascii: ".")] + decimals)
    }
}

extension UInt8 {
    /// XML's white space: space, tab, line feed, carriage return.
    fileprivate var isXMLBlank: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D }
}

