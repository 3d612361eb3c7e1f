import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Spool

/// The options every command that parses JSON shares.
struct ParsingFlags: ParsableArguments {
    @Flag(help: "Accept several top-level values (NDJSON, JSON Lines, concatenated JSON).")
    var ndjson = false

    @Flag(help: "Accept // and /* */ comments.")
    var allowComments = false

    @Option(help: "Bytes to read at a time (1 to 67108864).")
    var chunkSize: Int = 65_536

    @Option(help: "Deepest nesting of arrays and objects accepted (1 to 100000).")
    var maxDepth: Int = 512

    @Option(help: "Longest string, key or comment accepted, in bytes of its source text.")
    var maxStringLength: Int = JSONParsingOptions().maxStringLength

    @Option(help: "Longest number accepted, in bytes of its text.")
    var maxNumberLength: Int = JSONParsingOptions().maxNumberLength

    var options: JSONParsingOptions {
        var options = JSONParsingOptions(
            allowsComments: allowComments, allowsMultipleValues: ndjson, maxDepth: maxDepth, chunkSize: chunkSize)
        options.maxStringLength = maxStringLength
        options.maxNumberLength = maxNumberLength
        return options
    }

    /// The flag that sets each option a library message may name, so that errors speak the
    /// tool's language (`--max-depth`, not `JSONParsingOptions.maxDepth`).
    static let flagsForOptions = [
        ("JSONParsingOptions.maxDepth", "--max-depth"),
        ("JSONParsingOptions.allowsComments", "--allow-comments"),
        ("JSONParsingOptions.allowsMultipleValues", "--ndjson"),
        ("JSONParsingOptions.maxStringLength", "--max-string-length"),
        ("JSONParsingOptions.maxNumberLength", "--max-number-length"),
    ]

    /// `message` with every option name replaced by its flag.
    static func namingFlags(_ message: String) -> String {
        flagsForOptions.reduce(message) { $0.replacing($1.0, with: $1.1) }
    }

    func validate() throws {
        guard (1...JSONParsingOptions.maxChunkSize).contains(chunkSize) else {
            throw ValidationError("--chunk-size must be from 1 to \(JSONParsingOptions.maxChunkSize)")
        }
        guard (1...JSONParsingOptions.largestMaxDepth).contains(maxDepth) else {
            throw ValidationError("--max-depth must be from 1 to \(JSONParsingOptions.largestMaxDepth)")
        }
        guard maxStringLength >= 1 else { throw ValidationError("--max-string-length must be at least 1") }
        guard maxNumberLength >= 1 else { throw ValidationError("--max-number-length must be at least 1") }
    }
}

/// `--no-progress`, for the commands that can run long.
struct ProgressFlags: ParsableArguments {
    @Flag(help: "Never show a progress bar (it only appears on a terminal, after a second).")
    var noProgress = false
}

/// PATH and FILE, for the commands that stream what is at a path.
struct PathAndFile: ParsableArguments {
    @Argument(help: "Where the elements are: keys joined by dots, [N] for an index, [*] for every element, . for the root. One that begins with '-' goes after --.")
    var path: String

    @Argument(help: "The JSON input; '-' or absent for standard input. A name that begins with '-' goes after --.")
    var file: String?

    var input: InputFile { InputFile(file) }

    /// The parsed PATH and a stream over FILE whose progress a bar shows on a terminal.
    func open(
        options: JSONParsingOptions, progress: ProgressFlags, streamsOutput: Bool
    ) throws -> (JSONKeyPath, JSONStream, ProgressBar) {
        let keyPath = try JSONKeyPath(parsing: path)
        let (stream, bar) = input.stream(options: options, progress: progress, streamsOutput: streamsOutput)
        return (keyPath, stream, bar)
    }
}

/// Exit codes shared by all commands, documented in `spool --help` and the README.
enum SpoolExit {
    /// Invalid or undecodable input.
    static let invalidInput = ExitCode(1)
    /// The input could not be opened or read (EX_NOINPUT).
    static let inputUnavailable = ExitCode(66)
    /// Standard output could not be written, e.g. a full disk (EX_IOERR).
    static let outputFailed = ExitCode(74)
}

/// FILE, or standard input for nil or "-".
struct InputFile {
    let path: String?

    init(_ argument: String?) {
        path = argument == "-" ? nil : argument
    }

    /// The name messages use: the path, its control characters escaped (a newline in a file
    /// name would forge an error line), or `<stdin>`.
    var name: String { path.map(TerminalText.safe) ?? "<stdin>" }

    /// The input: the file, or standard input.
    var input: JSONInput { path.map(JSONInput.file) ?? .standardInput }

    /// A reader over the input, with a progress bar fed by it. (A file that cannot be opened
    /// is reported by the first read.)
    func reader(
        options: JSONParsingOptions, progress: ProgressFlags, streamsOutput: Bool = false
    ) -> (JSONReader, ProgressBar) {
        let reader = JSONReader(input, options: options)
        let bar = ProgressBar(enabled: !progress.noProgress, total: reader.totalBytes, streamsOutput: streamsOutput)
        reader.onProgress = bar.update(bytesRead:)
        return (reader, bar)
    }

    /// A stream over the input, with a progress bar fed by it.
    /// `streamsOutput`: the command prints while it reads, so no bar is drawn when standard
    /// output is a terminal too (the bar would be drawn inside the output).
    func stream(
        options: JSONParsingOptions, progress: ProgressFlags, streamsOutput: Bool
    ) -> (JSONStream, ProgressBar) {
        let stream = JSONStream(input, options: options)
        let bar = ProgressBar(enabled: !progress.noProgress, total: stream.totalBytes, streamsOutput: streamsOutput)
        stream.onProgress = bar.update(bytesRead:)
        return (stream, bar)
    }
}

/// The command an error comes from, for hints that depend on it.
enum Command {
    case items, members, other
}

/// Prints an error the way compilers do, and returns the exit code for it.
func report(_ error: any Error, file: String, command: Command = .other) -> ExitCode {
    switch error {
    case var error as ParseError:
        error.message = ParsingFlags.namingFlags(error.message)
        printToStandardError("\(file):\(error)")  // summary, then the excerpt and caret
        return SpoolExit.invalidInput
    case var error as DecodeError:
        error.message = ParsingFlags.namingFlags(error.message)
        if error.code == .typeMismatch && error.expected == "array" && error.actual == "object" && command == .items {
            error.message += "; spool members streams an object's members"
        } else if error.code == .typeMismatch && error.expected == "object" && error.actual == "array" && command == .members {
            error.message += "; spool items streams an array's elements"
        }
        printToStandardError(error.location == nil ? "\(file): \(error)" : "\(file):\(error)")
        return SpoolExit.invalidInput
    case var error as InputError:
        error.source = TerminalText.safe(error.source)  // the file's name
        printToStandardError("spool: \(error)")
        return SpoolExit.inputUnavailable
    case let error as OutputError:
        printToStandardError("spool: \(error)")
        return SpoolExit.outputFailed
    case let error as WriteError where error.code == .output || error.code == .closed:
        if error.errno == EPIPE { exit(0) }  // the reader went away: stop quietly
        printToStandardError("spool: \(error.errno.map { OutputError(code: $0).description } ?? error.message)")
        return SpoolExit.outputFailed
    case let error as JSONKeyPath.SyntaxError:
        printToStandardError("spool: \(error)")
        return ExitCode.validationFailure
    default:
        printToStandardError("spool: \(error)")
        return SpoolExit.invalidInput
    }
}
