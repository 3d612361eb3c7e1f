import ArgumentParser
import Spool

/// `spool members PATH [FILE]`: each member of the object at PATH as one JSON Lines record.
struct MembersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "members",
        abstract: "Print each member of the object at PATH as one line: {\"key\":K,\"value\":V}.",
        discussion: """
            Like jq -c '.PATH | to_entries[]', in constant memory: an object too big to hold \
            is read one member at a time. Values are compact JSON with numbers' exact text. \
            PATH as for items; . for a root object.
            """
    )

    @OptionGroup var target: PathAndFile
    @OptionGroup var parsing: ParsingFlags
    @OptionGroup var progress: ProgressFlags

    func run() throws {
        let output = StandardOutput()
        do {
            let (keyPath, stream, bar) = try target.open(options: parsing.options, progress: progress, streamsOutput: true)
            defer { bar.finish() }
            let members = stream.members(of: Extractor.self, at: keyPath)
            while let (key, value) = try members.next() {
                try output.longLine { line, threshold, flush in
                    line.append(contentsOf: #"{"key":"#.utf8)
                    JSONText.appendQuoted(key, to: &line)
                    line.append(contentsOf: #","value":"#.utf8)
                    try value.writeCompactJSON(into: &line, flushingAt: threshold, flush)
                    line.append(UInt8(ascii: "}"))
                }
            }
            try stream.finish()  // the rest of the input must be valid too
            try output.flush()
        } catch {
            throw output.finish(after: error, file: target.input.name, command: .members)
        }
    }
}
