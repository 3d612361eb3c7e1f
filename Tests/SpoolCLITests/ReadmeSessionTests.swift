import Foundation
import Testing

/// Runs every `$ spool ...` session shown in the README and checks the output it shows
/// (``ShellSession``).
@Suite("README sessions")
struct ReadmeSessionTests {
    static let readme: String = {
        (try? String(contentsOf: Spool.repository.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
    }()

    static var sessions: [ShellSession] { ShellSession.sessions(in: readme) }

    @Test func theReadmeShowsSessions() {
        #expect(Self.sessions.count >= 4)
    }

    @Test(arguments: sessions)
    func sessionPrintsWhatTheReadmeShows(_ session: ShellSession) throws {
        try session.expectPrintsWhatIsShown()
    }

    @Test func quickStartOutputIsTheBandsCommand() throws {
        let lines = Self.readme.components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.hasPrefix("The first builds the `spool` tool") }),
            let open = lines[start...].firstIndex(where: { $0.hasPrefix("```") }),
            let close = lines[(open + 1)...].firstIndex(where: { $0.hasPrefix("```") })
        else {
            Issue.record("no quick start output in the README")
            return
        }
        let shown = Array(lines[(open + 1)..<close])
        #expect(Self.readme.contains("scripts/spool bands Examples/bands.json\nscripts/test\n"))
        let printed = try ShellSession.shell("spool bands Examples/bands.json").components(separatedBy: "\n").dropLast()
        #expect(Array(printed) == shown)
    }
}
