import Foundation
import QuakeScene
import QuakeRender

extension TileLayer {
    /// The tile as PNG bytes, or `nil` when no circle touches it. Encoded on
    /// one thread, so the same events always give the same bytes on any machine.
    package func pngData(for tile: TileID) throws -> Data? {
        guard hasCircles(on: tile) else { return nil }
        return try MapRenderer().pngData(for: scene(for: tile), threads: 1)
    }
}
