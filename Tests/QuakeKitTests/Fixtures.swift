import Foundation
@testable import QuakeKit
@testable import QuakeModel
@testable import QuakeParse
@testable import QuakeQuery
@testable import QuakeGeo
@testable import QuakeScene
@testable import QuakeRender
@testable import QuakeWrite

/// Small synthetic feeds written for these tests (not USGS data).
enum Fixtures {
    static let header22 = "time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type,horizontalError,depthError,magError,magNst,status,locationSource,magSource"

    /// A 22-column row; `place` is quoted by the caller when needed.
    static func row22(
        time: String = "2026-11-21T10:00:00.000Z", latitude: String = "10", longitude: String = "20",
        depth: String = "5", mag: String = "4.5", id: String = "us0001", place: String = "Somewhere",
        type: String = "earthquake"
    ) -> String {
        "\(time),\(latitude),\(longitude),\(depth),\(mag),mb,,,,,us,\(id),2026-11-21T11:00:00.000Z,\(place),\(type),,,,,reviewed,us,us"
    }

    static func read(_ text: String, strict: Bool = false) throws -> (events: [SeismicEvent], summary: FeedSummary) {
        var events: [SeismicEvent] = []
        let summary = try FeedReader(options: FeedOptions(strict: strict))
            .read(.bytes(Data(text.utf8), name: "test.csv")) { events.append($0) }
        return (events, summary)
    }

    static func date(_ iso: String) -> Date {
        TimeParser.parse(ArraySlice(iso.utf8))!
    }

    static func event(
        _ id: String, time: String = "2026-11-21T10:00:00.000Z", latitude: Double = 0,
        longitude: Double = 0, magnitude: Double? = 4
    ) -> SeismicEvent {
        SeismicEvent(id: id, time: date(time), latitude: latitude, longitude: longitude, magnitude: magnitude)
    }
}
