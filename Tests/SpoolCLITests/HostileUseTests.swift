import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Careless and hostile use of the tool: full disks, odd descriptors, terminals, extreme options.
@Suite("spool under hostile use")
struct HostileUseTests {
    static func shell(_ command: String) throws -> SpoolRun {
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = Spool.executable.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "")
        return try Spool.run(["-c", command], program: URL(fileURLWithPath: "/bin/sh"), environment: environment)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func aFullDiskIsAnErrorWithItsOwnStatus() throws {
        let items = try Self.shell("spool items 'objects[0].members' Examples/bands.json > /dev/full")
        #expect(items.status == 74)
        #expect(items.stderr == "spool: cannot write to standard output: No space left on device\n")
        for command in ["spool --help", "spool --version", "spool count objects Examples/bands.json"] {
            let run = try Self.shell(command + " > /dev/full")
            #expect(run.status == 74, "\(command)")
            #expect(run.stderr.contains("No space left on device"), "\(command)")
        }
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func aWriteFailureDoesNotHideAnEarlierParseError() throws {
        let run = try Self.shell(#"printf '{"objects": [1, 2,, 3]}' | spool items objects > /dev/full"#)
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("<stdin>:1:19: error: expected a value, found ','"))
        #expect(run.stderr.hasSuffix("spool: cannot write to standard output: No space left on device\n"))
    }

    @Test func helpListsEveryExitStatus() throws {
        let help = try Spool.run(["--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for status in ["0 success", "1 invalid", "64 usage error", "66 input cannot be", "74 output cannot be written"] {
            #expect(help.contains(status), "\(status)")
        }
    }

    @Test func spoolWithoutACommandIsAUsageError() throws {
        let run = try Spool.run([])
        #expect(run.status == 64)
        #expect(run.stderr.contains("SUBCOMMANDS:"))
        #expect(run.stdout.isEmpty)
    }

    @Test func emptyAndSignedPathsAreRejected() throws {
        let empty = try Spool.run(["count", "", "Examples/bands.json"])
        #expect(empty.status == 64)
        #expect(empty.stderr == "spool: invalid path \"\": empty path (. is the root)\n")
        let signed = try Spool.run(["count", "objects[+1]", "Examples/bands.json"])
        #expect(signed.status == 64)
        #expect(signed.stderr == "spool: invalid path \"objects[+1]\": [+1] is not an index\n")
    }

    @Test func extremeDepthsAreBounded() throws {
        let tooDeep = try Spool.run(["validate", "--max-depth", "100001", "Examples/bands.json"])
        #expect(tooDeep.status == 64)
        #expect(tooDeep.stderr.contains("--max-depth must be from 1 to 100000"))
        // A deep truncated input: the error line keeps both ends of the path, not 3 MB of it.
        let deep = try StreamingCommandTests.temporaryFile(String(repeating: "[", count: 200_000))
        defer { try? FileManager.default.removeItem(at: deep) }
        let run = try Spool.run(["validate", "--max-depth", "100000", deep.path])
        #expect(run.status == 1)
        let first = run.stderr.prefix(while: { $0 != "\n" })
        #expect(first.count < 300)
        #expect(first.hasSuffix("(at [0][0][0][0][0][0][0][0]…(99984 more)…[0][0][0][0][0][0][0][0])"))
    }

    /// A fresh directory with `files` (name: contents) in it.
    static func directory(_ files: [String: String]) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spool-names-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, contents) in files {
            try Data(contents.utf8).write(to: directory.appendingPathComponent(name))
        }
        return directory
    }

    /// A newline, an escape sequence or a right-to-left override in a file name is printed
    /// escaped, wherever the name appears: it can neither forge a line nor drive the terminal.
    @Test func fileNamesCannotForgeLinesOrDriveTheTerminal() throws {
        let forged = "evil\n<stdin>:1:1: error: forged\u{1b}[2J.json"
        let bad = "bad\u{1b}[31m\u{202e}.json"
        let directory = try Self.directory([forged: "[1]", bad: "[1,"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let unsafe: (String) -> Bool = { $0.unicodeScalars.contains { $0 == "\u{1b}" || $0 == "\u{202e}" } }

        let valid = try Spool.run(["validate", directory.appendingPathComponent(forged).path])
        #expect(valid.status == 0)
        #expect(valid.stdout.hasSuffix("/evil\\u{a}<stdin>:1:1: error: forged\\u{1b}[2J.json: valid JSON (3 bytes, 1 top-level value)\n"))
        #expect(valid.stdout.split(separator: "\n").count == 1 && !unsafe(valid.stdout))

        let invalid = try Spool.run(["fmt", directory.appendingPathComponent(bad).path])
        #expect(invalid.status == 1)
        #expect(invalid.stderr.contains("/bad\\u{1b}[31m\\u{202e}.json:1:4: error: unexpected end of input"))
        #expect(!unsafe(invalid.stderr))

        let missing = try Spool.run(["count", "objects", directory.path + "/missing\n\u{1b}[2J.json"])
        #expect(missing.status == 66)
        #expect(missing.stderr == "spool: cannot open '\(directory.path)/missing\\u{a}\\u{1b}[2J.json': No such file or directory\n")

        // ArgumentParser quotes an unexpected argument: escaped too.
        let extra = try Spool.run(["validate", "Examples/bands.json", "b\u{1b}[2J\nc"])
        #expect(extra.status == 64)
        #expect(extra.stderr.hasPrefix("Error: Unexpected argument 'b\\u{1b}[2J\\u{a}c'\n"))
        #expect(!unsafe(extra.stderr))
    }

    /// ArgumentParser reads `-hot.json` as the short flags -h -o -t...: help, and status 0,
    /// without reading the file. Such a name is refused; after `--`, it is a name.
    @Test func aNameThatBeginsWithADashIsNeverReadAsFlags() throws {
        for arguments in [["count", "objects", "-hot.json"], ["validate", "-hot.json"], ["validate", "-q", "-chart.json"], ["items", "-x.y"], ["validate", "-qh"]] {
            let run = try Spool.run(arguments)
            #expect(run.status == 64, "\(arguments)")
            #expect(run.stdout.isEmpty, "\(arguments)")
            #expect(run.stderr == "spool: unknown option '\(arguments.last!)'; a FILE or PATH that begins with '-' goes after --: spool COMMAND ... -- \(arguments.last!) (or write the file as ./\(arguments.last!))\n")
        }
        let sample = try String(contentsOf: Spool.repository.appendingPathComponent("Examples/bands.json"), encoding: .utf8)
        let directory = try Self.directory(["-hot.json": sample])
        defer { try? FileManager.default.removeItem(at: directory) }
        let counted = try Self.shell("cd '\(directory.path)' && spool count objects -- -hot.json && spool count objects ./-hot.json")
        #expect(counted.status == 0)
        #expect(counted.stdout == "5\n5\n")
        // The short flags alone keep their meaning.
        #expect(try Spool.run(["validate", "-h"]).stdout.hasPrefix("OVERVIEW: Check that the input is valid JSON."))
        let quiet = try Spool.run(["validate", "-q", "Examples/bands.json"])
        #expect(quiet.status == 0 && quiet.stdout.isEmpty)
    }

    /// Standard input and output inherited in non-blocking mode: reads and writes wait for
    /// the descriptor instead of failing with EAGAIN.
    @Test func nonBlockingDescriptorsAreWaitedFor() throws {
        let input = Pipe()
        let output = Pipe()
        for descriptor in [input.fileHandleForReading.fileDescriptor, output.fileHandleForWriting.fileDescriptor] {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
        let process = Process()
        process.executableURL = Spool.executable
        process.arguments = ["items", "--ndjson", "."]
        process.standardInput = input
        process.standardOutput = output
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let line = Data(#"{"a": "\#(String(repeating: "x", count: 1000))"}"#.utf8 + [0x0A])
        let writer = Thread {
            for round in 0..<300 {
                input.fileHandleForWriting.write(line)
                if round % 100 == 0 { usleep(50_000) }  // the reader finds nothing to read for a while
            }
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        usleep(200_000)  // let the output pipe fill up first
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).isEmpty)
        #expect(printed.count == 300 * (line.count - 1))  // compact: one space fewer per line
    }
}
