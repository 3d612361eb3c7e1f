import ArgumentParser
import Spool

/// JSON written to standard output through Spool's ``JSONWriter``: `/` is not escaped (as
/// jq writes it). A closed pipe ends the program quietly (see ``StandardOutput``); any other
/// write failure is reported with its errno and exit status 74.
///
/// What was written before an error stays whole lines: the writer holds the line it is
/// writing back until the line ends (up to `wholeLineLimit` bytes), and ``finish(_:after:file:command:)``
/// drops that unfinished line. This is the one place that decides it for `items`, `members`
/// and `fmt` (whose lines are elements, members, or in `--compact` the whole document).
enum JSONOutput {
    /// Lines up to this long are never cut by an error; a longer one (a `--compact` document
    /// or `--ndjson` value past 1 MiB, a huge string) may go out as it is written, and if the
    /// input breaks inside it, what went out of it is ended with a line feed.
    static let wholeLineLimit = 1 << 20

    /// Pretty output's widest indentation: past it, levels line up with the deepest that fits,
    /// so deeply nested input cannot multiply the output by its depth.
    static let maxIndentation = 64

    static func writer(_ layout: JSONWriter.Format.Layout, sortsKeys: Bool = false) -> JSONWriter {
        let format = JSONWriter.Format(layout, escapesSlashes: false, maxIndentation: maxIndentation, sortsKeys: sortsKeys)
        let writer = JSONWriter.standardOutput(format: format)
        writer.wholeLineLimit = wholeLineLimit
        return writer
    }

    /// After `error` ended a command: writes out the whole lines written before it (dropping
    /// the unfinished one), then reports the error, and a failure to write after it. Returns
    /// the exit code for `error`.
    static func finish(_ writer: JSONWriter, after error: any Error, file: String, command: Command = .other) -> ExitCode {
        if error is WriteError { return report(error, file: file, command: command) }  // the writer's own failure
        do {
            try writer.finishAtLineBoundary()
        } catch let writeError {
            let code = report(error, file: file, command: command)
            _ = report(writeError, file: file)
            return code
        }
        return report(error, file: file, command: command)
    }
}
