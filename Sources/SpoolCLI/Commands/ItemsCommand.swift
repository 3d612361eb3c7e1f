import ArgumentParser
import Spool

/// `spool items PATH [FILE]`: each element at PATH as one line of compact JSON (NDJSON).
struct ItemsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "items",
        abstract: "Print each element of the array at PATH as one line of compact JSON.",
        discussion: """
            Like jq -c '.PATH[]', in constant memory: strings are re-escaped, numbers keep their \
            exact text. PATH: keys joined by dots, [N] for an index, ["a.b"] for a key with \
            dots or brackets, . for the root (objects, data.items, groups[2].members). With \
            --ndjson and PATH ., each top-level value.
            """
    )

    @Argument(help: "Where the array is, e.g. objects or data.items; . for the root.")
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
            let items = stream.elements(of: Extractor.self, at: keyPath)
            var line: [UInt8] = []
            while let item = try items.next() {
                line.removeAll(keepingCapacity: true)
                try item.writeCompactJSON(into: &line)
                line.append(0x0A)
                output.write(line)
            }
            try stream.finish()  // the rest of the input must be valid too
        } catch {
            output.flush()
            throw report(error, file: input.name)
        }
    }
}
