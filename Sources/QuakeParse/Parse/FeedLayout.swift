import QuakeModel

/// Where each event property sits in a feed's columns, found by header name
/// (case-insensitive, blanks trimmed) so that every USGS layout loads:
///
/// | layout | time | place | id |
/// |---|---|---|---|
/// | today's 22 and the older 15 columns | `time` | `place` | `id` |
/// | pre-2013 `eqs7day` | `Datetime` | `Region` | `Src` + `Eqid` |
/// | `Date,TimeUTC,…` | `Date` + `TimeUTC` | — | — |
package struct FeedLayout {
    package enum TimeColumns {
        case single(Int)
        case dateAndTime(date: Int, time: Int)
    }

    /// Which family of column names the header uses.
    package enum Dialect {
        /// The USGS comma-separated feeds of every era (see the table above).
        case csv
        /// The FDSN event text format: `EventID`, `Time`, `Latitude`,
        /// `Longitude`, `Depth/km`, `MagType`, `Magnitude`,
        /// `EventLocationName`, `EventType`; the network from `Contributor`;
        /// `Author`, `Catalog`, `ContributorID` and `MagAuthor` as their fields
        /// (``EventField/Spec/fdsnTextColumn``). Any other column is not read.
        case fdsnText
    }

    package let header: [String]
    package let time: TimeColumns
    package let latitude: Int
    package let longitude: Int
    package let depth: Int?
    package let magnitude: Int?
    package let magnitudeType: Int?
    package let place: Int?
    package let eventType: Int?
    package let id: Int?
    package let network: Int?
    package let eventCode: Int?
    package let updated: Int?
    package let status: Int?
    /// The columns of ``EventField/detailFields`` the header has, in schema order.
    package let details: [(field: EventField, column: Int)]

    package init(header: [String], source: String, dialect: Dialect = .csv) throws {
        try self.init(header: header, source: source, names: Names.of(dialect))
    }

    /// The lower-case names each property may have, first match wins.
    private struct Names {
        package var time: [String]
        package var date: [String]
        package var clock: [String]
        package var latitude: [String]
        package var longitude: [String]
        package var depth: [String]
        package var magnitude: [String]
        package var magnitudeType: [String]
        package var place: [String]
        package var eventType: [String]
        package var id: [String]
        package var network: [String]
        package var eventCode: [String]
        package var updated: [String]
        package var status: [String]
        /// How a missing time, latitude or longitude is named in messages.
        package var required: (time: String, latitude: String, longitude: String)
        /// The lower-case column name of each detail field the dialect has.
        package var details: [(field: EventField, name: String)]

        package static func of(_ dialect: Dialect) -> Names {
            switch dialect {
            case .csv:
                return Names(time: ["time", "datetime", "origintime"], date: ["date"], clock: ["timeutc", "time utc"],
                             latitude: ["latitude", "lat"], longitude: ["longitude", "lon", "long"],
                             depth: ["depth"], magnitude: ["mag", "magnitude"], magnitudeType: ["magtype"],
                             place: ["place", "region"], eventType: ["type"], id: ["id"], network: ["net", "src"],
                             eventCode: ["eqid"], updated: ["updated"], status: ["status"],
                             required: ("time", "latitude", "longitude"),
                             // USGS's column, else the canonical name: `list --columns all` reads back.
                             details: EventField.detailFields.map { field in
                                 (field, (field.spec.csvColumn ?? field.spec.name).lowercased())
                             })
            case .fdsnText:
                return Names(time: ["time"], date: [], clock: [], latitude: ["latitude"], longitude: ["longitude"],
                             depth: ["depth/km"], magnitude: ["magnitude"], magnitudeType: ["magtype"],
                             place: ["eventlocationname"], eventType: ["eventtype"], id: ["eventid"],
                             network: ["contributor"], eventCode: [], updated: [], status: [],
                             required: ("Time", "Latitude", "Longitude"),
                             details: EventField.detailFields.compactMap { field in
                                 field.spec.fdsnTextColumn.map { (field, $0.lowercased()) }
                             })
            }
        }

        /// Every name of a column that is read: one of them twice in a header is ambiguous.
        package var all: Set<String> {
            Set([time, date, clock, latitude, longitude, depth, magnitude, magnitudeType, place, eventType, id,
                 network, eventCode, updated, status, details.map(\.name)].joined())
        }
    }

    private init(header: [String], source: String, names: Names) throws {
        self.header = header
        let lowered = header.map { $0.trimmingBlanks().lowercased() }
        func column(_ candidates: [String]) -> Int? {
            for candidate in candidates {
                if let index = lowered.firstIndex(of: candidate) { return index }
            }
            return nil
        }
        var missing: [String] = []
        if let single = column(names.time) {
            time = .single(single)
        } else if let date = column(names.date), let clock = column(names.clock) {
            time = .dateAndTime(date: date, time: clock)
        } else {
            time = .single(-1)
            missing.append(names.required.time)
        }
        let latitude = column(names.latitude)
        let longitude = column(names.longitude)
        if latitude == nil { missing.append(names.required.latitude) }
        if longitude == nil { missing.append(names.required.longitude) }
        guard missing.isEmpty, let latitude, let longitude else {
            throw FeedError.missingColumns(source: source, missing: missing, header: header)
        }
        self.latitude = latitude
        self.longitude = longitude
        // A name that appears twice among the columns we read is ambiguous: which one holds the data?
        for name in names.all {
            let positions = lowered.indices.filter { lowered[$0] == name }
            if positions.count > 1 {
                throw FeedError.duplicateColumn(source: source, name: header[positions[0]].trimmingBlanks(),
                                                columns: positions.map { $0 + 1 })
            }
        }
        depth = column(names.depth)
        magnitude = column(names.magnitude)
        magnitudeType = column(names.magnitudeType)
        place = column(names.place)
        eventType = column(names.eventType)
        id = column(names.id)
        network = column(names.network)
        eventCode = id == nil ? column(names.eventCode) : nil
        updated = column(names.updated)
        status = column(names.status)
        details = names.details.compactMap { field, name in column([name]).map { (field, $0) } }
    }

    /// The header's column name at `index`, as messages show it.
    package func name(_ index: Int) -> String { header[index].trimmingBlanks() }
}

extension String {
    /// The text without U+FEFF, the byte order mark, wherever it stands.
    package var withoutByteOrderMarks: String {
        String(String.UnicodeScalarView(unicodeScalars.filter { $0 != "\u{FEFF}" }))
    }

    package func trimmingBlanks() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
