import Foundation
import Testing
@testable import QuakeModel
@testable import QuakeParse

/// The in-place feature reader against the plain path (`JSONSerialization`, then the same
/// checks): wherever the reader reads a feature, its event or rejection is the plain path's;
/// wherever `JSONSerialization` refuses a feature, the reader declines it. The plain path is in
/// turn checked against Python's `json` by Tests/Interop/test_geojson_python.py.
@Suite("GeoJSON feature reader")
struct GeoJSONFeatureReaderTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let decoder = GeoJSONFeedDecoder(source: "feed.geojson", options: FeedOptions(now: now))
    static let validator = RowValidator(now: now)

    enum Read: Equatable {
        case event(SeismicEvent), rejected(FeedRejection), declined, incomplete, invalid
    }

    /// The reader's reading of `bytes` as the feature at `index`.
    static func fast(_ bytes: [UInt8], index: Int = 1) -> Read {
        bytes.withUnsafeBytes { buffer in
            switch GeoJSONFeatureReader.read(buffer, from: 0) {
            case .feature(let feature, let end):
                guard end == buffer.count else { return .invalid }
                var texts = ShortTextCache()
                switch decoder.outcome(of: feature, in: buffer, index: index, validator: validator, texts: &texts) {
                case .event(let event): return .event(event)
                case .rejected(let rejection): return .rejected(rejection)
                }
            case .incomplete: return .incomplete
            case .unsupported: return .declined
            }
        }
    }

    /// The plain path's: `nil` when `JSONSerialization` refuses the bytes.
    static func plain(_ bytes: [UInt8], index: Int = 1) -> Read? {
        guard let value = try? JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed) else { return nil }
        switch decoder.outcome(ofFeature: value, index: index, validator: validator) {
        case .event(let event): return .event(event)
        case .rejected(let rejection): return .rejected(rejection)
        }
    }

    /// Holds the reader to the plain path for `bytes`; whether the reader read it.
    @discardableResult
    static func agree(_ bytes: [UInt8], _ comment: Comment? = nil) -> Bool {
        let fast = fast(bytes)
        guard let plain = plain(bytes) else {
            #expect(fast == .declined || fast == .incomplete, comment)
            return false
        }
        if fast == .declined { return false }
        #expect(fast == plain, comment)
        return true
    }

    static let base = #"""
        {"type":"Feature","properties":{"mag":4.6,"place":"10 km SSW of Ōfunato, Japan","time":1700000000123,"updated":1700000300456,"tz":null,"url":"https://earthquake.usgs.gov/x","felt":3,"cdi":2.7,"alert":null,"status":"reviewed","tsunami":0,"sig":326,"net":"us","code":"7000abcd","ids":",us7000abcd,","sources":",us,","types":",origin,phase-data,","nst":null,"dmin":1.234,"rms":0.7,"gap":35,"magType":"mb","type":"earthquake","title":"M 4.6 - Japan"},"geometry":{"type":"Point","coordinates":[141.7061,38.9841,35.5]},"id":"us7000abcd"}
        """#

    @Test func aUSGSFeatureIsReadInPlaceAsThePlainPathReadsIt() {
        let bytes = Array(Self.base.utf8)
        #expect(Self.agree(bytes))
        guard case .event(let event) = Self.fast(bytes) else { Issue.record("no event"); return }
        #expect(event.id == "us7000abcd" && event.place == "10 km SSW of Ōfunato, Japan" && event.magnitude == 4.6)
        #expect(event.time == Date(timeIntervalSince1970: 1_700_000_000.123) && event.depth == 35.5 && event.network == "us")
    }

    /// Features that differ from the USGS one in one way each: the reader reads them (the plain path's result), or declines.
    @Test(arguments: [
        // Read in place.
        (#""mag":4.6"#, #""mag":"4.6""#, true),
        (#""mag":4.6"#, #""mag":null"#, true),
        (#""mag":4.6"#, #""mag":"""#, true),
        (#""mag":4.6"#, #""mag":"four""#, true),
        (#""mag":4.6"#, #""mag":46e-1"#, true),
        (#""mag":4.6"#, #""mag":-0.0"#, true),
        (#""mag":4.6"#, #""mag":12.5"#, true),
        (#""time":1700000000123"#, #""time":"2023-11-14T22:13:20.123Z""#, true),
        (#""time":1700000000123"#, #""time":"2023-11-14T22:13:20\u002e123Z""#, true),
        (#""time":1700000000123"#, #""time":null"#, true),
        (#""time":1700000000123"#, #""time":1.7e12"#, true),
        (#""time":1700000000123"#, #""time":"yesterday""#, true),
        (#""time":1700000000123"#, #""time":1900000000000"#, true),
        (#""updated":1700000300456"#, #""updated":"soon""#, true),
        (#""place":"10 km SSW of Ōfunato, Japan""#, #""place":"a \"quoted\" place\\ \/ \b\f\n\r\t \u00e9 \ud83c\udf0b""#, true),
        (#""place":"10 km SSW of Ōfunato, Japan""#, #""place":12"#, true),
        (#""place":"10 km SSW of Ōfunato, Japan""#, #""place":["a"]"#, true),
        (#""place":"10 km SSW of Ōfunato, Japan""#, #""place":"  \u00a0 ""#, true),
        (#""net":"us""#, #""net":null"#, true),
        (#""type":"earthquake""#, #""type":"quarry blast""#, true),
        (#""id":"us7000abcd""#, #""id":12"#, true),
        (#""id":"us7000abcd""#, #""id":"  ""#, true),
        (#""type":"Feature""#, #""type":"Featur\u0065""#, true),
        (#""type":"Feature""#, #""type":"Point""#, true),
        (#""type":"Feature""#, #""type":7"#, true),
        (#"[141.7061,38.9841,35.5]"#, #"[141.7061,38.9841]"#, true),
        (#"[141.7061,38.9841,35.5]"#, #"[141.7061]"#, true),
        (#"[141.7061,38.9841,35.5]"#, #"[]"#, true),
        (#"[141.7061,38.9841,35.5]"#, #"[141.7061,38.9841,35.5,12]"#, true),
        (#"[141.7061,38.9841,35.5]"#, #"["141.7061","38.9841","35.5"]"#, true),
        (#"[141.7061,38.9841,35.5]"#, #"[141.7061,98.9841,35.5]"#, true),
        (#"[141.7061,38.9841,35.5]"#, #"[141.7061,38.9841,null]"#, true),
        (#""coordinates":[141.7061,38.9841,35.5]"#, #""coordinates":"141,38""#, true),
        (#""coordinates":[141.7061,38.9841,35.5]"#, #""coords":[141.7061,38.9841,35.5]"#, true),
        (#""geometry":{"type":"Point","coordinates":[141.7061,38.9841,35.5]}"#, #""geometry":null"#, true),
        (#""properties":{"mag""#, #""extra":{"deep":[[[{"a":[true,false,null,-1.5e-3,"\u0041"]}]]]},"properties":{"mag""#, true),
        (#""tz":null"#, #""tz":1e400"#, false),
        // Declined: the plain path decides.
        (#""mag":4.6"#, #""mag":true"#, false),
        (#""mag":4.6"#, #""mag":{"value":4.6}"#, false),
        (#""mag":4.6"#, #""mag":4.6,"mag":5.1"#, false),
        (#""mag":4.6"#, #""mag":-0"#, false),
        (#""mag":4.6"#, #""mag":4.60000000000000000001"#, false),
        (#""mag":4.6"#, #""mag":1e400"#, false),
        (#""dmin":1.234"#, #""dmin":12345678901234567890123"#, false),
        (#""id":"us7000abcd""#, #""id":"us7000abcd","id":"x""#, false),
        (#""status":"reviewed""#, #""status":"reviewed","products":{"origin":[]}"#, false),
        (#""place":"10 km SSW of Ōfunato, Japan""#, #""pl\u0061ce":"x""#, false),
        (#""place":"10 km SSW of Ōfunato, Japan""#, #""place":"\ud83c""#, false),
        (#"[141.7061,38.9841,35.5]"#, #"[141.7061,38.9841,[35.5]]"#, false),
        (#"[141.7061,38.9841,35.5]"#, #"[141.7061,38.9841,true]"#, false),
        // Not JSON: declined, and refused by the plain path.
        (#""mag":4.6"#, #""mag":04.6"#, false),
        (#""mag":4.6"#, #""mag":4."#, false),
        (#""mag":4.6"#, #""mag":.6"#, false),
        (#""mag":4.6"#, #""mag":+4.6"#, false),
        (#""mag":4.6"#, #""mag":NaN"#, false),
        (#""mag":4.6"#, #""mag":4.6,"#, false),
        (#""mag":4.6"#, #""mag" 4.6"#, false),
        (#""mag":4.6"#, #"mag:4.6"#, false),
        (#""place":"10 km SSW of Ōfunato, Japan""#, "\"place\":\"tab\tinside\"", false),
        (#""place":"10 km SSW of Ōfunato, Japan""#, #""place":"bad \x""#, false),
        (#""place":"10 km SSW of Ōfunato, Japan""#, #""place":"bad \u12G4""#, false),
        (#""tz":null"#, #""tz":nul"#, false),
        (#""tz":null"#, #""tz":True"#, false),
        (#"[141.7061,38.9841,35.5]"#, #"[141.7061,38.9841,35.5,]"#, false),
    ])
    func aVariantIsReadAsThePlainPathReadsIt(of original: String, as replacement: String, readInPlace: Bool) {
        let text = Self.base.replacingOccurrences(of: original, with: replacement)
        #expect(text != Self.base)
        #expect(Self.agree(Array(text.utf8), "\(replacement)") == readInPlace, "\(replacement)")
    }

    @Test func invalidUTF8AndShortFeaturesAreNotRead() throws {
        var bytes = Array(Self.base.utf8)
        let place = try #require(bytes.firstIndex(of: 0xC5))  // the first byte of "Ō"
        bytes[place] = 0xFF
        #expect(Self.fast(bytes) == .declined)
        #expect(Self.plain(bytes) == nil)
        let whole = Array(Self.base.utf8)
        for cut in stride(from: 1, to: whole.count - 1, by: 7) {
            #expect(Self.fast(Array(whole[..<cut])) == .incomplete, "cut at \(cut)")
        }
    }

    /// Thousands of one-byte changes to a USGS feature: wherever the reader reads one, the plain path reads it the same.
    @Test func mutatedFeaturesAgreeWithThePlainPath() {
        var generator = SplitMix64(state: 20261128)
        let original = Array(Self.base.utf8)
        let alphabet = Array(#"{}[]:,"\-+.eE0123456789 nulltruefalse/u\"#.utf8) + [0x00, 0x09, 0x0A, 0x80, 0xC3, 0xFF]
        var read = 0
        for _ in 0..<3000 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let at = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[at] = alphabet.randomElement(using: &generator)!
                case 1: bytes.remove(at: at)
                default: bytes.insert(alphabet.randomElement(using: &generator)!, at: at)
                }
            }
            if Self.agree(bytes, "\(String(decoding: bytes, as: UTF8.self))") { read += 1 }
        }
        // Most changes land in a value the reader reads or skips.
        #expect(read > 600)
    }

    @Test(.enabled(if: RealFeeds.available, "../shared/data/usgs is not beside the repository: skipped"),
          arguments: ["all_week_2014-04.geojson", "4.5_week_2020-10.geojson"])
    func everyFeatureOfARealFeedIsReadInPlaceAsThePlainPathReadsIt(file: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: RealFeeds.folder + "/" + file))
        let parts = try #require(GeoJSONStream.parts(of: data))
        #expect(parts.features.count > 50)
        for (index, feature) in parts.features.enumerated() {
            #expect(Self.fast(feature, index: index + 1) == Self.plain(feature, index: index + 1), "feature \(index + 1)")
        }
    }
}
