import ArgumentParser
import Spool

/// The options every command that parses JSON shares.
struct ParsingFlags: ParsableArguments {
    @Flag(help: "Accept several top-level values (NDJSON, JSON Lines, concatenated JSON).")
    var ndjson = false

    @Flag(help: "Accept // and /* */ comments.")
    var allowComments = false

    @Option(help: "Bytes to read at a time.")
    var chunkSize: Int = 65_536

    @Option(help: "Deepest nesting of arrays and objects accepted.")
    var maxDepth: Int = 512

    var options: JSONParsingOptions {
        JSONParsingOptions(
            allowsComments: allowComments, allowsMultipleValues: ndjson, maxDepth: maxDepth, chunkSize: chunkSize)
    }

    func validate() throws {
        guard chunkSize >= 1 else { throw ValidationError("--chunk-size must be at least 1") }
        guard maxDepth >= 1 else { throw ValidationError("--max-depth must be at least 1") }
    }
}

/// Exit codes shared by all commands.
enum SpoolExit {
    /// Invalid or undecodable input.
    static let invalidInput = ExitCode(1)
    /// The input could not be opened or read (EX_NOINPUT).
    static let inputUnavailable = ExitCode(66)
}

/// Opens FILE, or standard input for nil or "-".
func openReader(_ file: String?, options: JSONParsingOptions) throws(InputError) -> (JSONReader, String) {
    guard let file, file != "-" else { return (JSONReader.standardInput(options: options), "<stdin>") }
    return (try JSONReader(contentsOfFile: file, options: options), file)
}

/// Prints an error the way compilers do, and returns the exit code for it.
func report(_ error: any Error, file: String) -> ExitCode {
    switch error {
    case let error as ParseError:
        printToStandardError("\(file):\(error.summary)")
        let excerpt = error.excerptWithCaret
        if !excerpt.isEmpty { printToStandardError(excerpt) }
        return SpoolExit.invalidInput
    case let error as InputError:
        printToStandardError("spool: \(error)")
        return SpoolExit.inputUnavailable
    default:
        printToStandardError("spool: \(error)")
        return SpoolExit.invalidInput
    }
}
