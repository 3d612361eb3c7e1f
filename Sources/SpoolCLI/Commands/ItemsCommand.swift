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
    @OptionGroup var jobs: JobsFlag

    @Flag(help: ArgumentHelp(
        "Print each element with where it lies: {\"path\":\"objects[3]\",\"offset\":N,\"end\":N,\"line\":N,\"column\":N,\"value\":...}.",
        discussion: "offset is the element's first byte (0-based), end the byte just past it (null for a string), line and column (1-based) where it starts."))
    var offsets = false

    func run() throws {
        let writer = JSONOutput.writer(.lines)
        do {
            let (keyPath, stream, bar) = try target.open(options: parsing.options, progress: progress, streamsOutput: true)
            defer { bar.finish() }
            if offsets {
                let items = stream.elements(of: Located<Extractor>.self, at: keyPath, parallelism: jobs.parallelism)
                while let item = try items.next() {
                    try Self.write(item, to: writer)
                }
            } else {
                let items = stream.elements(of: Extractor.self, at: keyPath, parallelism: jobs.parallelism)
                while let item = try items.next() {
                    try writer.value(item)
                }
            }
            try stream.finish()  // the rest of the input must be valid too
            try writer.finish()
        } catch {
            throw JSONOutput.finish(writer, after: error, file: target.input.name, command: .items)
        }
    }

    /// One line of `--offsets`: the element's place, then the element.
    static func write(_ item: Located<Extractor>, to writer: JSONWriter) throws {
        try writer.beginObject()
        try writer.key("path")
        try writer.string(item.path.description)
        try writer.key("offset")
        try writer.number(item.start.byteOffset)
        try writer.key("end")
        if let end = item.end { try writer.number(end.byteOffset) } else { try writer.null() }
        try writer.key("line")
        try writer.number(item.start.line)
        try writer.key("column")
        try writer.number(item.start.column)
        try writer.key("value")
        try writer.value(item.value)
        try writer.endObject()
    }
}
