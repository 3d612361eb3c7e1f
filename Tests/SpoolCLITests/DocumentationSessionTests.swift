import Foundation
import Testing

/// Runs every `$ spool ...` session of the DocC article on the tool
/// (`Sources/Spool/Spool.docc/CommandLineTool.md`) and checks the output it shows, as
/// ReadmeSessionTests does for the README.
///
/// A session is a `$ ` line inside a fenced block, with the lines up to the next `$ ` line or
/// the end of the block. It runs with `/bin/sh` in the repository, with the built `spool` first
/// on `PATH`, and standard error merged into standard output for the whole command line (so
/// `spool ...; echo "exit status $?"` shows the error message too).
@Suite("Documentation sessions")
struct DocumentationSessionTests {
    static let article = "Sources/Spool/Spool.docc/CommandLineTool.md"

    static let text: String = {
        (try? String(contentsOf: Spool.repository.appendingPathComponent(article), encoding: .utf8)) ?? ""
    }()

    struct Session: Sendable, CustomTestStringConvertible {
        var command: String
        var output: [String]
        var testDescription: String { command }
    }

    static var sessions: [Session] {
        var sessions: [Session] = []
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
                sessions.append(Session(command: String(line.dropFirst(2)), output: []))
                current = sessions.count - 1
            } else if let current {
                sessions[current].output.append(line)
            }
        }
        return sessions.filter { $0.command.contains("spool ") }
    }

    static func shell(_ command: String) throws -> String {
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = Spool.executable.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "")
        return try Spool.run(["-c", "{ \(command)\n} 2>&1"], program: URL(fileURLWithPath: "/bin/sh"), environment: environment)
            .stdout
    }

    @Test func theArticleShowsEveryCommand() {
        let commands = Self.sessions.map(\.command)
        for name in ["spool bands", "spool items", "spool members", "spool count", "spool validate", "spool --version"] {
            #expect(commands.contains { $0.contains(name) }, "no session of \(name)")
        }
        #expect(commands.contains { $0.contains(#"echo "exit status $?""#) })
    }

    @Test(arguments: sessions)
    func sessionPrintsWhatTheArticleShows(_ session: Session) throws {
        let printed = try Self.shell(session.command).components(separatedBy: "\n")
        let shown = session.output
        #expect(Array(printed.prefix(shown.count)) == shown, "\(session.command)")
        let extra = printed.dropFirst(shown.count).filter { !$0.isEmpty }
        #expect(extra.isEmpty, "\(session.command)")
    }
}
