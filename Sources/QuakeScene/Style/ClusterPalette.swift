import QuakeModel

/// Colours of clusters on a map (`render --decluster-show clusters`): a categorical palette
/// (ColorBrewer's Dark2 and Set1, 12 hues that differ from one another on land and sea), one
/// colour a cluster by its number; a background event, alone in its cluster, keeps the usual style.
package enum ClusterPalette {
    package static let colours: [UInt32] = [0x1B9E77, 0xD95F02, 0x7570B3, 0xE7298A, 0x66A61E, 0xE6AB02,
                                            0xA6761D, 0xE41A1C, 0x377EB8, 0x984EA3, 0xFF7F00, 0x00CED1]

    /// The fill of cluster `number`.
    package static func fill(cluster number: Int) -> RGBA {
        RGBA(hex: colours[((number % colours.count) + colours.count) % colours.count], alpha: SymbolColoring.opacity)
    }

    /// The fills of the events (by id) of clusters with more than one event among `ids`;
    /// `clusters[i]` is the cluster of `ids[i]`. Events without an id cannot be told apart and keep the usual style.
    package static func fills(ids: [String], clusters: [Int]) -> [String: RGBA] {
        var sizes: [Int: Int] = [:]
        for cluster in clusters { sizes[cluster, default: 0] += 1 }
        var fills: [String: RGBA] = [:]
        for (id, cluster) in zip(ids, clusters) where !id.isEmpty && sizes[cluster, default: 0] > 1 {
            fills[id] = fill(cluster: cluster)
        }
        return fills
    }
}
