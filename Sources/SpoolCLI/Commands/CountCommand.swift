import ArgumentParser
import Spool

/// `spool count PATH [FILE]`: the number of elements or members at PATH.
struct CountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "count",
        abstract: "Count the elements of the array (or members of the object) at PATH.",
        discussion: "Streams; nothing is decoded. PATH as for items; with --ndjson and PATH ., the top-level values."
    )

    @OptionGroup var target: PathAndFile
    @OptionGroup var parsing: ParsingFlags
    @OptionGroup var progress: ProgressFlags

    func run() throws {
        let output = StandardOutput()
        do {
            let (keyPath, stream, bar) = try target.open(options: parsing.options, progress: progress, streamsOutput: false)
            defer { bar.finish() }
            let count = try stream.count(at: keyPath)
            try stream.finish()  // the rest of the input must be valid too
            bar.finish()  // (the bar's line is cleared before the result is written on it)
            try output.line("\(count)")
            try output.flush()
        } catch {
            throw output.finish(after: error, file: target.input.name)
        }
    }
}
