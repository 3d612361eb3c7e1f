import ArgumentParser
import Spool

/// JSON written to standard output through Spool's ``JSONWriter``: `/` is not escaped (as
/// jq writes it). A closed pipe ends the program quietly (see ``StandardOutput``); any other
/// write failure is reported with its errno and exit status 74.
enum JSONOutput {
    static func writer(_ layout: JSONWriter.Format.Layout) -> JSONWriter {
        JSONWriter.standardOutput(format: JSONWriter.Format(layout, escapesSlashes: false))
    }

    /// After `error` ended a command: writes out the whole values written before it, then
    /// reports the error, and a failure to write after it. Returns the exit code for `error`.
    static func finish(_ writer: JSONWriter, after error: any Error, file: String, command: Command = .other) -> ExitCode {
        if error is WriteError { return report(error, file: file, command: command) }  // the writer's own failure
        do {
            try writer.flush()
        } catch let writeError {
            let code = report(error, file: file, command: command)
            _ = report(writeError, file: file)
            return code
        }
        return report(error, file: file, command: command)
    }
}
