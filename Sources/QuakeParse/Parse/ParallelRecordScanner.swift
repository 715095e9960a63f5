import QuakeModel

/// Finds a window's records on all cores at once, with any ``RecordScanner``.
///
/// Where a record starts cannot be known without reading from the start: a
/// line break may sit inside a quoted field. So this guesses. The window is
/// cut just after line breaks into one part per core, every part is scanned
/// as if it began a record, and the guess is checked afterwards: each part
/// must end exactly where the next begins, with nothing left over. Then every
/// part began at a real record boundary, by induction from the first, and
/// the parts' records are the window's. A wrong guess (a cut inside a quoted
/// field) or any error sends the whole window through one scanner again, so
/// results, errors and line numbers are always those of a plain scan.
package final class ParallelRecordScanner<Scanner: RecordScanner> {
    /// Smaller windows are not worth cutting.
    package static var defaultMinimumBytes: Int { 1 << 19 }

    private let minimumBytes: Int
    private let primary: Scanner
    private let parts: [Scanner]
    private let batches: UnsafeMutableBufferPointer<CSVBatch>
    /// Windows cut into parts whose guess failed, scanned again whole.
    package private(set) var rescans = 0

    /// - Parameter primary: the scanner that has read the stream so far (its
    ///   line number goes on from where the parts end).
    package init(primary: Scanner, parts count: Int = ParallelParts.cores, minimumBytes: Int = defaultMinimumBytes) {
        self.primary = primary
        self.minimumBytes = minimumBytes
        parts = (0..<max(count, 1)).map { _ in
            Scanner(sourceName: primary.sourceName, maximumRecordBytes: primary.maximumRecordBytes)
        }
        batches = .allocate(capacity: max(count, 1))
        // One batch each: a batch copied would share its field list.
        for part in 0..<batches.count { (batches.baseAddress! + part).initialize(to: CSVBatch()) }
    }

    deinit {
        _ = batches.deinitialize()
        batches.deallocate()
    }

    /// Scans `window`, which starts at a record boundary, and hands its
    /// records to `handle` batch by batch, in order.
    ///
    /// - Returns: how many bytes were used up, as ``RecordScanner/scan(_:isLast:limit:into:)``.
    package func scan(_ window: UnsafeRawBufferPointer, isLast: Bool, _ handle: (CSVBatch) throws -> Void) throws -> Int {
        let cuts = cutPoints(window)
        let count = cuts.count - 1
        if count > 1, let used = scanInParts(window, cuts: cuts, isLast: isLast) {
            for part in 0..<count { try handle(batches[part]) }
            return used
        }
        if count > 1 { rescans += 1 }
        let used = try primary.scan(window, isLast: isLast, into: &batches[0])
        try handle(batches[0])
        return used
    }

    /// 0, the byte after a line feed near each 1/n of the window, and its end.
    private func cutPoints(_ window: UnsafeRawBufferPointer) -> [Int] {
        var cuts = [0]
        guard parts.count > 1, window.count >= minimumBytes else { return [0, window.count] }
        for part in 1..<parts.count {
            var cut = max(window.count * part / parts.count, cuts[cuts.count - 1])
            while cut < window.count && window[cut] != ASCII.lf { cut += 1 }
            guard cut + 1 < window.count else { break }
            cuts.append(cut + 1)
        }
        cuts.append(window.count)
        return cuts
    }

    /// The bytes used, or `nil` when the guess was wrong or a part failed.
    private func scanInParts(_ window: UnsafeRawBufferPointer, cuts: [Int], isLast: Bool) -> Int? {
        let count = cuts.count - 1
        let batches = self.batches
        let outcomes: [(used: Int, lines: Int)?] = ParallelParts.map(parts: count) { part in
            // Each part owns its scanner and its batch.
            let scanner = parts[part]
            scanner.restart(line: 1)
            let slice = UnsafeRawBufferPointer(rebasing: window[cuts[part]..<cuts[part + 1]])
            guard let used = try? scanner.scan(slice, isLast: isLast && part == count - 1, into: &batches[part]) else {
                return nil
            }
            return (used, scanner.line - 1)
        }
        var line = primary.line
        for part in 0..<count {
            guard let outcome = outcomes[part] else { return nil }
            if part < count - 1 && outcome.used != cuts[part + 1] - cuts[part] { return nil }
            batches[part].shiftLines(by: line - 1)
            line += outcome.lines
        }
        primary.restart(line: line)
        return cuts[count - 1] + outcomes[count - 1]!.used
    }
}
