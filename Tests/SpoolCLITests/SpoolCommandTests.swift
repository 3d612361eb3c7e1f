import Foundation
import Testing

/// Runs the built `spool` executable, as a user would.
struct SpoolRun {
    var status: Int32
    var stdout: String
    var stderr: String
}

enum Spool {
    static let executable: URL = {
        // The test bundle sits in the build products folder, next to the `spool` binary.
        var directory = Bundle.main.bundleURL
        for _ in 0..<3 {
            let candidate = directory.appendingPathComponent("spool")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return repository.appendingPathComponent(".build/debug/spool")
    }()

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Runs `program` (the `spool` binary unless given) in the repository, with `environment`
    /// (the test's own unless given).
    static func run(
        _ arguments: [String], stdin: Data? = nil, program: URL = executable, environment: [String: String]? = nil
    ) throws -> SpoolRun {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.currentDirectoryURL = repository
        if let environment { process.environment = environment }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let input = Pipe()
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        try process.run()
        if let stdin {
            input.fileHandleForWriting.write(stdin)
            try input.fileHandleForWriting.close()
        }
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return SpoolRun(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }
}

@Suite("spool validate")
struct ValidateCommandTests {
    @Test func acceptsTheBundledSample() throws {
        let run = try Spool.run(["validate", "Examples/bands.json"])
        #expect(run.status == 0)
        #expect(run.stdout == "Examples/bands.json: valid JSON (2184 bytes, 1 top-level value)\n")
        #expect(run.stderr.isEmpty)
    }

    @Test func readsStandardInputWhenFileIsAbsentOrDash() throws {
        for arguments in [["validate"], ["validate", "-"]] {
            let run = try Spool.run(arguments, stdin: Data(#"{"a": [1, 2]}"#.utf8))
            #expect(run.status == 0)
            #expect(run.stdout == "<stdin>: valid JSON (13 bytes, 1 top-level value)\n")
        }
    }

    @Test func reportsInvalidInputLikeACompiler() throws {
        let run = try Spool.run(["validate"], stdin: Data("{\n  \"a\": [1, 2,, 3]\n}".utf8))
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(
            run.stderr == """
                <stdin>:2:14: error: expected a value, found ',' (at a[2])
                  "a": [1, 2,, 3]
                             ^

                """)
    }

    @Test func namesTheFileInErrors() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("spool-cli-\(UUID()).json")
        try Data("[1, 2".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try Spool.run(["validate", file.path])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("\(file.path):1:6: error: unexpected end of input; the array opened at 1:1 is not closed"))
    }

    @Test func optionsChangeWhatIsAccepted() throws {
        let ndjson = Data("{\"a\": 1}\n\n{\"a\": 2}\n".utf8)
        #expect(try Spool.run(["validate"], stdin: ndjson).status == 1)
        let accepted = try Spool.run(["validate", "--ndjson"], stdin: ndjson)
        #expect(accepted.status == 0)
        #expect(accepted.stdout == "<stdin>: valid JSON (19 bytes, 2 top-level values)\n")
        let commented = Data("// note\n[1, /* two */ 2]".utf8)
        #expect(try Spool.run(["validate"], stdin: commented).status == 1)
        #expect(try Spool.run(["validate", "--allow-comments"], stdin: commented).status == 0)
        let deep = Data("[[[[1]]]]".utf8)
        #expect(try Spool.run(["validate", "--max-depth", "3"], stdin: deep).status == 1)
        #expect(try Spool.run(["validate", "--chunk-size", "1", "--quiet"], stdin: deep).stdout.isEmpty)
    }

    @Test func missingFileIsAnInputErrorWithItsOwnExitCode() throws {
        let run = try Spool.run(["validate", "/nonexistent/bands.json"])
        #expect(run.status == 66)
        #expect(run.stderr == "spool: cannot open '/nonexistent/bands.json': No such file or directory\n")
    }

    @Test func usageErrorsExitWithTheParsersCode() throws {
        let run = try Spool.run(["validate", "--chunk-size", "0"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("--chunk-size must be from 1 to 67108864"))
        #expect(try Spool.run(["validate", "--chunk-size", "9223372036854775807"]).status == 64)
        #expect(try Spool.run(["frobnicate"]).status == 64)
    }

    @Test func helpDocumentsTheExitCodes() throws {
        let run = try Spool.run(["--help"])
        #expect(run.status == 0)
        #expect(run.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains("66 input cannot be opened or read"))
        #expect(run.stdout.contains("validate"))
    }
}
