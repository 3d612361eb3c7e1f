import ArgumentParser
import Spool

/// `spool items PATH [FILE]`: each element at PATH as one line of compact JSON (NDJSON).
struct ItemsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "items",
        abstract: "Print each element of the array at PATH as one line of compact JSON.",
        discussion: """
            Like jq -c '.PATH[]', in constant memory: strings are re-escaped, numbers keep their \
            exact text. PATH: keys joined by dots, [N] for an index, [*] for every element, \
            ["a.b"] for a key with dots or brackets, . for the root (objects, data.items, \
            groups[2].members; objects[*].members prints every member of every band, as \
            jq -c '.objects[].members[]'). With --ndjson and PATH ., each top-level value.
            """
    )

    @OptionGroup var target: PathAndFile
    @OptionGroup var parsing: ParsingFlags
    @OptionGroup var progress: ProgressFlags

    func run() throws {
        let writer = JSONOutput.writer(.lines)
        do {
            let (keyPath, stream, bar) = try target.open(options: parsing.options, progress: progress, streamsOutput: true)
            defer { bar.finish() }
            let items = stream.elements(of: Extractor.self, at: keyPath)
            while let item = try items.next() {
                try writer.value(item)
            }
            try stream.finish()  // the rest of the input must be valid too
            try writer.finish()
        } catch {
            throw JSONOutput.finish(writer, after: error, file: target.input.name, command: .items)
        }
    }
}
