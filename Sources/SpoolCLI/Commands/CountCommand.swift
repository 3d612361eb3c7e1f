import ArgumentParser
import Spool

/// `spool count PATH [FILE]`: the number of elements or members at PATH.
struct CountCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "count",
        abstract: "Count the elements of the array (or members of the object) at PATH.",
        discussion: "Streams; nothing is decoded. PATH as for items; with --ndjson and PATH ., the top-level values."
    )

    @Argument(help: "Where the array or object is, e.g. objects; . for the root.")
    var path: String

    @Argument(help: "The JSON input; '-' or absent for standard input.")
    var file: String?

    @OptionGroup var parsing: ParsingFlags
    @OptionGroup var progress: ProgressFlags

    func run() throws {
        let input = InputFile(file)
        let output = StandardOutput()
        do {
            let keyPath = try JSONKeyPath(parsing: path)
            let stream = try input.stream(options: parsing.options)
            let bar = ProgressBar(enabled: !progress.noProgress, total: stream.totalBytes)
            stream.onProgress = bar.update(bytesRead:)
            defer { bar.finish() }
            let count = try stream.count(at: keyPath)
            try stream.finish()  // the rest of the input must be valid too
            output.line("\(count)")
        } catch {
            throw report(error, file: input.name)
        }
    }
}
