import Foundation
import Testing
@testable import QuakeKit
@testable import QuakeModel
@testable import QuakeParse
@testable import QuakeQuery
@testable import QuakeGeo
@testable import QuakeScene
@testable import QuakeRender
@testable import QuakeWrite

@Suite("Writing outputs", .timeLimit(.minutes(10)))
struct OutputTests {
    func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("quakekit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func atomicWriteCreatesFoldersAndLeavesNoTemporaryFile() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("a/b/map.png").path
        try AtomicFileWriter.write(Data("new".utf8), to: path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("new".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("a/b").path) == ["map.png"])
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode.map { $0 & 0o044 } == 0o044, "readable by others, as a plain create would make it")
    }

    @Test func failedWriteLeavesTheOldFileAndNoDebris() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("map.png").path
        try AtomicFileWriter.write(Data("old".utf8), to: path)
        // A folder where the file should go: the rename must fail.
        let blocked = folder.appendingPathComponent("blocked.png").path
        try FileManager.default.createDirectory(atPath: blocked + "/inside", withIntermediateDirectories: true)
        #expect(throws: WriteError.self) { try AtomicFileWriter.write(Data("new".utf8), to: blocked) }
        #expect(throws: WriteError.cannotCreateFolder(path: path, errno: ENOTDIR)) {
            try AtomicFileWriter.write(Data("new".utf8), to: path + "/x.png")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("old".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["blocked.png", "map.png"])
    }

    @Test func csvListHasTheFixedHeaderAndQuotesWhereNeeded() throws {
        var event = Fixtures.event("us1", time: "2020-06-11T15:27:04.123Z", latitude: 33.9766667, longitude: -116.8666667, magnitude: 4)
        event.place = "12 km NNE of \"Ridge\", CA"
        event.depth = 10
        let other = Fixtures.event("us2", magnitude: -0.5)
        let text = String(decoding: try EventListEncoder().encode([event, other], as: .csv), as: UTF8.self)
        #expect(text == """
            time,latitude,longitude,depth,mag,magType,nst,gap,dmin,rms,net,id,updated,place,type,horizontalError,depthError,magError,magNst,status,locationSource,magSource
            2020-06-11T15:27:04.123Z,33.9766667,-116.8666667,10,4,,,,,,,us1,,"12 km NNE of ""Ridge"", CA",earthquake,,,,,,,
            2026-11-21T10:00:00.000Z,0,0,,-0.5,,,,,,,us2,,,earthquake,,,,,,,

            """)
    }

    @Test func csvColumnsChooseAndOrderTheFields() throws {
        var event = Fixtures.event("us1", time: "2020-06-11T15:27:04.123Z", latitude: 1.5, longitude: 2.5, magnitude: 4)
        event.details[.gap] = .number(37.5)
        event.details[.felt] = .integer(12)
        event.details[.alert] = .text("yellow")
        let columns = try EventColumns(parsing: "mag,gap,alert,felt,id")
        let text = String(decoding: try EventListEncoder().encode([event], as: .csv, columns: columns), as: UTF8.self)
        #expect(text == "mag,gap,alert,felt,id\n4,37.5,yellow,12,us1\n")
        let all = try EventColumns(parsing: "all")
        #expect(all.fields.prefix(22) == EventColumns.usgs.fields[...])
        #expect(Set(all.fields) == Set(EventField.allCases) && all.fields.count == EventField.allCases.count)
        #expect(throws: EventColumnsError.self) { try EventColumns(parsing: "mag,bogus") }
    }

    @Test func jsonListHasEveryKeyWithNullsForMissingValues() throws {
        let data = try EventListEncoder().encode([Fixtures.event("us2", magnitude: nil)], as: .json)
        let objects = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(objects.count == 1)
        #expect(Set(objects[0].keys) == Set(EventColumns.usgs.fields.map(\.spec.name)))
        #expect(objects[0]["mag"] is NSNull)
        #expect(objects[0]["time"] as? String == "2026-11-21T10:00:00.000Z")
    }
}
