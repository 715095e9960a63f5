import ArgumentParser
import QuakeKit

/// The image format of an output: `--format` if given, else the file's extension; PNG for
/// standard output ('-') or a name without one. Shared by every command that draws.
package enum OutputFormat {
    /// The format for `output`, or a usage error naming the file.
    package static func resolve(output: String, format: ImageFormat?) throws -> ImageFormat {
        if let format { return format }
        let name = output.split(separator: "/").last.map(String.init) ?? output
        if output == "-" || !name.dropFirst().contains(".") { return .png }
        guard let format = ImageFormat(pathExtension: output) else {
            throw ValidationError("cannot tell the format of '\(output)': name it .png, .pdf or .svg, or give --format")
        }
        return format
    }
}
