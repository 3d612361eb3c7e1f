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
    @OptionGroup var jobs: JobsFlag

    func run() throws {
        let writer = JSONOutput.writer(.lines)
        do {
            let (keyPath, stream, bar) = try target.open(options: parsing.options, progress: progress, streamsOutput: true)
            defer { bar.finish() }
            let members = stream.members(of: Extractor.self, at: keyPath, parallelism: jobs.parallelism)
            while let (key, value) = try members.next() {
                try writer.beginObject()
                try writer.key("key")
                try writer.string(key)
                try writer.key("value")
                try writer.value(value)
                try writer.endObject()
            }
            try stream.finish()  // the rest of the input must be valid too
            try writer.finish()
        } catch {
            throw JSONOutput.finish(writer, after: error, file: target.input.name, command: .members)
        }
    }
}
