import Foundation
import Testing

/// A `$ spool ...` session shown in a document (the README, the tool's DocC article): the
/// command and the lines it prints.
///
/// A session is a `$ ` line inside a fenced block, with the lines up to the next `$ ` line or
/// the end of the block. It runs with `/bin/sh` in the repository, with the built `spool` first
/// on `PATH`, and standard error merged into standard output for the whole command line (so
/// `spool ...; echo "exit status $?"` shows the error message too).
struct ShellSession: Sendable, CustomTestStringConvertible {
    var command: String
    var output: [String]
    var testDescription: String { command }

    /// The sessions of `text` that run `spool`.
    static func sessions(in text: String) -> [ShellSession] {
        var sessions: [ShellSession] = []
        var inBlock = false
        var current: Int?
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("```") {
                inBlock.toggle()
                current = nil
                continue
            }
            guard inBlock else { continue }
            if line.hasPrefix("$ ") {
                sessions.append(ShellSession(command: String(line.dropFirst(2)), output: []))
                current = sessions.count - 1
            } else if let current {
                sessions[current].output.append(line)
            }
        }
        return sessions.filter { $0.command.contains("spool ") }
    }

    /// What `command` prints, standard error included.
    static func shell(_ command: String) throws -> String {
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = Spool.executable.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "")
        return try Spool.run(["-c", "{ \(command)\n} 2>&1"], program: URL(fileURLWithPath: "/bin/sh"), environment: environment)
            .stdout
    }

    /// Runs the session and checks that it prints the lines shown, and nothing more.
    func expectPrintsWhatIsShown() throws {
        let printed = try Self.shell(command).components(separatedBy: "\n")
        #expect(Array(printed.prefix(output.count)) == output, "\(command)")
        let extra = printed.dropFirst(output.count).filter { !$0.isEmpty }
        #expect(extra.isEmpty, "\(command)")
    }
}
