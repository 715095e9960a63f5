import Foundation
import Testing

/// `stats --b-method …`, its options' refusals and the `mc-time` / `b-time` charts, through the
/// binary (the numbers themselves are held to SeismoStats's in Tests/Interop/test_seismostats.py).
@Suite("quakemap stats estimators", .timeLimit(.minutes(10)))
struct StatsEstimatorCLITests {
    static let sample = "Data/synthetic_all_day.csv"

    static func estimate(_ arguments: [String]) throws -> [String: Any] {
        let result = try QuakemapProcess.run(["stats", sample, "--format", "json", "--quiet"] + arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        return try #require(object["estimate"] as? [String: Any], "\(object)")
    }

    @Test func everyMethodReportsBItsSigmaAndN() throws {
        for (method, sigma) in [("utsu", "shi-bolt"), ("classic", "shi-bolt"), ("positive", "shi-bolt"),
                                ("more-positive", "bootstrap")] {
            let estimate = try Self.estimate(["--b-method", method, "--mc", "1.0"])
            #expect(estimate["bMethod"] as? String == method && estimate["stdMethod"] as? String == sigma)
            let b = try #require(estimate["b"] as? Double), std = try #require(estimate["std"] as? Double)
            #expect(b > 0.1 && b < 3 && std > 0 && std < b, "\(method): \(estimate)")
            #expect((estimate["n"] as? Int ?? 0) > 10 && estimate["a"] is Double)
        }
        let table = try Self.estimate(["--b-method", "kijko-smit", "--completeness", "2000:1.0"])
        #expect(table["stdMethod"] as? String == "kijko-smit" && table["completenessTable"] as? String == "2000:1")
    }

    @Test func theSeedRepeatsTheBootstrap() throws {
        let first = try Self.estimate(["--bootstrap", "50", "--seed", "3"])
        let second = try Self.estimate(["--bootstrap", "50", "--seed", "3"])
        #expect(first["bootstrapStd"] as? Double == second["bootstrapStd"] as? Double)
        #expect(first["bootstrap"] as? Int == 50 && first["seed"] as? Int == 3)
    }

    @Test func badOptionsAreRefusedWithTheirReason() throws {
        let cases: [([String], String)] = [
            (["--b-method", "weichert"], "--b-method weichert needs --completeness"),
            (["--b-method", "kijko-smit", "--completeness", "1990:4,1970:5"], "years must rise: 1970 follows 1990"),
            (["--b-method", "weichert", "--completeness", "1970:x"], "'x' is not a magnitude"),
            (["--b-method", "weichert", "--completeness", "1970"], "item 1 '1970' is not year:Mc"),
            (["--bootstrap", "1"], "--bootstrap needs at least 2 resamples"),
            (["--b-significance", "1"], "a window holds at least 2 events"),
            (["--dmc=-1"], "--dmc must be 0…5"),
            (["--mc-method", "ks", "--ks-p-value", "2"], "--ks-p-value must be between 0 and 1"),
        ]
        for (arguments, message) in cases {
            let result = try QuakemapProcess.run(["stats", Self.sample] + arguments)
            #expect(result.status == 64 && result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }

    @Test func theTimeChartsAreDrawn() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quakemap-timecharts-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        for kind in ["mc-time", "b-time"] {
            let path = folder.appendingPathComponent("\(kind).png").path
            let result = try QuakemapProcess.run(["chart", kind, Self.sample, "--window", "100", "--step", "50",
                                                  "--mc-resamples", "10", "-o", path])
            #expect(result.status == 0, "\(kind): \(result.stderr)")
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        }
        let refused = try QuakemapProcess.run(["chart", "b-time", Self.sample, "--window", "100", "--step", "200"])
        #expect(refused.status == 64 && refused.stderr.contains("--step must be 1…--window"), "\(refused.stderr)")
    }
}
