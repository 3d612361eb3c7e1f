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
    @OptionGroup var jobs: JobsFlag

    func run() throws {
        let output = StandardOutput()
        do {
            let options = parsing.options
            let (keyPath, stream, bar) = try target.open(options: options, progress: progress, streamsOutput: false)
            defer { bar.finish() }
            var count: Int
            if jobs.decodesInParallel(target.input, at: keyPath, options: options, totalBytes: stream.totalBytes) {
                count = try countInParallel(at: keyPath, in: stream) ?? serialCount(at: keyPath, options: options, bar: bar)
            } else {
                count = try stream.count(at: keyPath)
                try stream.finish()  // the rest of the input must be valid too
            }
            bar.finish()  // (the bar's line is cleared before the result is written on it)
            try output.line("\(count)")
            try output.flush()
        } catch {
            throw output.finish(after: error, file: target.input.name)
        }
    }

    /// The elements of the array at `path`, counted on several threads (each parsed, none
    /// decoded), and the rest of the input checked; nil when `path` holds no array (an object
    /// is counted serially, as anything else there is reported).
    private func countInParallel(at path: JSONKeyPath, in stream: JSONStream) throws -> Int? {
        let elements = stream.elements(of: Undecoded.self, at: path, parallelism: jobs.parallelism)
        do {
            while try elements.next() != nil {}
        } catch let error as DecodeError where error.code == .typeMismatch && error.expected == "array" {
            // (`count` takes an object too, and names an error here "array or object".)
            return nil
        }
        try stream.finish()  // the rest of the input must be valid too
        return elements.count
    }

    /// The elements or members at `path` counted by a stream of their own (the file is read
    /// again), whose progress `bar` shows.
    private func serialCount(at path: JSONKeyPath, options: JSONParsingOptions, bar: ProgressBar) throws -> Int {
        let stream = JSONStream(target.input.input, options: options)
        stream.onProgress = bar.update(bytesRead:)
        let count = try stream.count(at: path)
        try stream.finish()
        return count
    }
}

/// An element that is parsed and not decoded: what `count --jobs` asks its threads for.
private struct Undecoded: JSONDecodable {
    static func decode(_ e: Extractor) throws -> Undecoded { Undecoded() }
}
