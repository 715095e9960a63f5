/// Sorting of 64-bit keys by their high half, in linear time.
package enum RadixSort {
    /// Sorts `keys` by their high 32 bits, stably: keys appended with an
    /// ascending number in the low half come out in (high, low) order. Two
    /// passes of 16-bit digits; for a million keys several times faster than
    /// a comparison sort, which the hand-written loop is here for.
    package static func sortByHighHalf(_ keys: inout [UInt64]) {
        sort(&keys, digitsFrom: 32)
    }

    /// Sorts `values` ascending: four passes of 16-bit digits.
    package static func sortValues(_ values: inout [UInt64]) {
        sort(&values, digitsFrom: 0)
    }

    /// Sorts `keys` by their bits from `lowestBit` up, stably.
    private static func sort(_ keys: inout [UInt64], digitsFrom lowestBit: UInt64) {
        // Below this, the passes' 512 KiB of counts cost more than a comparison
        // sort, which gives the same (high, low) order.
        guard keys.count >= 4096 else { return keys.sort() }
        var scratch = [UInt64](repeating: 0, count: keys.count)
        var starts = [Int](repeating: 0, count: 1 << 16)
        for shift: UInt64 in stride(from: lowestBit, to: 64, by: 16) {
            keys.withUnsafeBufferPointer { keys in
                scratch.withUnsafeMutableBufferPointer { scratch in
                    starts.withUnsafeMutableBufferPointer { starts in
                        func digit(_ key: UInt64) -> Int { Int(truncatingIfNeeded: key >> shift) & 0xFFFF }
                        starts.update(repeating: 0)
                        for key in keys { starts[digit(key)] += 1 }
                        var total = 0
                        for index in starts.indices {
                            let count = starts[index]
                            starts[index] = total
                            total += count
                        }
                        for key in keys {
                            let digit = digit(key)
                            scratch[starts[digit]] = key
                            starts[digit] += 1
                        }
                    }
                }
            }
            swap(&keys, &scratch)
        }
    }

    /// Sorts `indices` (into `keys`) by their keys, ascending and stably:
    /// indices of equal keys keep their order. Four passes of 16-bit
    /// digits (two for 32-bit keys), each skipped when all keys share that digit (times of one
    /// era share their top bits); memory is one more index array and the counts.
    package static func sortIndices(_ indices: inout [UInt32], byKeys keys: [UInt64]) {
        sort(&indices, byKeys: keys)
    }

    /// ``sortIndices(_:byKeys:)-(_,[UInt64])`` for 32-bit keys: two passes.
    package static func sortIndices(_ indices: inout [UInt32], byKeys keys: [UInt32]) {
        sort(&indices, byKeys: keys)
    }

    // Generic, and specialized here for each key type above: called unspecialized from another
    // module, every key would go through its value witnesses (several times slower).
    @inline(__always)
    private static func sort<Key: FixedWidthInteger & UnsignedInteger>(_ indices: inout [UInt32], byKeys keys: [Key]) {
        guard indices.count >= 4096 else {
            // Small: a comparison sort, made stable by the index itself where keys tie.
            return indices.sort { keys[Int($0)] != keys[Int($1)] ? keys[Int($0)] < keys[Int($1)] : $0 < $1 }
        }
        var scratch = [UInt32](repeating: 0, count: indices.count)
        var starts = [Int](repeating: 0, count: 1 << 16)
        for shift in stride(from: 0, to: Key.bitWidth, by: 16) {
            var sorted = false
            keys.withUnsafeBufferPointer { keys in
                indices.withUnsafeBufferPointer { indices in
                    scratch.withUnsafeMutableBufferPointer { scratch in
                        starts.withUnsafeMutableBufferPointer { starts in
                            func digit(_ index: UInt32) -> Int {
                                Int(truncatingIfNeeded: keys[Int(index)] >> shift) & 0xFFFF
                            }
                            starts.update(repeating: 0)
                            for index in indices { starts[digit(index)] += 1 }
                            if starts[digit(indices[0])] == indices.count {
                                sorted = true
                                return
                            }
                            var total = 0
                            for bucket in starts.indices {
                                let count = starts[bucket]
                                starts[bucket] = total
                                total += count
                            }
                            for index in indices {
                                let digit = digit(index)
                                scratch[starts[digit]] = index
                                starts[digit] += 1
                            }
                        }
                    }
                }
            }
            if !sorted { swap(&indices, &scratch) }
        }
    }
}
