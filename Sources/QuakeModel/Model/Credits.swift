/// Every credit quakemap draws or writes, worded once: the map's footer, the report, the
/// server's pages and documents all take them from here.
package enum Credits {
    /// Natural Earth's land and coastlines (package domain; credited all the same).
    package static let naturalEarth = "Made with Natural Earth"
    /// NOAA's ETOPO1 relief.
    package static let relief = "Relief: NOAA ETOPO1"
    /// Peter Bird's PB2002 plate boundaries: ODC-By asks for this credit wherever they are shown.
    package static let plates = "Plate boundaries: Bird (2003)"
    /// The Global CMT Project's catalogue, for GCMT NDK input.
    package static let globalCMT = "Global CMT Project"
    /// The USGS, for its CSV and GeoJSON feeds and its FDSN service.
    package static let usgs = "USGS"

    /// The data's credit: `Data: ` and the sources a feed named (``FeedSummary``'s), the first
    /// three and how many more; `nil` when none is known.
    package static func data(_ sources: [String]) -> String? {
        guard !sources.isEmpty else { return nil }
        let shown = sources.prefix(3).joined(separator: ", ")
        return "Data: " + shown + (sources.count > 3 ? " and \(sources.count - 3) more" : "")
    }

    /// The name an FDSN service is credited by: the agencies' own names for the services
    /// known by a short name, else the host of its URL.
    package static func fdsnService(name: String?, baseURL: String) -> String {
        switch name {
        case "usgs": return usgs
        case "emsc": return "EMSC"
        case "geofon": return "GEOFON (GFZ)"
        case "isc": return "ISC"
        case "iris", "earthscope": return "EarthScope"
        case let name?: return name.uppercased()
        case nil:
            let afterScheme = baseURL.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first
            return afterScheme.map(String.init) ?? baseURL
        }
    }
}
