import Foundation
import Testing
@testable import QuakeModel
@testable import QuakeParse
@testable import QuakeGeo
@testable import QuakeScene
import QuakeRender

/// The geometry of focal mechanisms by its own invariants (a plane's auxiliary's
/// auxiliary is the plane; a double couple's tensor gives back both planes and
/// the axes of its plane), and the NDK reader on records written here in the
/// format's columns. ObsPy checks the numbers in Tests/Interop/test_mechanisms.py.
@Suite("Focal mechanisms")
struct MechanismTests {
    /// Planes in every quadrant and at the format's edges: vertical, horizontal,
    /// strike 0 and 360, rake ±180 and 0.
    static let planes: [NodalPlane] = {
        var planes: [NodalPlane] = []
        for strike in stride(from: 0.0, through: 360, by: 37.5) {
            for dip in [1.0, 10, 30, 45, 60, 89.9, 90] {
                for rake in [-180.0, -135, -90, -30, 0, 0.5, 45, 90, 150, 180] {
                    planes.append(NodalPlane(strike: strike, dip: dip, rake: rake))
                }
            }
        }
        return planes
    }()

    /// The same plane and slip, whichever of its two names a vertical plane goes by.
    static func same(_ a: NodalPlane, _ b: NodalPlane, tolerance: Double = 1e-6) -> Bool {
        let sign = a.normal.dot(b.normal) < 0 ? -1.0 : 1.0
        let normal = (a.normal - SourceVector(north: sign * b.normal.north, east: sign * b.normal.east, down: sign * b.normal.down)).length
        let slip = (a.slip - SourceVector(north: sign * b.slip.north, east: sign * b.slip.east, down: sign * b.slip.down)).length
        return normal < tolerance && slip < tolerance
    }

    @Test func theAuxiliaryOfTheAuxiliaryIsThePlane() {
        for plane in Self.planes {
            let auxiliary = plane.auxiliary
            #expect(Self.same(auxiliary.auxiliary, plane), "\(plane) → \(auxiliary) → \(auxiliary.auxiliary)")
            // Orthogonal planes, each slipping along the other's normal.
            #expect(abs(plane.normal.dot(auxiliary.normal)) < 1e-12)
            #expect((0...90).contains(auxiliary.dip) && (0..<360).contains(auxiliary.strike))
            #expect(auxiliary.rake > -180 && auxiliary.rake <= 180)
        }
    }

    @Test func anglesAreBroughtIntoTheirRanges() {
        let mechanism = FocalMechanism(nodalPlanes: [NodalPlane(strike: 360, dip: 30, rake: -180), NodalPlane(strike: -10, dip: 60, rake: 270)])
        #expect(mechanism.nodalPlanes == [NodalPlane(strike: 0, dip: 30, rake: 180), NodalPlane(strike: 350, dip: 60, rake: -90)])
    }

    @Test func aDoubleCouplesTensorGivesBackItsPlanesAndAxes() {
        for (index, plane) in Self.planes.enumerated() where plane.dip > 0.5 {
            // Moments from 1e16 to 1e26 N·m: the geometry must not depend on the scale.
            let moment = pow(10, 16 + Double(index % 11))
            let tensor = plane.tensor(moment: moment)
            #expect(abs(tensor.scalarMoment / moment - 1) < 1e-12)
            let planes = tensor.bestDoubleCouple
            #expect(planes.count == 2)
            #expect(planes.contains { Self.same($0, plane, tolerance: 1e-7) }, "\(plane): \(planes)")
            #expect(planes.contains { Self.same($0, plane.auxiliary, tolerance: 1e-7) })
            let fromTensor = tensor.axes, fromPlane = plane.axes(moment: moment)
            for (a, b) in [(fromTensor.t, fromPlane.t), (fromTensor.p, fromPlane.p)] {
                #expect(abs(a.plunge - b.plunge) < 1e-6)
                // A vertical axis has no azimuth; a horizontal one points both ways.
                let turn = abs(Mechanisms.degreesAround0(a.azimuth - b.azimuth))
                if a.plunge < 89.99 { #expect(turn < 1e-6 || (a.plunge < 1e-6 && abs(turn - 180) < 1e-6), "\(plane)") }
                #expect(abs(a.value! - b.value!) <= 1e-9 * moment)
            }
            let parts = tensor.parts
            #expect(abs(parts.doubleCouple - 1) < 1e-9 && abs(parts.clvd) < 1e-9 && abs(parts.isotropic) < 1e-9)
        }
    }

    @Test func thrustNormalAndStrikeSlipAxesPointWhereTheyShould() {
        // A thrust on a plane striking north: T vertical, P horizontal east–west.
        let thrust = NodalPlane(strike: 0, dip: 45, rake: 90).axes(moment: 1)
        #expect(abs(thrust.t.plunge - 90) < 1e-9 && abs(thrust.p.plunge) < 1e-9)
        #expect(abs(Mechanisms.degreesAround0(thrust.p.azimuth - 90)) < 1e-9 || abs(Mechanisms.degreesAround0(thrust.p.azimuth - 270)) < 1e-9)
        #expect(NodalPlane(strike: 0, dip: 45, rake: 90).tensor(moment: 1).rr > 0)
        // A normal fault: P vertical, Mrr negative.
        let normal = NodalPlane(strike: 0, dip: 45, rake: -90)
        #expect(abs(normal.axes(moment: 1).p.plunge - 90) < 1e-9 && normal.tensor(moment: 1).rr < 0)
        // A vertical strike-slip fault: T and P horizontal, 45° from the strike.
        let strikeSlip = NodalPlane(strike: 0, dip: 90, rake: 0).axes(moment: 1)
        #expect(abs(strikeSlip.t.plunge) < 1e-9 && abs(strikeSlip.p.plunge) < 1e-9)
        #expect([45.0, 135, 225, 315].contains { abs(Mechanisms.degreesAround0(strikeSlip.t.azimuth - $0)) < 1e-9 })
    }

    @Test func explosionsAndCLVDsHaveTheirParts() {
        let explosion = MomentTensor(rr: 1e17, tt: 1e17, pp: 1e17, rt: 0, rp: 0, tp: 0)
        #expect(explosion.parts.isotropic == 1 && explosion.bestDoubleCouple.isEmpty)
        let implosion = MomentTensor(rr: -1e20, tt: -1e20, pp: -1e20, rt: 0, rp: 0, tp: 0)
        #expect(implosion.parts.isotropic == -1)
        let clvd = MomentTensor(rr: 2e18, tt: -1e18, pp: -1e18, rt: 0, rp: 0, tp: 0)
        #expect(abs(clvd.parts.clvd - 1) < 1e-12 && abs(clvd.parts.doubleCouple) < 1e-12)
        #expect(Mechanisms.momentMagnitude(1.0e18).map { abs($0 - 5.933333333) < 1e-6 } == true)
    }

    /// A record in GCMT's columns, of a made-up event (ObsPy's real ones are read from its package
    /// by Tests/Interop/test_mechanisms.py).
    static let record = """
        PDEW 2020/01/01 12:00:00.0  10.00  120.00  30.0 5.5 5.7 SYNTHETIC ISLANDS REGION
        C202001011200A   B: 10   20  40 S: 10   20  50 M:  0    0   0 CMT: 1 TRIHD:  2.0
        CENTROID:      4.0 0.1  10.20 0.01  120.30 0.01  35.0  0.5 FREE S-20200201000000
        24  2.000 0.010 -1.000 0.010 -1.000 0.010  0.500 0.010 -0.500 0.010  0.250 0.010
        V10   2.300 80  90   0.000  5 200  -2.300  9 290   2.300 200 36   90  20 54   90

        """

    static func read(_ text: String) throws -> (events: [SeismicEvent], summary: FeedSummary) {
        var events: [SeismicEvent] = []
        let summary = try FeedReader().read(.bytes(Data(text.utf8), name: "test.ndk")) { events.append($0) }
        return (events, summary)
    }

    @Test func anNDKRecordIsReadByItsColumns() throws {
        let (events, _) = try Self.read(Self.record)
        let event = try #require(events.first)
        #expect(event.id == "C202001011200A" && event.magnitudeType == "Mwc" && event.place == "SYNTHETIC ISLANDS REGION")
        #expect(event.latitude == 10.20 && event.longitude == 120.30 && event.depth == 35)
        #expect(event.status == "reviewed" && event.network == "gcmt")
        // 12:00:00.0 and the centroid's 4.0 s.
        #expect(abs(event.time.timeIntervalSince1970 - (1_577_880_000 + 4)) < 1e-3)
        let mechanism = try #require(event.mechanism)
        #expect(mechanism.nodalPlanes == [NodalPlane(strike: 200, dip: 36, rake: 90), NodalPlane(strike: 20, dip: 54, rake: 90)])
        // dyn·cm × 10^24 is N·m × 10^17.
        #expect(abs(mechanism.scalarMoment! - 2.3e17) < 1e5)
        #expect(abs(mechanism.tensor!.rr - 2e17) < 1e5 && abs(mechanism.tensor!.tp - 0.25e17) < 1e5)
        // Mw = ⅔ (log₁₀ 2.3e17 − 9.1) = 5.5078…, to 0.01.
        #expect(event.magnitude == 5.51)
    }

    @Test func mergedFieldsNegativeDepthsAndLeapSecondsAreReadByColumn() throws {
        var lines = Self.record.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // A centroid shift whose error touches it (`-100.010.1`), a depth above sea level,
        // and the 60.0 s some old records carry.
        lines[2] = "CENTROID:   -100.010.1  10.20 0.01  120.30 0.01  -2.0  0.5 FREE S-20200201000000"
        lines[0] = lines[0].replacingOccurrences(of: "12:00:00.0", with: "12:00:60.0")
        let (events, _) = try Self.read(lines.joined(separator: "\n"))
        let event = try #require(events.first)
        #expect(event.depth == -2)
        #expect(abs(event.time.timeIntervalSince1970 - (1_577_880_060 - 100)) < 1e-3)
    }

    @Test func aDamagedRecordIsRefusedWithItsLineAndColumns() throws {
        let damaged = Self.record.replacingOccurrences(of: "120.30", with: "1x0.30")
        let (events, summary) = try Self.read(damaged + Self.record)
        #expect(events.count == 1)
        let rejection = try #require(summary.rejections.first)
        #expect(rejection.line == 3)
        #expect(rejection.message.contains("centroid longitude (columns 35–42)") && rejection.message.contains("1x0.30"))
        // A record cut short is said to be.
        let (_, cut) = try Self.read(Self.record + Self.record.split(separator: "\n").prefix(3).joined(separator: "\n"))
        #expect(cut.rejections.first?.reason.contains("3 of its 5 lines") == true)
    }

    /// A USGS detail document, written here from the documented product properties (strings,
    /// the older `-slip` for a rake), with two moment tensors: the one of higher `preferredWeight` wins.
    static let detail = """
        {"type": "Feature", "id": "us7000abcd",
         "geometry": {"type": "Point", "coordinates": [142.37, 38.30, 29]},
         "properties": {"mag": 9.1, "magType": "mww", "time": 1299822166000, "updated": 1600000000000,
          "place": "near the east coast of Honshu, Japan", "type": "earthquake", "net": "us", "code": "7000abcd",
          "products": {
           "moment-tensor": [
            {"source": "us", "preferredWeight": 40, "properties": {
              "tensor-mrr": "1.0e22", "tensor-mtt": "-1.0e22", "tensor-mpp": "0", "tensor-mrt": "0",
              "tensor-mrp": "0", "tensor-mtp": "0", "scalar-moment": "1.0e22"}},
            {"source": "gcmt", "preferredWeight": 100, "properties": {
              "nodal-plane-1-strike": "203", "nodal-plane-1-dip": "10", "nodal-plane-1-slip": "88",
              "nodal-plane-2-strike": "25", "nodal-plane-2-dip": "80", "nodal-plane-2-slip": "90",
              "tensor-mrr": "1.730e22", "tensor-mtt": "-0.281e22", "tensor-mpp": "-1.450e22",
              "tensor-mrt": "2.120e22", "tensor-mrp": "4.550e22", "tensor-mtp": "-0.657e22",
              "scalar-moment": "5.31e22"}}],
           "focal-mechanism": [
            {"source": "us", "preferredWeight": 200, "properties": {
              "nodal-plane-1-strike": "0", "nodal-plane-1-dip": "45", "nodal-plane-1-rake": "90"}}]}}}
        """

    @Test func aUSGSDetailDocumentGivesItsPreferredMomentTensor() throws {
        let (events, _) = try Self.read(Self.detail)
        let mechanism = try #require(events.first?.mechanism)
        #expect(mechanism.nodalPlanes == [NodalPlane(strike: 203, dip: 10, rake: 88), NodalPlane(strike: 25, dip: 80, rake: 90)])
        #expect(mechanism.tensor?.rp == 4.55e22 && mechanism.scalarMoment == 5.31e22)
        // Only a focal-mechanism product: its planes.
        let planesOnly = Self.detail.replacingOccurrences(of: "\"moment-tensor\"", with: "\"other-product\"")
        let (others, _) = try Self.read(planesOnly)
        #expect(others.first?.mechanism?.nodalPlanes == [NodalPlane(strike: 0, dip: 45, rake: 90)])
        #expect(others.first?.mechanism?.tensor == nil)
    }

    @Test func aBadProductValueIsRefusedWithItsPath() throws {
        let bad = Self.detail.replacingOccurrences(of: "\"4.550e22\"", with: "\"lots\"")
        let (events, summary) = try Self.read(bad)
        #expect(events.isEmpty)
        let message = try #require(summary.rejections.first?.message)
        #expect(message.contains("products.moment-tensor[1].properties.tensor-mrp") && message.contains("'lots' is not a number"),
                "\(message)")
    }

    @Test func aQuakeMLPlaneOutOfRangeIsRefusedWithItsElement() throws {
        let document = """
            <?xml version="1.0" encoding="UTF-8"?>
            <q:quakeml xmlns="http://quakeml.org/xmlns/bed/1.2" xmlns:q="http://quakeml.org/xmlns/quakeml/1.2">
            <eventParameters publicID="smi:x/p">
            <event publicID="smi:x/e?eventid=ev1">
              <origin publicID="smi:x/o"><time><value>2020-01-01T00:00:00Z</value></time>
                <latitude><value>10</value></latitude><longitude><value>20</value></longitude></origin>
              <magnitude publicID="smi:x/m"><mag><value>6</value></mag></magnitude>
              <focalMechanism publicID="smi:x/f"><nodalPlanes><nodalPlane1>
                <strike><value>10</value></strike><dip><value>95</value></dip><rake><value>0</value></rake>
              </nodalPlane1></nodalPlanes></focalMechanism>
            </event></eventParameters></q:quakeml>
            """
        let (events, summary) = try Self.read(document)
        #expect(events.isEmpty)
        let message = try #require(summary.rejections.first?.message)
        #expect(message.contains("focalMechanism/nodalPlanes/nodalPlane1/dip/value") && message.contains("'95' is outside 0…90"),
                "\(message)")
        // The same plane within range: one plane given, its auxiliary follows.
        let (good, _) = try Self.read(document.replacingOccurrences(of: "<value>95</value>", with: "<value>45</value>"))
        let mechanism = try #require(good.first?.mechanism)
        #expect(mechanism.nodalPlanes.count == 1 && mechanism.planes.count == 2)
        #expect(Self.same(mechanism.planes[1], NodalPlane(strike: 10, dip: 45, rake: 0).auxiliary))
    }

    /// Sixty thrusts within a degree of each other on a subduction zone's map, 24 crowds drawn
    /// from seeded generators: the balls are moved clear of each other and of every panel, each
    /// moved one with a leader line back to its event.
    @Test(arguments: 1...24)
    func crowdedBallsAreMovedApartWithLeaderLines(seed: UInt64) {
        var generator = SplitMix64(state: seed)
        let events = (0..<60).map { index in
            MapEvent(id: "e\(index)", time: Date(timeIntervalSince1970: Double(index) * 3600),
                     latitude: 38 + Double.random(in: -0.5...0.5, using: &generator),
                     longitude: 142 + Double.random(in: -0.5...0.5, using: &generator),
                     magnitude: Double.random(in: 5...7, using: &generator), depth: 30,
                     mechanism: FocalMechanism(nodalPlanes: [NodalPlane(strike: 200, dip: 20, rake: 90)]))
        }
        var options = MapOptions(width: 900, region: GeoBox(uncheckedWest: 130, south: 30, east: 150, north: 45))
        options.symbols.beachballs = BeachballStyle(drawing: .doubleCouple, scale: 1.5)
        let scene = SceneBuilder(options: options).scene(for: events)
        #expect(scene.beachballs.count == 60 && scene.circles.isEmpty)
        let panels = scene.overlay.panels.map { panel -> (Double, Double, Double, Double) in
            let points = panel.rings.joined()
            return (points.map(\.x).min()!, points.map(\.y).min()!, points.map(\.x).max()!, points.map(\.y).max()!)
        }
        let balls = scene.beachballs
        var moved = 0, overlaps: [String] = []
        for (index, ball) in balls.enumerated() {
            let r = ball.diameter / 2
            for box in panels {
                let dx = max(box.0 - ball.center.x, 0, ball.center.x - box.2), dy = max(box.1 - ball.center.y, 0, ball.center.y - box.3)
                #expect(dx * dx + dy * dy >= r * r, "ball \(index) over a panel")
            }
            for (otherIndex, other) in balls[..<index].enumerated() {
                let distance = ((other.center.x - ball.center.x) * (other.center.x - ball.center.x)
                    + (other.center.y - ball.center.y) * (other.center.y - ball.center.y)).squareRoot()
                if distance < r + other.diameter / 2 {
                    overlaps.append("\(index) (\(ball.epicentre == nil ? "at its epicentre" : "moved")) on \(otherIndex)")
                }
            }
            if let epicentre = ball.epicentre {
                moved += 1
                let event = events.first { $0.id == ball.eventID }!
                let expected = options.geometry.point(latitude: event.latitude, longitude: event.longitude)
                #expect(abs(epicentre.x - expected.x) < 1e-9 && abs(epicentre.y - expected.y) < 1e-9)
            }
        }
        #expect(overlaps.isEmpty, "seed \(seed): balls overlap: \(overlaps)")
        #expect(moved > 30, "a crowd of sixty needs most of them moved")
        // The largest first, so that the small ones are drawn on top.
        let sizes = balls.map(\.diameter)
        #expect(sizes == sizes.sorted(by: >))
    }
}
