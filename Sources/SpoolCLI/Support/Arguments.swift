/// The command line, checked before ArgumentParser reads it, and ArgumentParser's messages
/// made safe to print.
enum Arguments {
    /// The first argument before `--` that is one `-` and more than one character after it.
    ///
    /// ArgumentParser reads such an argument as a group of short flags, and finds `-h` in any
    /// of them: `spool count objects -hot.json` printed the help and exited 0, never reading
    /// the file. `spool` has two short flags, `-h` and `-q`, and grouping them means nothing,
    /// so such an argument can only be a FILE or PATH that begins with `-`: it is refused, and
    /// goes after `--` instead, as POSIX has it (`spool count objects -- -hot.json`).
    static func dashedName(in arguments: [String]) -> String? {
        for argument in arguments {
            if argument == "--" { return nil }
            if argument.hasPrefix("-") && !argument.hasPrefix("--") && argument.unicodeScalars.count > 2 {
                return argument
            }
        }
        return nil
    }

    /// The usage error for a `dashedName`.
    static func refusal(of argument: String) -> String {
        let name = TerminalText.safe(argument)
        return """
            spool: unknown option '\(name)'; a FILE or PATH that begins with '-' goes after --: \
            spool COMMAND ... -- \(name) (or write the file as ./\(name))
            """
    }

    /// ArgumentParser's `message` with every argument that needs it escaped: it quotes the
    /// arguments it does not expect as they are (`1 unexpected argument: '...'`).
    static func escaping(_ message: String, _ arguments: [String]) -> String {
        arguments.filter(TerminalText.needsEscaping).reduce(message) { $0.replacing($1, with: TerminalText.safe($1)) }
    }
}
