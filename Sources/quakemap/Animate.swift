import ArgumentParser
import Foundation
import Logging
import QuakeCommand
import QuakeKit

extension Quakemap {
    struct Animate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Animate the selected events over time as an animated PNG, an MP4 or WebM video, or numbered PNG frames.",
            discussion: """
                Time runs linearly from the first selected event to the last. Each event appears at its \
                time with its map symbol and fades to a faint remnant that stays, so the last frame shows \
                the whole sequence; a clock shows each frame's UTC time. Like render, animate keeps the \
                300 most recent events unless --limit says otherwise (--limit 0: all). Map labels are not drawn.

                Examples:
                  quakemap animate all_month.csv --limit 0 -o Output/month.png
                  quakemap animate all_week.csv --duration 20s --fps 15 --fade 12h -o week.png
                  quakemap animate all_week.csv --fps 25 -o week.mp4     (needs ffmpeg; .webm: VP9)
                  quakemap animate all_month.csv --limit 0 --frames Output/frames
                  quakemap animate all_month.csv --at 2020-06-15T12:00Z -o still.png
                """
        )

        @OptionGroup var inputOptions: InputOptions
        @OptionGroup var fetchArguments: FetchArguments
        @OptionGroup var selectionOptions: SelectionOptions
        @OptionGroup(title: "Filters") var filterOptions: FilterOptions
        @OptionGroup(title: "Circles") var symbolOptions: SymbolOptions
        @OptionGroup(title: "Map") var mapArguments: MapArguments

        @Option(name: .shortAndLong, help: ArgumentHelp(
            "Where to write the animation: NAME.png an animated PNG, NAME.mp4 (H.264) or NAME.webm (VP9) a video by ffmpeg (with --at: the still PNG). Folders are created as needed. Default Output/animation.png.",
            valueName: "path"))
        var output: String?

        @Option(help: ArgumentHelp("Write each frame as a PNG (frame-00001.png …) into this folder instead, for ffmpeg.",
                                   valueName: "folder"))
        var frames: String?

        @Option(help: ArgumentHelp("Playback from the first event to the last, in seconds (10 or 10s; 1m).", valueName: "seconds"))
        var duration = "10"

        @Option(help: ArgumentHelp("Frames a second (1…60).", valueName: "n"))
        var fps = 10

        @Option(help: ArgumentHelp(
            "Catalogue time an event takes to fade to its remnant: 90m, 12h, 3d, 1w, or seconds (default: a tenth of the selection's span).",
            valueName: "time"))
        var fade: String?

        @Option(help: ArgumentHelp("Share of its opacity a faded event keeps (0…1).", valueName: "share"))
        var remnant = 0.25

        @Option(help: ArgumentHelp("Seconds the last frame stays on screen before the animation loops.", valueName: "seconds"))
        var hold = 2.0

        @Flag(help: "Draw no clock.")
        var noClock = false

        @Option(help: ArgumentHelp(
            "Write the still PNG of one moment instead: an ISO 8601 time (2020-06-15T12:00Z), 'first' or 'last' (the first and last frames).",
            valueName: "time"))
        var at: String?

        func validate() throws {
            if frames != nil && (output != nil || at != nil) {
                throw ValidationError("--frames writes a folder of frames: it cannot be used with --output or --at")
            }
            if output == "-" { throw ValidationError("animate writes a file: '-' (standard output) is not supported") }
            if try format().isVideo && at != nil {
                throw ValidationError("--at writes a still PNG: name it NAME.png, not \(output ?? "")")
            }
            _ = try moment()
            do {
                try animationOptions(map: MapOptions(width: mapArguments.width, height: mapArguments.height,
                                                     region: try mapArguments.regionBox(), centerLongitude: mapArguments.centerLon,
                                                     mapProjection: mapArguments.projection,
                                                     graticuleSpacing: mapArguments.graticule, scale: mapArguments.scale)).validate()
            } catch let error as AnimationOptionsError {
                if case .map(let mapError) = error {
                    throw MapArguments.validationError(mapError, projection: mapArguments.projection)
                }
                throw ValidationError(Self.optionName(error) + error.message)
            }
        }

        /// What `-o` names by its extension: an APNG unless `.mp4` or `.webm`.
        private func format() throws -> AnimationFormat {
            do {
                return try AnimationFormat(outputPath: output ?? "")
            } catch {
                throw ValidationError("-o: " + error.message)
            }
        }

        /// The option an animation option error is about, for its message.
        private static func optionName(_ error: AnimationOptionsError) -> String {
            switch error {
            case .map: return ""
            case .durationOutOfRange, .tooManyFrames: return "--duration/--fps: "
            case .fpsOutOfRange: return "--fps: "
            case .frameTooLarge: return "--width/--height/--scale: "
            case .fadeOutOfRange: return "--fade: "
            case .remnantOutOfRange: return "--remnant: "
            case .holdOutOfRange: return "--hold: "
            }
        }

        private func animationOptions(map: MapOptions) throws -> AnimationOptions {
            AnimationOptions(map: map, duration: try seconds(duration, option: "--duration"), fps: fps,
                             fade: try fade.map { try seconds($0, option: "--fade") }, remnant: remnant, hold: hold,
                             showsClock: !noClock)
        }

        /// `10`, `10s`, `90m`, `12h`, `3d`, `1w` in seconds.
        private func seconds(_ text: String, option: String) throws -> Double {
            if let value = Double(text.trimmingCharacters(in: .whitespaces)) ?? TimeBound.age(text), value.isFinite {
                return value
            }
            throw ValidationError("\(option): '\(text)' is not a duration: use seconds (10, 10s) or 90m, 12h, 3d, 1w")
        }

        /// What `--at` names.
        private enum Moment {
            case first, last, time(Date)
        }

        private func moment() throws -> Moment? {
            guard let at else { return nil }
            switch at.lowercased() {
            case "first": return .first
            case "last": return .last
            default:
                guard TimeBound.age(at) == nil, let date = try? TimeBound.parse(at, now: Date()) else {
                    throw ValidationError("--at: '\(at)' is not a time: use 2020-06-15T12:00Z, 2020-06-15, 'first' or 'last'")
                }
                return .time(date)
            }
        }

        func run() async throws {
            let start = ContinuousClock.now
            let log = Reporting.logger(inputOptions)
            try await reportingErrors(log) {
                // Before the feed is read: a missing ffmpeg fails at once.
                let format = frames == nil && at == nil ? try format() : .apng
                let ffmpeg = format.isVideo ? try FFmpegEncoder.locate() : nil
                let box = try mapArguments.regionBox()
                let options = try animationOptions(map: try mapArguments.options(symbols: symbolOptions))
                var selection = try selectionOptions.selection(filteredBy: filterOptions)
                selection.region = box
                selection.readsDetails = options.map.symbols.coloring.readsDetails
                let loader = FeedLoader(input: inputOptions, fetch: fetchArguments, selection: selection, log: log,
                                        now: try filterOptions.pinnedNow(), filters: filterOptions)
                var loaded: LoadedFeed<MapEvent>
                switch try await loader.load(ifChangedOutput: nil, as: MapEvent.self) {
                case .unchanged: return
                case .loaded(let feed): loaded = feed
                }
                let animation = QuakeMap.animation(for: loaded.selection, options: options)
                let drawn = loaded.selection.events.count
                loaded.selection.events = []
                let size = "\(options.map.pixelWidth)×\(options.map.pixelHeight)"
                let done: String
                let destination: String
                if let moment = try moment() {
                    destination = output ?? "Output/animation.png"
                    let time: Date? = switch moment {
                    case .first: animation.start
                    case .last: animation.end
                    case .time(let date): date
                    }
                    try AtomicFileWriter.write(try MapRenderer().pngData(for: animation.scene(at: time)), to: destination)
                    done = "drew \(drawn) at \(time.map(CivilTime.iso8601) ?? "no time") → \(destination) (\(size))"
                } else if let frames {
                    destination = frames
                    try animation.writeFrames(toFolder: frames)
                    done = "animated \(drawn) in \(animation.frameCount) frames → \(frames)/ (\(size))"
                } else {
                    destination = output ?? "Output/animation.png"
                    try animation.write(to: destination, format: format, ffmpeg: ffmpeg)
                    done = "animated \(drawn) in \(animation.frameCount) frames → \(destination) (\(size))"
                }
                Reporting.finish(loaded, loader: loader, outcome: "animated", done: done, selected: drawn, start: start, log: log,
                                 extra: ["output": .string(destination), "frames": .stringConvertible(animation.frameCount),
                                         "width": .stringConvertible(options.map.pixelWidth),
                                         "height": .stringConvertible(options.map.pixelHeight)])
            }
        }
    }
}
