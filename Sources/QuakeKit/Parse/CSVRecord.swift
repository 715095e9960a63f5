/// One CSV record: the unquoted bytes of its fields laid end to end.
///
/// The reader reuses a single record, so a consumer must copy what it keeps.
struct CSVRecord {
    /// The physical line (1-based) on which the record starts.
    var line = 0
    /// The bytes of all fields, quotes removed and doubled quotes undone.
    var bytes: [UInt8] = []
    /// The end offset in `bytes` of each field.
    var fieldEnds: [Int] = []

    var fieldCount: Int { fieldEnds.count }

    func fieldRange(_ index: Int) -> Range<Int> {
        (index == 0 ? 0 : fieldEnds[index - 1])..<fieldEnds[index]
    }

    /// The field as text; invalid UTF-8 is replaced rather than rejected, since
    /// only free-text columns (place names) can carry it without harm.
    func string(_ index: Int) -> String {
        String(decoding: bytes[fieldRange(index)], as: UTF8.self)
    }

    /// The field without surrounding blanks, or `nil` when nothing is left;
    /// trimmed on the bytes so that only one string is made.
    func trimmedString(_ index: Int) -> String? {
        var range = fieldRange(index)
        while let first = range.first, bytes[first] == ASCII.space || bytes[first] == ASCII.tab {
            range = range.dropFirst()
        }
        while let last = range.last, bytes[last] == ASCII.space || bytes[last] == ASCII.tab {
            range = range.dropLast()
        }
        guard !range.isEmpty else { return nil }
        let text = String(decoding: bytes[range], as: UTF8.self)
        // A byte order mark inside a field (files glued together) is no text;
        // JSON readers drop it too, so keeping it would make formats disagree.
        guard bytes[range].contains(0xEF) else { return text }
        let cleaned = text.withoutByteOrderMarks.trimmingBlanks()
        return cleaned.isEmpty ? nil : cleaned
    }

    mutating func reset(line: Int) {
        self.line = line
        bytes.removeAll(keepingCapacity: true)
        fieldEnds.removeAll(keepingCapacity: true)
    }
}
