import Foundation
import Testing

/// Runs every `$ spool ...` session of the DocC article on the tool
/// (`Sources/Spool/Spool.docc/CommandLineTool.md`) and checks the output it shows
/// (``ShellSession``), as ReadmeSessionTests does for the README.
@Suite("Documentation sessions")
struct DocumentationSessionTests {
    static let article = "Sources/Spool/Spool.docc/CommandLineTool.md"

    static let text: String = {
        (try? String(contentsOf: Spool.repository.appendingPathComponent(article), encoding: .utf8)) ?? ""
    }()

    static var sessions: [ShellSession] { ShellSession.sessions(in: text) }

    @Test func theArticleShowsEveryCommand() {
        let commands = Self.sessions.map(\.command)
        for name in ["spool bands", "spool items", "spool members", "spool count", "spool validate", "spool --version"] {
            #expect(commands.contains { $0.contains(name) }, "no session of \(name)")
        }
        #expect(commands.contains { $0.contains(#"echo "exit status $?""#) })
    }

    @Test(arguments: sessions)
    func sessionPrintsWhatTheArticleShows(_ session: ShellSession) throws {
        try session.expectPrintsWhatIsShown()
    }
}
