import Foundation
import Testing
import QuakeKit

/// `render --projection`: the globe's shape, and what it refuses.
@Suite("quakemap render --projection", .timeLimit(.minutes(10)))
struct ProjectionCLITests {
    let sample = "Data/synthetic_all_day.csv"

    @Test func theHeightFollowsTheGlobe() throws {
        for (name, height) in [("equal-earth", 487), ("robinson", 507), ("plate-carree", 500)] {
            let result = try QuakemapProcess.run(["render", sample, "-o", "-", "--width", "1000", "--projection", name,
                                                  "--center-lon", "150", "--graticule", "30"])
            #expect(result.status == 0, "\(result.stderr)")
            let image = try RasterImage(png: result.stdout)
            #expect(image.width == 1000 && image.height == height, "\(name)")
        }
    }

    @Test func aRegionOrAnUnknownNameIsAUsageError() throws {
        let region = try QuakemapProcess.run(["render", sample, "-o", "-", "--projection", "robinson", "--region", "120,-60,-60,60"])
        #expect(region.status == 64)
        #expect(region.stderr.contains("--projection, --region: the robinson projection draws the whole world"))
        let unknown = try QuakemapProcess.run(["render", sample, "-o", "-", "--projection", "mercator"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("mercator"))
    }
}
