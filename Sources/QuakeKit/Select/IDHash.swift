/// A cheap hash of event ids for the selection's own tables.
enum IDHash {
    /// FNV-1a: ids are short ASCII, and an unseeded hash is fine for tables
    /// whose worst case is a slow run, not a wrong one.
    static func fnv1a(_ id: String) -> UInt32 {
        // Through the contiguous bytes when there are some (always, for ids
        // read from a feed): stepping the UTF-8 view costs several times more.
        if let hash = id.utf8.withContiguousStorageIfAvailable(fnv1a) { return hash }
        return fnv1a(id.utf8)
    }

    static func fnv1a<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return hash
    }
}
