import Foundation
import Testing

/// `--jobs N` on `spool bands`, `items` and `count`: the elements decoded on N threads, and
/// the same output, errors and exit status as without it.
@Suite("spool --jobs")
struct JobsOptionTests {
    /// A catalog of `count` bands, about 200 bytes each, written as Examples/bands.json is:
    /// several batches of 1 MiB for the threads past some 5,000.
    static func catalog(count: Int, band: (Int) -> String = Self.band) -> String {
        "{\n  \"objects\": [\n" + (0..<count).map(band).joined(separator: ",\n")
            + "\n  ],\n  \"last_updated\": \"2016-05-17T22:43:04Z\"\n}\n"
    }

    static func band(_ index: Int) -> String {
        """
            {
              "name": "Band \(index)",
              "homepage": \(index % 3 == 0 ? "null" : "\"https://band\(index).example\""),
              "active": "\(["active", "hiatus", "inactive"][index % 3])",
              "members": [
                {"name": "Member \(index)", "birth_date": "19\(50 + index % 50)-0\(1 + index % 9)-1\(index % 10)"},
                {"name": "Other \(index)", "birth_date": "1960-12-01"}
              ]
            }
        """
    }

    /// A generated catalog of 12,000 bands (2.9 MB), written once.
    static let large: URL? = try? StreamingCommandTests.temporaryFile(catalog(count: 12_000))

    /// Expects each command to print, report and exit the same with every `--jobs` as without.
    static func expectSameWithJobs(
        _ commands: [[String]], jobs: [String] = ["1", "2", "4", "auto", "0"], sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        for command in commands {
            let serial = try Spool.run(command)
            for jobs in jobs {
                let parallel = try Spool.run(command + ["--jobs", jobs])
                #expect(parallel.status == serial.status, "\(command) --jobs \(jobs)", sourceLocation: sourceLocation)
                #expect(parallel.stdout == serial.stdout, "\(command) --jobs \(jobs)", sourceLocation: sourceLocation)
                #expect(parallel.stderr == serial.stderr, "\(command) --jobs \(jobs)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func theSampleCatalogPrintsTheSame() throws {
        try Self.expectSameWithJobs([
            ["bands", "Examples/bands.json"], ["bands", "--summary", "Examples/bands.json"],
            ["items", "objects", "Examples/bands.json"], ["items", "--offsets", "objects", "Examples/bands.json"],
            ["items", "objects[*].members", "Examples/bands.json"], ["count", "objects", "Examples/bands.json"],
            ["count", "objects[4]", "Examples/bands.json"], ["count", "objects[*].members", "Examples/bands.json"],
        ])
        let run = try Spool.run(["bands", "--jobs", "2", "Examples/bands.json"])
        #expect(run.status == 0 && run.stdout == StreamingCommandTests.sampleOutput && run.stderr.isEmpty)
    }

    @Test func aLargeCatalogPrintsTheSame() throws {
        let path = try #require(Self.large).path
        try Self.expectSameWithJobs([["bands", path], ["items", "objects", path], ["count", "objects", path]], jobs: ["2", "4"])
        #expect(try Spool.run(["count", "--jobs", "2", "objects", path]).stdout == "12000\n")
        let bands = try Spool.run(["bands", "--summary", "--jobs", "2", path])
        #expect(bands.stdout == "bands: 12000\nmembers: 24000\noldest member: Member 0 (1950-01-10)\nlast_updated: 2016-05-17T22:43:04Z\n")
    }

    @Test func badInputIsReportedTheSame() throws {
        let text = Self.catalog(count: 6000)
        let damaged = [
            // A stray quote, a truncated document, a band that does not decode (element 500),
            // garbage after the document.
            text.replacingOccurrences(of: #""name": "Band 4500""#, with: #""name": "Band "4500""#),
            String(text.prefix(text.utf8.count / 2)),
            text.replacingOccurrences(of: #""active": "inactive""#, with: #""active": "retired""#),
            text.replacingOccurrences(of: #""name": "Band 500""#, with: #""name": 500"#),
            text + "x",
        ]
        for (number, damaged) in damaged.enumerated() {
            let file = try StreamingCommandTests.temporaryFile(damaged)
            defer { try? FileManager.default.removeItem(at: file) }
            try Self.expectSameWithJobs([["bands", file.path], ["items", "objects", file.path], ["count", "objects", file.path]], jobs: ["2", "4"])
            let run = try Spool.run(["bands", "--jobs", "2", file.path])
            #expect(run.status == 1 && run.stderr.contains(": error: "), "\(number): \(run.stderr)")
        }
        // Invalid UTF-8 in band 5000's name.
        var bytes = Array(text.utf8)
        let name = Array(#""name": "Band 5000""#.utf8)
        let at = try #require(bytes.indices.first { bytes[$0...].starts(with: name) })
        bytes[at + 12] = 0xFF
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("spool-cli-\(UUID()).json")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try Self.expectSameWithJobs([["bands", file.path], ["items", "objects", file.path], ["count", "objects", file.path]], jobs: ["2", "4"])
    }

    @Test func countTakesWhatIsNotAnArrayAsWithoutJobs() throws {
        let file = try StreamingCommandTests.temporaryFile(#"{"a": {"x": 1, "y": [2]}, "b": 3, "objects": [1, 2]}"#)
        defer { try? FileManager.default.removeItem(at: file) }
        try Self.expectSameWithJobs([
            ["count", "a", file.path], ["count", "b", file.path], ["count", "c", file.path], ["count", "a.y", file.path],
            ["count", "objects[0]", file.path], ["items", "a", file.path], ["items", "b", file.path],
        ])
        #expect(try Spool.run(["count", "--jobs", "2", "a", file.path]).stdout == "2\n")
    }

    @Test func standardInputAndSkippingAreReadSerially() throws {
        let sample = try Data(contentsOf: Spool.repository.appendingPathComponent("Examples/bands.json"))
        let fromStdin = try Spool.run(["bands", "--jobs", "2", "-"], stdin: sample)
        #expect(fromStdin.status == 0 && fromStdin.stdout == StreamingCommandTests.sampleOutput)
        #expect(try Spool.run(["count", "--jobs", "2", "objects"], stdin: sample).stdout == "5\n")
        let text = Self.catalog(count: 50).replacingOccurrences(of: #""name": "Band 7""#, with: #""name": 7"#)
        let file = try StreamingCommandTests.temporaryFile(text)
        defer { try? FileManager.default.removeItem(at: file) }
        try Self.expectSameWithJobs([["bands", "--skip-invalid", file.path], ["items", "--ndjson", ".", file.path]])
    }

    @Test func ndjsonValuesPrintTheSame() throws {
        // 12,000 bands a line (2 MB): several batches; then one broken line in the middle.
        let lines = (0..<12_000).map { Self.band($0).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined() }
        let valid = try StreamingCommandTests.temporaryFile(lines.joined(separator: "\n") + "\n")
        var broken = lines
        broken[7_001] = #"{"name": "Band 7001", "members": [}"#
        let invalid = try StreamingCommandTests.temporaryFile(broken.joined(separator: "\n"))
        defer {
            try? FileManager.default.removeItem(at: valid)
            try? FileManager.default.removeItem(at: invalid)
        }
        for file in [valid, invalid] {
            try Self.expectSameWithJobs([["items", "--ndjson", ".", file.path], ["items", "--ndjson", "--offsets", ".", file.path]], jobs: ["2", "4"])
        }
        let run = try Spool.run(["items", "--ndjson", "--jobs", "2", ".", invalid.path])
        #expect(run.status != 0 && run.stdout.split(separator: "\n").count == 7_001 && run.stderr.contains("7002:"), "\(run.stderr)")
    }

    @Test func membersPrintTheSame() throws {
        // 12,000 bands keyed by name (3 MB): several batches; then one broken value.
        let members = (0..<12_000).map { "\"band \($0)\": " + Self.band($0) }
        let valid = try StreamingCommandTests.temporaryFile("{\"by_name\": {\n" + members.joined(separator: ",\n") + "\n}}\n")
        var broken = members
        broken[9_000] = #""band 9000": {"name": "Band 9000", "members": [}"#
        let invalid = try StreamingCommandTests.temporaryFile("{\"by_name\": {\n" + broken.joined(separator: ",\n") + "\n}}\n")
        defer {
            try? FileManager.default.removeItem(at: valid)
            try? FileManager.default.removeItem(at: invalid)
        }
        try Self.expectSameWithJobs([["members", "by_name", valid.path], ["members", "by_name", invalid.path]], jobs: ["2", "4"])
        let run = try Spool.run(["members", "--jobs", "2", "by_name", valid.path])
        #expect(run.status == 0 && run.stdout.split(separator: "\n").count == 12_000)
    }

    @Test func jobsMustBeAutoOrFrom0To64() throws {
        for value in ["-1", "65", "x", "1.5"] {
            let run = try Spool.run(["count", "--jobs", value, "objects", "Examples/bands.json"])
            #expect(run.stdout.isEmpty)
            if Sanitizers.address && ["x", "1.5"].contains(value) {
                // swift-argument-parser leaks an array when a value does not parse (`--max-depth x`
                // too), which LeakSanitizer reports at exit with status 1 instead of 64.
                #expect(run.stderr.contains("The value '\(value)' is invalid for '--jobs <n>'"), "\(run.stderr)")
            } else {
                #expect(run.status == 64, "\(value)")
            }
        }
        #expect(try Spool.run(["count", "--jobs", "65", "objects", "Examples/bands.json"]).stderr.contains("--jobs must be auto or from 0 to 64"))
        #expect(try Spool.run(["count", "--jobs", "64", "objects", "Examples/bands.json"]).stdout == "5\n")
        #expect(try Spool.run(["members", "--jobs", "65", "objects[0]", "Examples/bands.json"]).status == 64)
    }
}
