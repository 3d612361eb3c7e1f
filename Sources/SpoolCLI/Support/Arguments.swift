/// The command line: ArgumentParser's messages made safe to print.
enum Arguments {
    /// ArgumentParser's `message` with every argument that needs it escaped: it quotes the
    /// arguments it does not expect as they are (`1 unexpected argument: '...'`).
    static func escaping(_ message: String, _ arguments: [String]) -> String {
        arguments.filter(TerminalText.needsEscaping).reduce(message) { $0.replacing($1, with: TerminalText.safe($1)) }
    }
}
