import ArgumentParser
import Spool

/// `spool fmt [FILE]`: re-formats JSON in constant memory.
struct FormatCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fmt",
        abstract: "Re-format JSON, pretty (--indent N), --compact or --jq-style, in constant memory.",
        discussion: """
            Token by token, where jq . loads the whole document: numbers keep their exact \
            text, strings are re-escaped, keys keep their order. The pretty layout is \
            JSONEncoder's ("key" : value); --jq-style writes jq's, byte for byte what jq . \
            writes ("key": value, [] and {} on one line, a line feed after each value, \
            U+007F as \\u007f), but for numbers, which jq 1.6 rewrites as doubles (1.0 as \
            1, 123456789012345678 as 123456789012345680) and spool keeps as written. \
            With --ndjson, each top-level value is written on its own line (JSON Lines), \
            compact; with --jq-style too, each value in jq's layout, as jq . writes them.

            --sort-keys writes the members of every object in the order of their keys' \
            Unicode code points (their UTF-8 bytes), as jq -S does, in any layout. Members \
            with the same key are all kept, in input order (jq keeps one, with the last \
            value). An object is held in memory until it ends, so memory is then bounded by \
            the largest object (for a top-level object, the whole document), not constant.

            Indentation stops growing at 64 spaces (32 levels at --indent 2, 4 at --indent \
            16), with --jq-style too (jq goes on indenting): deeper levels line up with the \
            deepest that fits, so deeply nested input cannot multiply the output by its \
            depth. At any --indent the output stays under \
            about 66 times the input (1 MB of 511-deep arrays: 64 MB). The JSON is the same.

            On invalid input, what was written before the error stays whole lines: the output \
            ends with the last line finished before it (pretty: an element, a member or a \
            bracket; --ndjson: a value; --compact: the document is one line, so nothing). \
            Only a line longer than 1 MiB can have gone out in part; it then ends with a line \
            feed at the last token before the error. With --sort-keys, the members of an \
            object still open at the error are not written (they are not in order yet).
            """
    )

    @Argument(help: "The JSON input; '-' or absent for standard input. A name that begins with '-' goes after --.")
    var file: String?

    @Option(help: "Spaces per level of indentation (0 to 16); it stops growing at 64 spaces.")
    var indent = 2

    @Flag(help: "Write compact JSON, without whitespace.")
    var compact = false

    @Flag(help: "Lay the output out as jq . does (\"key\": value, [] and {}); numbers keep their text.")
    var jqStyle = false

    @Flag(help: "Sort every object's members by key (code points, as jq -S); holds each object until it ends.")
    var sortKeys = false

    @OptionGroup var parsing: ParsingFlags
    @OptionGroup var progress: ProgressFlags

    func validate() throws {
        guard (0...16).contains(indent) else { throw ValidationError("--indent must be from 0 to 16") }
    }

    func run() throws {
        let input = InputFile(file)
        let layout: JSONWriter.Format.Layout =
            jqStyle ? .jq(indent: compact ? 0 : indent) : parsing.ndjson ? .lines : compact ? .compact : .pretty(indent: indent)
        let writer = JSONOutput.writer(layout, sortsKeys: sortKeys)
        do {
            let (reader, bar) = input.reader(options: parsing.options, progress: progress, streamsOutput: true)
            defer { bar.finish() }
            try writer.copy(from: reader)
            try writer.finish()
            if !parsing.ndjson && !jqStyle && writer.bytesWritten > 0 {  // (these end each value with one)
                let output = StandardOutput()  // the line's end, after the writer's bytes
                try output.line("")
                try output.flush()
            }
        } catch {
            throw JSONOutput.finish(writer, after: error, file: input.name)
        }
    }
}
