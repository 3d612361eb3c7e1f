import Foundation
import Testing

/// Runs every `$ spool ...` session shown in the README and checks the output it shows.
@Suite("README sessions")
struct ReadmeSessionTests {
    static let readme: String = {
        (try? String(contentsOf: Spool.repository.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
    }()

    struct Session: CustomStringConvertible {
        var command: String
        var output: [String]
        var description: String { command }
    }

    /// `$ command` lines inside fenced blocks, each with the lines up to the next command.
    static var sessions: [Session] {
        var sessions: [Session] = []
        var inBlock = false
        var current: Int?
        for line in readme.components(separatedBy: "\n") {
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
        return try Spool.run(["-c", command + " 2>&1"], program: URL(fileURLWithPath: "/bin/sh"), environment: environment).stdout
    }

    @Test func theReadmeShowsSessions() {
        #expect(Self.sessions.count >= 8)
    }

    @Test(arguments: sessions)
    func sessionPrintsWhatTheReadmeShows(_ session: Session) throws {
        let printed = try Self.shell(session.command).components(separatedBy: "\n")
        let shown = session.output
        #expect(Array(printed.prefix(shown.count)) == shown, "\(session.command)")
        let extra = printed.dropFirst(shown.count).filter { !$0.isEmpty }
        #expect(extra.isEmpty, "\(session.command)")
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
        let printed = try Self.shell("spool bands Examples/bands.json").components(separatedBy: "\n").dropLast()
        #expect(Array(printed) == shown)
    }
}
