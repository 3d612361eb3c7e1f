import ArgumentParser

/// `spool`: streaming JSON tools built on the Spool library.
@main
struct SpoolCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spool",
        abstract: "Read huge JSON as a stream, in constant memory.",
        discussion: """
            FILE is optional everywhere: absent or '-' means standard input. PATH: keys joined \
            by dots, [N] for an index, [*] for every element (objects[*].members: the members of \
            every band), ["a.b"] for a key with dots or brackets, . for the root. \
            A FILE or PATH that begins with '-' goes after -- (spool count objects -- -hot.json), \
            or the file is written ./-hot.json: an argument of one '-' and several letters is \
            refused, never read as flags. File names are printed with control characters \
            escaped (\\u{1b}).

            Exit codes: 0 success; 1 invalid or undecodable input (FILE:LINE:COLUMN: error: ... \
            on stderr), or bands skipped by --skip-invalid; 64 usage error; 66 input cannot be \
            opened or read; 74 output cannot be written (a full disk). When an error in the input \
            is followed by a failure to write what came before it, both are reported and the \
            status is the input's (1).
            """,
        version: SpoolCommand.version,
        subcommands: [
            BandsCommand.self, ItemsCommand.self, MembersCommand.self, CountCommand.self, ValidateCommand.self, FormatCommand.self,
        ]
    )

    /// The version `spool --version` prints.
    static let version = "0.1.0"

    /// `spool` without a command: the help, on standard error, and the usage error's status.
    func run() throws {
        printToStandardError(Self.helpMessage())
        throw ExitCode.validationFailure
    }

    static func main() {
        ignoreBrokenPipeSignal()
        checkStandardOutputAtExit()
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let name = Arguments.dashedName(in: arguments) {
            printToStandardError(Arguments.refusal(of: name))
            exit(withError: ExitCode.validationFailure)
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            // A usage error quoting an argument (a file name) with a newline or an escape in it.
            let code = exitCode(for: error)
            if code != .success && arguments.contains(where: TerminalText.needsEscaping) {
                let message = fullMessage(for: error)
                if !message.isEmpty { printToStandardError(Arguments.escaping(message, arguments)) }
                exit(withError: code)
            }
            exit(withError: error)
        }
    }
}
