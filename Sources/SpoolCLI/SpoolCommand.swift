import ArgumentParser

/// `spool`: streaming JSON tools built on the Spool library.
@main
struct SpoolCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spool",
        abstract: "Read huge JSON as a stream, in constant memory.",
        discussion: """
            FILE is optional everywhere: absent or '-' means standard input.

            Exit codes: 0 success; 1 invalid JSON (FILE:LINE:COLUMN: error: ... on stderr); \
            64 usage error; 66 input cannot be opened or read.
            """,
        subcommands: [ValidateCommand.self]
    )
}
