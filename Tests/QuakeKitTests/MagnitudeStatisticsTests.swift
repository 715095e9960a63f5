import Foundation
import Testing
import QuakeKit

/// The estimators on cases with known answers: published examples, sums done by hand, and
/// samples drawn from a Gutenberg–Richter law of known b.
@Suite("Magnitude statistics", .timeLimit(.minutes(10)))
struct MagnitudeStatisticsTests {
    /// SeismoStats's documented example for `UtsuBValueEstimator` (Mc 2.0, Δm 0.1): b = 1.1088369750721319.
    static let documented = [2.0, 2.5, 2.1, 2.2, 2.5, 2.2, 2.6, 2.3, 2.7, 2.2, 2.4, 2.0,
                             2.7, 2.2, 2.3, 2.1, 2.4, 2.6, 2.2, 2.2, 2.7, 2.4, 2.2, 2.5]

    /// Magnitudes of a continuous Gutenberg–Richter law above `minimum` with slope `b`,
    /// drawn by the inverse distribution at evenly spaced quantiles (deterministic).
    static func gutenbergRichter(count: Int, b: Double, minimum: Double) -> [Double] {
        (0..<count).map { index in
            let quantile = (Double(index) + 0.5) / Double(count)
            return minimum - log10(1 - quantile) / b
        }
    }

    @Test func binningRoundsHalfUpAsSeismoStatsDoes() throws {
        let tenth = MagnitudeBinning.tenth
        #expect(tenth.binned(1.25) == 1.3)
        #expect(tenth.binned(1.249) == 1.2)
        #expect(tenth.binned(-0.25) == -0.2)
        #expect(tenth.binned(-0.26) == -0.3)
        #expect(tenth.binned(2.0) == 2.0)
        #expect(tenth.magnitude(ofBin: 12) == 1.2, "not 1.2000000000000002")
        #expect(try MagnitudeBinning(width: 0.05).binned(1.274) == 1.25)
        #expect(try MagnitudeBinning(width: 0.05).decimals == 2)
        #expect(try MagnitudeBinning(width: 0.5).decimals == 1)
        #expect(try MagnitudeBinning(width: 1).decimals == 0)
        #expect(throws: StatisticsError.invalidBinWidth(0)) { try MagnitudeBinning(width: 0) }
        #expect(throws: StatisticsError.invalidBinWidth(2)) { try MagnitudeBinning(width: 2) }
        #expect(throws: StatisticsError.self) { try MagnitudeBinning(width: .nan) }
    }

    @Test func distributionCountsEveryBinBetweenTheExtremes() {
        let distribution = FrequencyMagnitudeDistribution(magnitudes: [1.0, 1.04, 1.3, .nan, 1.26, 0.96, -0.1])
        #expect(distribution.bins.map(\.magnitude) == [-0.1, 0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3])
        #expect(distribution.bins.map(\.count) == [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 2])
        #expect(distribution.bins.map(\.cumulativeCount) == [6, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 2, 2, 2])
        #expect(distribution.total == 6)
        #expect(distribution.mostPopulatedBin == 1.0)
        #expect(FrequencyMagnitudeDistribution(magnitudes: []).bins.isEmpty)
        #expect(FrequencyMagnitudeDistribution(magnitudes: []).mostPopulatedBin == nil)
    }

    @Test func utsuEstimateMatchesTheDocumentedExample() throws {
        let fit = try GutenbergRichterFit(magnitudes: Self.documented, method: .fixed(2.0), minimumEvents: 2)
        #expect(abs(fit.b - 1.1088369750721319) < 1e-12)
        #expect(fit.completeness == 2.0)
        #expect(fit.countAboveCompleteness == 24)
    }

    @Test func maximumCurvatureMatchesTheDocumentedExample() throws {
        // SeismoStats's `estimate_mc_maxc` example: the 1.2 bin holds the most, so Mc = 1.2 + 0.2.
        let magnitudes = [2.3, 1.2, 1.5, 1.2, 1.7, 1.1, 1.2, 1.8, 1.6, 1.2, 1.5, 1.2, 1.7, 1.6, 1.1, 1.1, 1.2, 2.0,
                          1.1, 1.2, 1.1, 1.2, 1.6, 1.9, 1.3, 1.7, 1.3, 1.0, 1.2, 1.7, 1.3, 1.3, 1.1, 1.5, 1.4, 1.5]
        let fit = try GutenbergRichterFit(magnitudes: magnitudes, minimumEvents: 2)
        #expect(fit.completeness == 1.4)
        #expect(fit.countAboveCompleteness == magnitudes.filter { $0 >= 1.35 }.count)
        let uncorrected = try GutenbergRichterFit(magnitudes: magnitudes, method: .maximumCurvature(correction: 0), minimumEvents: 2)
        #expect(uncorrected.completeness == 1.2)
    }

    @Test func shiBoltUncertaintyAndTheAValueByHand() throws {
        // Mean 1.1, Mc − Δm/2 = 0.95: b = log₁₀e / 0.15; Σ(M − M̄)² = 0.06 over n(n − 1) = 12.
        let fit = try GutenbergRichterFit(magnitudes: [1.0, 1.0, 1.1, 1.3], method: .fixed(1.0), minimumEvents: 2)
        #expect(abs(fit.b - 2.895296546021679) < 1e-12)
        #expect(abs(fit.bUncertainty - 1.364855880825279) < 1e-12)
        #expect(abs(fit.a - 3.4973565373496416) < 1e-12)
        #expect(abs(fit.expectedCount(atOrAbove: 1.0) - 4) < 1e-9)
    }

    @Test func recoversTheBValueOfAGutenbergRichterSample() throws {
        for b in [0.8, 1.0, 1.3] {
            // Continuous magnitudes from 0.95 up: binned by 0.1, the complete bins start at 1.0.
            let magnitudes = Self.gutenbergRichter(count: 20_000, b: b, minimum: 0.95)
            let fit = try GutenbergRichterFit(magnitudes: magnitudes)
            // Maximum curvature finds the 1.0 bin; the correction puts Mc at 1.2.
            #expect(fit.completeness == 1.2)
            #expect(abs(fit.b - b) < 0.02, "b \(fit.b) for a sample of b \(b)")
            // Shi & Bolt's σ tends to b/√n for an exponential sample.
            let expected = b / Double(fit.countAboveCompleteness).squareRoot()
            #expect(abs(fit.bUncertainty - expected) / expected < 0.05)
        }
    }

    @Test func tooFewEventsIsAnAnswerNotACrash() throws {
        let magnitudes = Self.gutenbergRichter(count: 60, b: 1, minimum: 2.95)
        #expect(throws: StatisticsError.notEnoughEvents(aboveCompleteness: 0, required: 50, completeness: nil)) {
            try GutenbergRichterFit(magnitudes: [Double]())
        }
        do {
            _ = try GutenbergRichterFit(magnitudes: magnitudes)
            Issue.record("60 events, fewer than 50 of them at or above Mc + 0.2, gave a fit")
        } catch let error {
            guard case let .notEnoughEvents(found, required, completeness?) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(found < 50 && required == 50 && completeness == 3.2)
            #expect(error.message.hasPrefix("not enough events for Mc and b: \(found) at or above Mc 3.2, 50 needed"))
        }
        // All in one bin: no spread to estimate b from.
        #expect(throws: StatisticsError.self) {
            try GutenbergRichterFit(magnitudes: Array(repeating: 4.5, count: 80), method: .fixed(4.5))
        }
    }

    @Test func catalogueStatisticsCarryTheFitOrTheReason() throws {
        let events = Self.gutenbergRichter(count: 500, b: 1, minimum: 1.95).enumerated().map { index, magnitude in
            SeismicEvent(id: "e\(index)", time: Date(timeIntervalSince1970: Double(index) * 60), latitude: 0, longitude: 0,
                         depth: 10, magnitude: magnitude)
        }
        let statistics = CatalogStatistics(events)
        let fit = try statistics.gutenbergRichter.get()
        #expect(fit.completeness == 2.2)
        #expect(statistics.text.contains("Mc         2.2 (maximum curvature + 0.2, bins of 0.1)"))
        #expect(statistics.text.contains(String(format: "b          %.2f ± %.2f", fit.b, fit.bUncertainty)))
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(statistics)) as? [String: Any]
        let encoded = try #require(json?["gutenbergRichter"] as? [String: Any])
        #expect(encoded["mc"] as? Double == 2.2)
        #expect(encoded["eventsAboveMc"] as? Int == fit.countAboveCompleteness)
        #expect(abs((encoded["b"] as? Double ?? 0) - fit.b) < 1e-4)

        let few = CatalogStatistics(Array(events.prefix(30)), completeness: .fixed(2.0))
        #expect(few.text.contains("Mc, b      not enough events for Mc and b: 30 at or above Mc 2.0, 50 needed"))
        let fewJSON = try JSONSerialization.jsonObject(with: JSONEncoder().encode(few)) as? [String: Any]
        let reason = try #require(fewJSON?["gutenbergRichter"] as? [String: Any])
        #expect(reason["b"] == nil && reason["eventsAboveMc"] as? Int == 30 && reason["minimumEvents"] as? Int == 50)
        #expect((reason["problem"] as? String)?.contains("50 needed") == true)
    }
}

/// Where points lie relative to a profile: distances along and across known by construction.
@Suite("Cross-section profile", .timeLimit(.minutes(10)))
struct CrossSectionProfileTests {
    /// One degree of a great circle on the mean-radius sphere, in km.
    static let degree = 6371.0 * .pi / 180

    @Test func pointsAlongTheEquator() throws {
        let profile = try CrossSectionProfile(start: GeoPoint(longitude: 0, latitude: 0), end: GeoPoint(longitude: 10, latitude: 0),
                                              halfWidth: 150)
        #expect(abs(profile.length - 10 * Self.degree) < 1e-6)
        let north = try #require(profile.locate(longitude: 5, latitude: 1))
        #expect(abs(north.along - 5 * Self.degree) < 1e-6)
        #expect(abs(north.across + Self.degree) < 1e-6, "north is left of an eastward profile: negative")
        let south = try #require(profile.locate(longitude: 2, latitude: -0.5))
        #expect(abs(south.along - 2 * Self.degree) < 1e-6 && abs(south.across - 0.5 * Self.degree) < 1e-6)
        #expect(profile.locate(longitude: 5, latitude: 1.5) == nil, "167 km away, beyond the half-width")
        #expect(profile.locate(longitude: -0.5, latitude: 0) == nil, "behind A")
        #expect(profile.locate(longitude: 10.5, latitude: 0) == nil, "beyond B")
        #expect(profile.locate(longitude: 0, latitude: 0)?.along == 0)
        #expect(profile.locate(longitude: 10, latitude: 0).map { abs($0.along - profile.length) < 1e-6 } == true)
        #expect(profile.locate(longitude: 185 - 360, latitude: 0) == nil, "the far side of the Earth")
    }

    @Test func aProfileAcrossTheAntimeridian() throws {
        // Fiji to Tonga's east: 175°E to 175°W along the equator is 10°, not 350°.
        let profile = try CrossSectionProfile(start: GeoPoint(longitude: 175, latitude: 0), end: GeoPoint(longitude: -175, latitude: 0),
                                              halfWidth: 100)
        #expect(abs(profile.length - 10 * Self.degree) < 1e-6)
        let onSeam = try #require(profile.locate(longitude: 180, latitude: 0.5))
        #expect(abs(onSeam.along - 5 * Self.degree) < 1e-6 && abs(onSeam.across + 0.5 * Self.degree) < 1e-6)
        let east = try #require(profile.locate(longitude: -176, latitude: -0.2))
        #expect(abs(east.along - 9 * Self.degree) < 1e-6)
        #expect(profile.locate(longitude: 170, latitude: 0) == nil)
        #expect(profile.locate(longitude: -176, latitude: 2) == nil)
        let middle = profile.point(atDistance: profile.length / 2)
        #expect(abs(abs(middle.longitude) - 180) < 1e-9 && abs(middle.latitude) < 1e-9)
        let points = profile.points(spacing: 100)
        #expect(points.count == 13)
        #expect(abs(points[0].longitude - 175) < 1e-9 && abs(points[12].longitude + 175) < 1e-9)
    }

    @Test func anObliqueProfileAgreesWithSphericalTrigonometry() throws {
        // A meridian profile: along is the latitude difference, across the cross-track arc.
        let profile = try CrossSectionProfile(start: GeoPoint(longitude: 140, latitude: 30), end: GeoPoint(longitude: 140, latitude: 45),
                                              halfWidth: 400)
        let point = try #require(profile.locate(longitude: 143, latitude: 38))
        // Cross-track: asin(cos φ · sin Δλ); along: atan(tan φ / cos Δλ) − 30°, both in degrees of arc.
        let phi = 38.0 * .pi / 180, deltaLambda = 3.0 * .pi / 180
        let across = asin(cos(phi) * sin(deltaLambda)) * 180 / .pi
        let along = atan(tan(phi) / cos(deltaLambda)) * 180 / .pi - 30
        #expect(abs(point.across - across * Self.degree) < 1e-6, "east of a northward profile is right: positive")
        #expect(abs(point.along - along * Self.degree) < 1e-6)
    }

    @Test func impossibleProfilesAreRefused() {
        let here = GeoPoint(longitude: 10, latitude: 10)
        #expect(throws: StatisticsError.self) { try CrossSectionProfile(start: here, end: here, halfWidth: 50) }
        #expect(throws: StatisticsError.self) {
            try CrossSectionProfile(start: here, end: GeoPoint(longitude: -170, latitude: -10), halfWidth: 50)
        }
        #expect(throws: StatisticsError.self) {
            try CrossSectionProfile(start: here, end: GeoPoint(longitude: 12, latitude: 95), halfWidth: 50)
        }
        #expect(throws: StatisticsError.self) {
            try CrossSectionProfile(start: here, end: GeoPoint(longitude: 12, latitude: 10), halfWidth: 0)
        }
    }
}

/// The box a set of events occupies, and a profile drawn over a map.
@Suite("Enclosing box and profile overlay", .timeLimit(.minutes(10)))
struct EnclosingBoxTests {
    @Test func theBoxWrapsTheShortWayRoundTheAntimeridian() throws {
        let fiji = [GeoPoint(longitude: 178, latitude: -18), GeoPoint(longitude: -176, latitude: -21),
                    GeoPoint(longitude: 175, latitude: -15)]
        let box = try #require(GeoBox.enclosing(fiji, margin: 0, minimumMargin: 1))
        #expect(box.crossesAntimeridian)
        #expect(box.west == 174 && box.east == -175 && box.south == -22 && box.north == -14)
        let california = [GeoPoint(longitude: -122, latitude: 38), GeoPoint(longitude: -116, latitude: 33)]
        let west = try #require(GeoBox.enclosing(california))
        #expect(!west.crossesAntimeridian && west.west == -123 && west.east == -115, "a tenth of 6° is under the 1° floor")
        let wide = try #require(GeoBox.enclosing(california, minimumMargin: 0.1))
        #expect(abs(wide.west + 122.6) < 1e-9 && abs(wide.east + 115.4) < 1e-9 && abs(wide.north - 38.5) < 1e-9)
        #expect(GeoBox.enclosing([]) == nil)
        let world = stride(from: -170.0, through: 170, by: 20).map { GeoPoint(longitude: $0, latitude: 0) }
        #expect(GeoBox.enclosing(world) == nil, "spread round the world: the world map shows it")
        let one = try #require(GeoBox.enclosing([GeoPoint(longitude: 10, latitude: 89.5)]))
        #expect(one.north == 90 && one.south == 88.5 && one.longitudeSpan == 2)
    }

    @Test func theBandsEdgesAreAHalfWidthFromTheLine() throws {
        let profile = try CrossSectionProfile(start: GeoPoint(longitude: 140, latitude: 35), end: GeoPoint(longitude: 146, latitude: 41),
                                              halfWidth: 80)
        for distance in [0, profile.length / 3, profile.length] {
            for across in [-80.0, 80] {
                let edge = profile.point(atDistance: distance, across: across)
                let located = try #require(profile.locate(longitude: edge.longitude, latitude: edge.latitude))
                #expect(abs(located.along - distance) < 1e-6 && abs(located.across - across) < 1e-6)
            }
        }
    }

    @Test func aMapDrawsTheProfileAndItsLetters() throws {
        var options = MapOptions(width: 600, region: try GeoBox(west: 130, south: 28, east: 150, north: 46))
        let plain = SceneBuilder(options: options).scene(for: [])
        options.profile = try CrossSectionProfile(start: GeoPoint(longitude: 138, latitude: 36), end: GeoPoint(longitude: 146, latitude: 40),
                                                  halfWidth: 100)
        let scene = SceneBuilder(options: options).scene(for: [])
        #expect(scene.overlay.lines.count == plain.overlay.lines.count + 6, "the line and the band's two edges, each over a casing")
        #expect(scene.overlay.panels.count == plain.overlay.panels.count + 2, "a square behind each letter")
        let letters = scene.overlay.texts.filter { $0.text == "A" || $0.text == "B" }
        #expect(letters.map(\.text) == ["A", "B"])
        let projection = options.projection
        let a = projection.project(latitude: 36, longitude: 138), b = projection.project(latitude: 40, longitude: 146)
        #expect(letters[0].position.x < a.x && letters[1].position.x > b.x, "each letter beyond its end")
        // The title, legend and footer keep clear of the line and the letters.
        let profilePoints = scene.overlay.lines.prefix(6).flatMap(\.points) + letters.map(\.position)
        for panel in scene.overlay.panels.dropFirst(2) {
            let xs = panel.rings.flatMap { $0 }.map(\.x), ys = panel.rings.flatMap { $0 }.map(\.y)
            let covered = profilePoints.filter { $0.x >= xs.min()! && $0.x <= xs.max()! && $0.y >= ys.min()! && $0.y <= ys.max()! }
            #expect(covered.isEmpty, "a panel covers \(covered.count) points of the profile")
        }
    }
}
