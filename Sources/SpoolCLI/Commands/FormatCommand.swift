import ArgumentParser
import Spool

/// `spool fmt [FILE]`: re-formats JSON in constant memory.
struct FormatCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fmt",
        abstract: "Re-format JSON, pretty (--indent N) or --compact, in constant memory.",
        discussion: """
            Like jq . (which loads the whole document), token by token: numbers keep their \
            exact text, strings are re-escaped, keys keep their order. With --ndjson, each \
            top-level value is written on its own line (JSON Lines), compact.

            Indentation stops growing at 64 spaces (32 levels at --indent 2, 4 at --indent \
            16): deeper levels line up with the deepest that fits, so deeply nested input \
            cannot multiply the output by its depth. At any --indent the output stays under \
            about 66 times the input (1 MB of 511-deep arrays: 64 MB). The JSON is the same.

            On invalid input, what was written before the error stays whole lines: the output \
            ends with the last line finished before it (pretty: an element, a member or a \
            bracket; --ndjson: a value; --compact: the document is one line, so nothing). \
            Only a line longer than 1 MiB can have gone out in part; it then ends with a line \
            feed at the last token before the error.
            """
    )

    @Argument(help: "The JSON input; '-' or absent for standard input. A name that begins with '-' goes after --.")
    var file: String?

    @Option(help: "Spaces per level of indentation (0 to 16); it stops growing at 64 spaces.")
    var indent = 2

    @Flag(help: "Write compact JSON, without whitespace.")
    var compact = false

    @OptionGroup var parsing: ParsingFlags
    @OptionGroup var progress: ProgressFlags

    func validate() throws {
        guard (0...16).contains(indent) else { throw ValidationError("--indent must be from 0 to 16") }
    }

    func run() throws {
        let input = InputFile(file)
        let layout: JSONWriter.Format.Layout = parsing.ndjson ? .lines : compact ? .compact : .pretty(indent: indent)
        let writer = JSONOutput.writer(layout)
        do {
            let (reader, bar) = input.reader(options: parsing.options, progress: progress, streamsOutput: true)
            defer { bar.finish() }
            try writer.copy(from: reader)
            try writer.finish()
            if !parsing.ndjson && writer.bytesWritten > 0 {
                let output = StandardOutput()  // the line's end, after the writer's bytes
                try output.line("")
                try output.flush()
            }
        } catch {
            throw JSONOutput.finish(writer, after: error, file: input.name)
        }
    }
}
