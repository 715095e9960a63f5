import ArgumentParser
import QuakeKit
import Foundation

/// `--profile` and `--half-width`: a cross-section's profile; shared by `chart` and `report`.
package struct ProfileOptions: ParsableArguments {
    // Unconditional: a western longitude starts with a minus sign, not an option.
    @Option(parsing: .unconditional,
            help: ArgumentHelp("A depth cross-section from A to B along the great circle, in degrees.",
                               valueName: "LON1,LAT1,LON2,LAT2"))
    package var profile: String?

    @Option(help: ArgumentHelp("With --profile: the section shows events up to this distance from the profile (0…2000).",
                               valueName: "km"))
    package var halfWidth: Double = 50

    package init() {}

    package func validate() throws {
        _ = try crossSection()
    }

    /// The profile asked for, `nil` without `--profile`.
    package func crossSection() throws -> CrossSectionProfile? {
        guard let profile else { return nil }
        let parts = profile.split(separator: ",", omittingEmptySubsequences: false)
            .map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let lon1 = parts[0], let lat1 = parts[1], let lon2 = parts[2], let lat2 = parts[3] else {
            throw ValidationError("--profile '\(profile)' is not LON1,LAT1,LON2,LAT2 (four numbers in degrees)")
        }
        do {
            return try CrossSectionProfile(start: GeoPoint(longitude: lon1, latitude: lat1),
                                           end: GeoPoint(longitude: lon2, latitude: lat2), halfWidth: halfWidth)
        } catch {
            throw ValidationError("--profile: \(error.message)")
        }
    }
}
