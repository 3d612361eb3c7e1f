import ArgumentParser
import Spool

/// `spool validate [FILE]`: checks that the input is JSON, in constant memory.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check that the input is valid JSON.",
        discussion: """
            Exits 0 and prints a one-line summary when the input is valid; exits 1 and prints \
            FILE:LINE:COLUMN: error: MESSAGE with the offending line to stderr when it is not.
            """
    )

    @Argument(help: "The JSON file to check; '-' or absent for standard input. A name that begins with '-' goes after --.")
    var file: String?

    @OptionGroup var parsing: ParsingFlags

    @Flag(name: .shortAndLong, help: "Print nothing when the input is valid.")
    var quiet = false

    @OptionGroup var progress: ProgressFlags

    func run() throws {
        let input = InputFile(file)
        let output = StandardOutput()
        do {
            let (reader, bar) = input.reader(options: parsing.options, progress: progress)
            defer { bar.finish() }
            let values = try reader.skipToEnd()
            bar.finish()
            if !quiet {
                let plural = values == 1 ? "value" : "values"
                try output.line("\(input.name): valid JSON (\(reader.bytesRead) bytes, \(values) top-level \(plural))")
                try output.flush()
            }
        } catch {
            throw output.finish(after: error, file: input.name)
        }
    }
}
