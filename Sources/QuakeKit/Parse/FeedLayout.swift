/// Where each event property sits in a feed's columns, found by header name
/// (case-insensitive, blanks trimmed) so that every USGS layout loads:
///
/// | layout | time | place | id |
/// |---|---|---|---|
/// | today's 22 and the older 15 columns | `time` | `place` | `id` |
/// | pre-2013 `eqs7day` | `Datetime` | `Region` | `Src` + `Eqid` |
/// | `Date,TimeUTC,…` | `Date` + `TimeUTC` | — | — |
struct FeedLayout {
    enum TimeColumns {
        case single(Int)
        case dateAndTime(date: Int, time: Int)
    }

    let header: [String]
    let time: TimeColumns
    let latitude: Int
    let longitude: Int
    let depth: Int?
    let magnitude: Int?
    let magnitudeType: Int?
    let place: Int?
    let eventType: Int?
    let id: Int?
    let network: Int?
    let eventCode: Int?
    let updated: Int?
    let status: Int?

    init(header: [String], source: String) throws {
        self.header = header
        let names = header.map { $0.trimmingBlanks().lowercased() }
        func column(_ candidates: String...) -> Int? {
            for candidate in candidates {
                if let index = names.firstIndex(of: candidate) { return index }
            }
            return nil
        }
        var missing: [String] = []
        if let single = column("time", "datetime", "origintime") {
            time = .single(single)
        } else if let date = column("date"), let clock = column("timeutc", "time utc") {
            time = .dateAndTime(date: date, time: clock)
        } else {
            time = .single(-1)
            missing.append("time")
        }
        let latitude = column("latitude", "lat")
        let longitude = column("longitude", "lon", "long")
        if latitude == nil { missing.append("latitude") }
        if longitude == nil { missing.append("longitude") }
        guard missing.isEmpty, let latitude, let longitude else {
            throw FeedError.missingColumns(source: source, missing: missing, header: header)
        }
        self.latitude = latitude
        self.longitude = longitude
        // A name that appears twice among the columns we read is ambiguous: which one holds the data?
        let used: Set<String> = ["time", "datetime", "origintime", "date", "timeutc", "time utc", "latitude", "lat",
                                 "longitude", "lon", "long", "depth", "mag", "magnitude", "magtype", "place", "region",
                                 "type", "id", "net", "src", "eqid", "updated", "status"]
        for name in used {
            let positions = names.indices.filter { names[$0] == name }
            if positions.count > 1 {
                throw FeedError.duplicateColumn(source: source, name: header[positions[0]].trimmingBlanks(),
                                                columns: positions.map { $0 + 1 })
            }
        }
        depth = column("depth")
        magnitude = column("mag", "magnitude")
        magnitudeType = column("magtype")
        place = column("place", "region")
        eventType = column("type")
        id = column("id")
        network = column("net", "src")
        eventCode = id == nil ? column("eqid") : nil
        updated = column("updated")
        status = column("status")
    }

    /// The header's column name at `index`, as messages show it.
    func name(_ index: Int) -> String { header[index].trimmingBlanks() }
}

extension String {
    /// The text without U+FEFF, the byte order mark, wherever it stands.
    var withoutByteOrderMarks: String {
        String(String.UnicodeScalarView(unicodeScalars.filter { $0 != "\u{FEFF}" }))
    }

    func trimmingBlanks() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
