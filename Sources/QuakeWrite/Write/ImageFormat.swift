import Foundation
import QuakeScene
import QuakeRender

/// The file formats a map is written in.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
    /// Pixels (see `PNGEncoder`): the same decoded pixels as Cairo's PNG writer would give.
    case png
    /// Vector PDF: circles stay circles; one pixel of the scene is one point.
    case pdf
    /// Vector SVG 1.1.
    case svg

    /// The format a file name's extension names (`map.PDF` → `.pdf`), or `nil`.
    public init?(pathExtension path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        self.init(rawValue: path[path.index(after: dot)...].lowercased())
    }
}

extension MapRenderer {
    /// The scene in `format`.
    public func data(for scene: MapScene, format: ImageFormat) throws -> Data {
        switch format {
        case .png: return try pngData(for: scene)
        case .pdf: return try vectorData(for: scene, svg: false)
        case .svg: return try vectorData(for: scene, svg: true)
        }
    }
}
