import Foundation
import NIOCore
import QuakeKit
import QuakeServer
import Testing

/// The change stream's rules, without a network: each change once and in order, what a
/// reconnecting client missed and nothing more, a reload when that cannot be said.
@Suite("the change stream")
struct ChangeStreamTests {
    static func event(_ id: String, magnitude: Double) -> SeismicEvent {
        SeismicEvent(id: id, time: Date(timeIntervalSince1970: 1_790_000_000), latitude: 10, longitude: 20, magnitude: magnitude)
    }

    static func frames(_ stream: ChangeStream, _ ids: [(String, Double)], from stamp: Int64) -> [ChangeStream.Frame] {
        ids.enumerated().map { offset, item in
            ChangeStream.frame(event(item.0, magnitude: item.1), stamp: stamp + Int64(offset), created: true, instance: stream.instance)
        }
    }

    /// What a client reads until it has `count` frames: their events' names and ids.
    static func read(_ frames: AsyncStream<ByteBuffer>, count: Int) async -> [(event: String, id: String)] {
        var text = "", parsed: [(event: String, id: String)] = []
        for await bytes in frames {
            text += String(buffer: bytes)
            parsed = parse(text)
            if parsed.count >= count { break }
        }
        return parsed
    }

    static func parse(_ text: String) -> [(event: String, id: String)] {
        text.components(separatedBy: "\n\n").compactMap { block in
            var event: String?, id = ""
            for line in block.split(separator: "\n") {
                if line.hasPrefix("event: ") { event = String(line.dropFirst(7)) }
                if line.hasPrefix("id: ") { id = String(line.dropFirst(4)) }
            }
            return event.map { ($0, id) }
        }
    }

    @Test func eachChangeReachesEveryClientOnceInOrderAndAFilterNarrowsIt() async throws {
        let stream = ChangeStream(instance: "abc", latest: 10)
        let (everyReplay, every) = stream.subscribe(lastEventID: nil, filter: EventFilter())
        let (_, large) = stream.subscribe(lastEventID: nil, filter: EventFilter(minimumMagnitude: 5))
        guard case .frames(let nothing) = everyReplay else { Issue.record("a new client replays nothing"); return }
        #expect(nothing.isEmpty && stream.clients == 2)
        stream.publish(Self.frames(stream, [("a", 2), ("b", 6), ("c", 3)], from: 11))
        stream.publish(Self.frames(stream, [("d", 7)], from: 14), reloadAt: 15)
        let all = await Self.read(every, count: 5)
        #expect(all.map(\.event) == ["create", "create", "create", "create", "reload"])
        #expect(all.map(\.id) == ["abc:11", "abc:12", "abc:13", "abc:14", "abc:15"])
        // The filter passes the large ones; a reload goes to every client.
        let narrowed = await Self.read(large, count: 3)
        #expect(narrowed.map(\.id) == ["abc:12", "abc:14", "abc:15"])
        #expect(stream.latest == 15)
    }

    @Test func aReconnectingClientGetsWhatItMissedOrAReload() async throws {
        let stream = ChangeStream(instance: "abc", latest: 100)
        stream.publish(Self.frames(stream, (0..<5).map { ("e\($0)", 3) }, from: 101))
        // Within what is kept: exactly the frames after its id.
        guard case .frames(let missed) = stream.subscribe(lastEventID: "abc:102", filter: EventFilter()).replay else {
            Issue.record("a client within the kept changes replays them"); return
        }
        #expect(missed.map(\.stamp) == [103, 104, 105])
        // Up to date: nothing.
        guard case .frames(let none) = stream.subscribe(lastEventID: "abc:105", filter: EventFilter()).replay else {
            Issue.record("an up-to-date client replays nothing"); return
        }
        #expect(none.isEmpty)
        // From before this server kept changes: the catalogue holds them, up to what the stream has sent.
        guard case .catalogue(let after, let through) = stream.subscribe(lastEventID: "abc:40", filter: EventFilter()).replay else {
            Issue.record("a client from before the server started reads the catalogue"); return
        }
        #expect(after == 40 && through == 105)
        // Another catalogue's id, an id from the future, and nonsense: reload.
        for id in ["xyz:102", "abc:999", "abc", "abc:-1", "102"] {
            guard case .reload = stream.subscribe(lastEventID: id, filter: EventFilter()).replay else {
                Issue.record("\(id) should reload"); continue
            }
        }
        // Events removed after its id: what it shows cannot be patched.
        stream.publish([], reloadAt: 106)
        guard case .reload = stream.subscribe(lastEventID: "abc:103", filter: EventFilter()).replay else {
            Issue.record("a client from before a removal reloads"); return
        }
        guard case .frames(let after) = stream.subscribe(lastEventID: "abc:106", filter: EventFilter()).replay else {
            Issue.record("a client that heard of the removal goes on"); return
        }
        #expect(after.isEmpty)
    }

    @Test func aClientThatFallsBehindIsLetGoAndTheRestCarryOn() async throws {
        let stream = ChangeStream(instance: "abc", latest: 0)
        let (_, stuck) = stream.subscribe(lastEventID: nil, filter: EventFilter())
        let (_, reading) = stream.subscribe(lastEventID: nil, filter: EventFilter())
        let reader = Task { await Self.read(reading, count: ChangeStream.backlog + 10) }
        // One frame a publish, more than a client may fall behind by.
        for stamp in 1...Int64(ChangeStream.backlog + 10) {
            stream.publish(Self.frames(stream, [("e\(stamp)", 3)], from: stamp))
            if stamp % 32 == 0 { try await Task.sleep(for: .milliseconds(5)) }
        }
        #expect(await reader.value.count == ChangeStream.backlog + 10)
        var held = 0
        for await _ in stuck { held += 1 }
        // Its stream ended after what it could hold: it reconnects with Last-Event-ID and catches up.
        #expect(held == ChangeStream.backlog)
        #expect(stream.clients == 1)
    }

    @Test func theServerAnswersTheStreamsHeadAndRefusesUnknownParameters() async throws {
        let path = try ServerFixtures.file(ServerFixtures.csv(ServerFixtures.sixty))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let server = try await RunningServer.start([.local(.file(path))])
        defer { server.stop() }
        let head = try await server.get("/collections/quakes/changes", method: "HEAD")
        #expect(head.status == 200 && head.headers["content-type"] == "text/event-stream; charset=utf-8")
        #expect(head.headers["cache-control"] == "no-store" && head.headers["x-accel-buffering"] == "no")
        let refused = try await server.get("/collections/quakes/changes?limit=3")
        #expect(refused.status == 400)
        #expect(try await server.get("/collections/other/changes", method: "HEAD").status == 404)
    }
}
