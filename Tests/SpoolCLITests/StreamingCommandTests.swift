import Foundation
import Testing

@Suite("spool bands, items, count")
struct StreamingCommandTests {
    static let sampleOutput = """
        Beatles\tdisbanded\t4 members\thttp://www.thebeatles.com/
        The Rolling Stones\tactive\t4 members\t-
        Nirvana\tdisbanded\t3 members\thttps://www.nirvana.com
        Foo Fighters\tactive\t3 members\thttps://foofighters.com
        Sigur Rós\thiatus\t2 members\t-
        bands: 5
        members: 16
        oldest member: Ringo Starr (1940-07-07)
        last_updated: 2016-05-17T22:43:04Z

        """

    static func temporaryFile(_ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("spool-cli-\(UUID()).json")
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test func bandsDecodesTheSampleFromAFileOrStandardInput() throws {
        let fromFile = try Spool.run(["bands", "Examples/bands.json"])
        #expect(fromFile.status == 0)
        #expect(fromFile.stdout == Self.sampleOutput)
        #expect(fromFile.stderr.isEmpty)  // no progress bar on a pipe
        let sample = try Data(contentsOf: Spool.repository.appendingPathComponent("Examples/bands.json"))
        let fromStdin = try Spool.run(["bands", "--summary", "-"], stdin: sample)
        #expect(fromStdin.stdout == Self.sampleOutput.components(separatedBy: "\n").suffix(5).joined(separator: "\n"))
    }

    @Test func bandsDecodesTheTutorialsCatalogVerbatim() throws {
        let run = try Spool.run(["bands", "Tests/SpoolTests/Fixtures/himotoki-tutorial/bands.json"])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        #expect(
            run.stdout == """
                Beatles\tdisbanded\t4 members\thttp://www.thebeatles.com/
                The Rolling Stones\tactive\t4 members\t-
                bands: 2
                members: 8
                oldest member: Ringo Starr (1940-07-07)
                last_updated: 2016-05-17T22:43:04Z

                """)
    }

    @Test func itemsAndCountCrossEveryElementOfAWildcard() throws {
        let items = try Spool.run(["items", "objects[*].members", "Examples/bands.json"])
        #expect(items.status == 0)
        let lines = items.stdout.split(separator: "\n")
        #expect(lines.count == 16)
        #expect(lines.first == #"{"name":"George Harrison","birth_date":"1943-02-25"}"#)
        #expect(lines.last == #"{"name":"Georg Hólm","birth_date":"1976-04-06"}"#)
        let count = try Spool.run(["count", "objects[*].members", "Examples/bands.json"])
        #expect(count.stdout == "16\n")
        let none = try Spool.run(["count", "objects[*].members"], stdin: Data(#"{"objects": []}"#.utf8))
        #expect(none.status == 0 && none.stdout == "0\n")
        let missing = try Spool.run(["items", "a[*].b"], stdin: Data(#"{"a": [{"b": [1]}, {"c": []}]}"#.utf8))
        #expect(missing.status == 1)
        #expect(missing.stdout == "1\n")
        #expect(missing.stderr.contains(#"<stdin>:1:20: error: missing key "b" in a[1] (streaming a[*].b); did you mean "c"?"#), "\(missing.stderr)")
    }

    @Test func itemsPrintsWhereEachElementLies() throws {
        let run = try Spool.run(["items", "--offsets", "objects[*].members"], stdin: Data("{\"objects\": [{\"members\": [1, \"two\"]},\n {\"members\": [[3]]}]}".utf8))
        #expect(run.status == 0)
        #expect(
            run.stdout == """
                {"path":"objects[0].members[0]","offset":26,"end":27,"line":1,"column":27,"value":1}
                {"path":"objects[0].members[1]","offset":29,"end":null,"line":1,"column":30,"value":"two"}
                {"path":"objects[1].members[0]","offset":52,"end":55,"line":2,"column":15,"value":[3]}

                """)
    }

    @Test func bandsEscapesControlCharactersInNames() throws {
        let run = try Spool.run(
            ["bands"], stdin: Data(#"{"objects": [{"name": "A\nfake: 1\u001b[2J\tB", "active": "active", "members": []}]}"#.utf8))
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("A\\u{a}fake: 1\\u{1b}[2J\\u{9}B\tactive\t0 members\t-\nbands: 1\n"))
    }

    @Test func bandsSkipsInvalidBandsWhenAsked() throws {
        let file = try Self.temporaryFile(
            #"{"objects": [{"name": "A", "active": "active", "members": []}, {"name": "B", "active": "paused", "members": []}]}"#)
        defer { try? FileManager.default.removeItem(at: file) }
        let strict = try Spool.run(["bands", file.path])
        #expect(strict.status == 1)
        #expect(strict.stderr.contains(#"error: expected Status at objects[1].active, found string "paused""#))
        let lenient = try Spool.run(["bands", "--skip-invalid", file.path])
        #expect(lenient.status == 1)  // the rest is read, but something was skipped
        #expect(lenient.stdout == "A\tactive\t0 members\t-\nbands: 1\nmembers: 0\nskipped: 1\n")
        #expect(lenient.stderr.contains("(band skipped)"))
        let clean = try Spool.run(["bands", "--skip-invalid", "--summary", "Examples/bands.json"])
        #expect(clean.status == 0)
        #expect(clean.stdout.hasSuffix("last_updated: 2016-05-17T22:43:04Z\nskipped: 0\n"))
    }

    @Test func itemsPrintsCompactJSONLines() throws {
        let run = try Spool.run(["items", "objects[0].members", "Examples/bands.json"])
        #expect(run.status == 0)
        #expect(
            run.stdout == """
                {"name":"George Harrison","birth_date":"1943-02-25"}
                {"name":"John Lennon","birth_date":"1940-10-09"}
                {"name":"Paul McCartney","birth_date":"1942-06-18"}
                {"name":"Ringo Starr","birth_date":"1940-07-07"}

                """)
        let exact = try Spool.run(["items", "."], stdin: Data(#"[1.50e+3, "a\"b\\c\u0001\u00e9", {"k": [true, null]}]"#.utf8))
        #expect(exact.stdout == "1.50e+3\n\"a\\\"b\\\\c\\u0001é\"\n{\"k\":[true,null]}\n")
        let ndjson = try Spool.run(["items", "--ndjson", "."], stdin: Data("{\"a\": 1}\n\n[2, 3]\n".utf8))
        #expect(ndjson.stdout == "{\"a\":1}\n[2,3]\n")
        let quoted = try Spool.run(["items", #"["first.name"]"#], stdin: Data(#"{"first.name": [1]}"#.utf8))
        #expect(quoted.stdout == "1\n")
    }

    @Test func membersPrintsKeyValueRecords() throws {
        let run = try Spool.run(["members", "a"], stdin: Data(#"{"a": {"b": 1, "c\n": [1, 2.50], "d": {"e": null}}}"#.utf8))
        #expect(run.status == 0)
        #expect(run.stdout == "{\"key\":\"b\",\"value\":1}\n{\"key\":\"c\\n\",\"value\":[1,2.50]}\n{\"key\":\"d\",\"value\":{\"e\":null}}\n")
        let root = try Spool.run(["members", "."], stdin: Data(#"{"x": "y"}"#.utf8))
        #expect(root.stdout == "{\"key\":\"x\",\"value\":\"y\"}\n")
    }

    @Test func itemsAndMembersPointToEachOther() throws {
        let items = try Spool.run(["items", "a"], stdin: Data(#"{"a": {"b": 1}}"#.utf8))
        #expect(items.status == 1)
        #expect(items.stderr == "<stdin>:1:7: error: expected array at a to stream a, found '{'; spool members streams an object's members\n")
        let members = try Spool.run(["members", "a"], stdin: Data(#"{"a": [1]}"#.utf8))
        #expect(members.status == 1)
        #expect(members.stderr == "<stdin>:1:7: error: expected object at a to stream a, found '['; spool items streams an array's elements\n")
    }

    @Test func errorsNameTheFlagsThatChangeThem() throws {
        let deep = try Spool.run(["validate", "--max-depth", "2"], stdin: Data("[[[1]]]".utf8))
        #expect(deep.stderr.hasPrefix("<stdin>:1:3: error: nesting is deeper than the maximum depth of 2 (--max-depth) (at [0][0])\n"))
        let long = try Spool.run(["validate", "--max-string-length", "3"], stdin: Data(#"["abcd"]"#.utf8))
        #expect(long.stderr.contains("(--max-string-length)"))
        let comment = try Spool.run(["validate"], stdin: Data("[1] // one".utf8))
        #expect(comment.stderr.contains("comments are not allowed (--allow-comments)"))
        let concatenated = try Spool.run(["validate"], stdin: Data("{\"a\": 1}\n{\"a\": 2}\n".utf8))
        #expect(concatenated.status == 1)
        #expect(
            concatenated.stderr.hasPrefix(
                "<stdin>:2:1: error: expected end of input after the top-level value, found '{' (several top-level values, as in NDJSON, need --ndjson)\n"))
        let garbage = try Spool.run(["validate"], stdin: Data("[1] x".utf8))
        #expect(!garbage.stderr.contains("--ndjson"))  // 'x' starts no value: no hint
    }

    @Test func ndjsonWithAPathStreamsEveryValue() throws {
        let input = Data("{\"objects\":[1,2]}\n{\"objects\":[3,4]}\n".utf8)
        let items = try Spool.run(["items", "objects", "--ndjson"], stdin: input)
        #expect(items.status == 0)
        #expect(items.stdout == "1\n2\n3\n4\n")  // jq -c '.objects[]' gives the same
        #expect(try Spool.run(["count", "objects", "--ndjson"], stdin: input).stdout == "4\n")
        let missing = try Spool.run(["count", "objects", "--ndjson"], stdin: Data("{\"objects\":[1]}\n{\"x\":[]}\n".utf8))
        #expect(missing.status == 1)
        #expect(missing.stderr == "<stdin>:2:1: error: missing key \"objects\" in [1] (streaming objects)\n")
        let members = try Spool.run(["members", "o", "--ndjson"], stdin: Data("{\"o\":{\"a\":1}}\n{\"o\":{\"b\":2}}\n".utf8))
        #expect(members.stdout == "{\"key\":\"a\",\"value\":1}\n{\"key\":\"b\",\"value\":2}\n")
    }

    /// A UTF-8 byte order mark at the start is skipped, as jq skips it.
    @Test func aByteOrderMarkIsSkipped() throws {
        let input = Data([0xEF, 0xBB, 0xBF] + Array(#"{"objects": [1, 2, 3]}"#.utf8))
        let count = try Spool.run(["count", "objects"], stdin: input)
        #expect(count.status == 0)
        #expect(count.stdout == "3\n")
        #expect(try Spool.run(["fmt", "--compact"], stdin: input).stdout == #"{"objects":[1,2,3]}"# + "\n")
    }

    /// Issue 22: the members of every top-level value, not only the first's.
    @Test func ndjsonMembersAtTheRootStreamEveryValue() throws {
        let members = try Spool.run(["members", ".", "--ndjson"], stdin: Data("{\"a\":1}\n{\"b\":2}\n\n{}\n{\"c\":3}\n".utf8))
        #expect(members.status == 0)
        #expect(members.stdout == "{\"key\":\"a\",\"value\":1}\n{\"key\":\"b\",\"value\":2}\n{\"key\":\"c\",\"value\":3}\n")
        let array = try Spool.run(["members", ".", "--ndjson"], stdin: Data("{\"a\":1}\n[2]\n".utf8))
        #expect(array.status == 1)
        #expect(array.stdout == "{\"key\":\"a\",\"value\":1}\n")
        #expect(array.stderr.hasPrefix("<stdin>:2:1: error: expected object at [1] to stream ."))
    }

    @Test func fmtReformatsPrettyCompactOrAsLines() throws {
        let input = Data(#"{"a":[1,2.50,{"b":null}],"c":"x/y\u00e9","d":{},"e":[]}"#.utf8)
        let pretty = try Spool.run(["fmt"], stdin: input)
        #expect(pretty.status == 0)
        #expect(
            pretty.stdout == """
                {
                  "a" : [
                    1,
                    2.50,
                    {
                      "b" : null
                    }
                  ],
                  "c" : "x/yé",
                  "d" : {

                  },
                  "e" : [

                  ]
                }

                """)
        let compact = try Spool.run(["fmt", "--compact"], stdin: input)
        #expect(compact.stdout == #"{"a":[1,2.50,{"b":null}],"c":"x/yé","d":{},"e":[]}"# + "\n")
        let four = try Spool.run(["fmt", "--indent", "4"], stdin: Data("[1]".utf8))
        #expect(four.stdout == "[\n    1\n]\n")
        let lines = try Spool.run(["fmt", "--ndjson"], stdin: Data("{\"a\": 1}\n\n[2, 3]\n".utf8))
        #expect(lines.stdout == "{\"a\":1}\n[2,3]\n")
        #expect(try Spool.run(["fmt", "--indent", "17"], stdin: input).status == 64)
        let bad = try Spool.run(["fmt", "--compact"], stdin: Data("[1, 2,, 3]".utf8))
        #expect(bad.status == 1)
        #expect(bad.stdout.isEmpty)  // the document is its one line: nothing of it
        #expect(bad.stderr.hasPrefix("<stdin>:1:7: error: expected a value, found ','"))
    }

    /// What was written before an error stays whole lines, as with items: the output ends at
    /// a line boundary, the error is located on stderr, the status is 1.
    @Test func fmtKeepsWholeLinesBeforeAnError() throws {
        let lines = try Spool.run(["fmt", "--ndjson"], stdin: Data("{\"a\":1}\n{\"a\":2}\n{\"a\":3".utf8))
        #expect(lines.status == 1)
        #expect(lines.stdout == "{\"a\":1}\n{\"a\":2}\n")
        #expect(lines.stderr.hasPrefix("<stdin>:3:7: error: unexpected end of input"))
        let pretty = try Spool.run(["fmt"], stdin: Data(#"{"a":[1,2,"#.utf8))
        #expect(pretty.status == 1)
        #expect(pretty.stdout == "{\n  \"a\" : [\n    1,\n")
        #expect(pretty.stderr.hasPrefix("<stdin>:1:11: error: unexpected end of input"))
        let compact = try Spool.run(["fmt", "--compact"], stdin: Data(#"{"a":[1,2,"#.utf8))
        #expect(compact.status == 1)
        #expect(compact.stdout.isEmpty)
        // Far past the 64 KiB the writer holds: still whole lines, whatever the layout. (Files,
        // not standard input: the test writes all of its input before it reads the output.)
        var many = ""
        for index in 0..<5_000 { many += #"{"line": \#(index), "text": "some text to fill the line"}"# + "\n" }
        let broken = try Self.temporaryFile(many + #"{"line": 5000, "text": "#)
        defer { try? FileManager.default.removeItem(at: broken) }
        let longLines = try Spool.run(["fmt", "--ndjson", broken.path])
        #expect(longLines.status == 1)
        #expect(longLines.stdout == many.replacingOccurrences(of: ": ", with: ":").replacingOccurrences(of: ", ", with: ","))
        let array = try Self.temporaryFile("[" + many.replacingOccurrences(of: "}\n", with: "},") + #"{"line": 5000, "text": "#)
        defer { try? FileManager.default.removeItem(at: array) }
        let longPretty = try Spool.run(["fmt", array.path])
        #expect(longPretty.status == 1)
        #expect(longPretty.stdout.utf8.count > 300_000)
        #expect(longPretty.stdout.hasSuffix("\"some text to fill the line\"\n  },\n  {\n    \"line\" : 5000,\n"))
        // A line past 1 MiB may go out in pieces: if the input breaks inside it, it ends there.
        let huge = try Self.temporaryFile("[" + String(repeating: #""0123456789abcdef","#, count: 200_000))
        defer { try? FileManager.default.removeItem(at: huge) }
        let cut = try Spool.run(["fmt", "--compact", huge.path])
        #expect(cut.status == 1)
        #expect(cut.stdout.hasPrefix("[\"0123456789abcdef\","))
        #expect(cut.stdout.hasSuffix("\"0123456789abcdef\"\n"))
        #expect(cut.stdout.filter { $0 == "\n" }.count == 1)
    }

    /// Indentation stops growing at 64 spaces: deep nesting cannot multiply the output by
    /// indent x depth (511 levels at --indent 16 gave 4 MB for 1 KB; jq stops at 256).
    @Test func fmtIndentationStopsGrowingAt64Spaces() throws {
        let deep = String(repeating: "[", count: 511) + String(repeating: "]", count: 511)
        for indent in ["2", "16"] {
            let run = try Spool.run(["fmt", "--indent", indent], stdin: Data(deep.utf8))
            #expect(run.status == 0)
            let lines = run.stdout.split(separator: "\n")
            #expect(lines.count == 1022)
            #expect(lines.map(\.utf8.count).max() == 65)  // 64 spaces and a bracket
            #expect(run.stdout.utf8.count <= 66 * deep.utf8.count)
            let tokens = try Spool.run(["fmt", "--compact"], stdin: Data(run.stdout.utf8))
            #expect(tokens.stdout == deep + "\n")  // the same JSON
        }
        // Below the limit, nothing changes: 32 levels at --indent 2.
        let shallow = String(repeating: "[", count: 33) + String(repeating: "]", count: 33)
        let lines = try Spool.run(["fmt"], stdin: Data(shallow.utf8)).stdout.split(separator: "\n")
        #expect(lines.map(\.utf8.count) == (0..<33).map { 2 * $0 + 1 } + (0..<33).reversed().map { 2 * $0 + 1 })
    }

    @Test func fmtOfTheSampleReadsBackToTheSameTokens() throws {
        let compact = try Spool.run(["fmt", "--compact", "Examples/bands.json"])
        let items = try Spool.run(["items", "--ndjson", "."], stdin: Data(compact.stdout.utf8))
        #expect(items.stdout == compact.stdout)  // compact JSON is a fixed point of both
        let again = try Spool.run(["fmt", "--compact"], stdin: Data(try Spool.run(["fmt"], stdin: Data(compact.stdout.utf8)).stdout.utf8))
        #expect(again.stdout == compact.stdout)
    }

    @Test func versionIsPrinted() throws {
        let run = try Spool.run(["--version"])
        #expect(run.status == 0)
        #expect(run.stdout == "0.1.0\n")
    }

    @Test func countCountsElementsOrMembers() throws {
        #expect(try Spool.run(["count", "objects", "Examples/bands.json"]).stdout == "5\n")
        #expect(try Spool.run(["count", ".", "Examples/bands.json"]).stdout == "2\n")
        #expect(try Spool.run(["count", "objects[1].members", "Examples/bands.json"]).stdout == "4\n")
        #expect(try Spool.run(["count", "--ndjson", "."], stdin: Data("1\n\n2\n3\n".utf8)).stdout == "3\n")
    }

    @Test func exitCodes() throws {
        let invalid = try Spool.run(["items", "objects"], stdin: Data(#"{"objects": [1, 2,, 3]}"#.utf8))
        #expect(invalid.status == 1)
        #expect(invalid.stdout == "1\n2\n")  // what was written stays whole lines
        #expect(invalid.stderr.hasPrefix("<stdin>:1:19: error: expected a value, found ','"))
        let missing = try Spool.run(["count", "nope", "Examples/bands.json"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "Examples/bands.json:1:1: error: missing key \"nope\" (streaming nope)\n")
        let usage = try Spool.run(["items", "a..b", "Examples/bands.json"])
        #expect(usage.status == 64)
        #expect(usage.stderr == "spool: invalid path \"a..b\": empty key\n")
        #expect(try Spool.run(["count"]).status == 64)
        let unreadable = try Spool.run(["bands", "/nonexistent/catalog.json"])
        #expect(unreadable.status == 66)
        #expect(unreadable.stderr == "spool: cannot open '/nonexistent/catalog.json': No such file or directory\n")
        #expect(try Spool.run(["items", "objects", "/tmp"]).status == 66)
    }

    @Test func aClosedPipeEndsTheProgramQuietly() throws {
        let band = #"{"name": "B", "active": "active", "members": [{"name": "M", "birth_date": "1970-01-01"}]}"#
        let file = try Self.temporaryFile(#"{"objects": ["# + Array(repeating: band, count: 200_000).joined(separator: ",") + "]}")
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = Spool.executable
        process.arguments = ["items", "objects", file.path]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let first = output.fileHandleForReading.availableData
        #expect(first.starts(with: Data(#"{"name":"B""#.utf8)))
        try output.fileHandleForReading.close()  // like `| head -1`
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        #expect(errors.fileHandleForReading.readDataToEndOfFile().isEmpty)
    }
}

@Suite("Progress bar")
struct ProgressBarTests {
    /// Runs `command` under a pseudo-terminal (util-linux `script`), so stderr is a terminal.
    static func onTerminal(_ command: String, environment: [String: String]) throws -> String {
        try Spool.run(
            ["-qec", command, "/dev/null"], program: URL(fileURLWithPath: "/usr/bin/script"),
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }
        ).stdout
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func drawsOnATerminalAndNeverWhenAsked() throws {
        let band = #"{"name": "B", "active": "active", "members": [{"name": "M", "birth_date": "1970-01-01"}]}"#
        let file = try StreamingCommandTests.temporaryFile(
            #"{"objects": ["# + Array(repeating: band, count: 30_000).joined(separator: ",") + "]}")
        defer { try? FileManager.default.removeItem(at: file) }
        let shown = try Self.onTerminal(
            "\(Spool.executable.path) bands --summary \(file.path)", environment: ["SPOOL_PROGRESS_AFTER": "0"])
        #expect(shown.contains("%  "))
        #expect(shown.contains("MB/s  ETA "))
        #expect(shown.contains("bands: 30000"))
        // Both on the terminal: a command that prints while it reads draws no bar into its output.
        let both = try Self.onTerminal("\(Spool.executable.path) items objects \(file.path)", environment: ["SPOOL_PROGRESS_AFTER": "0"])
        #expect(both.contains(#"{"name":"B""#))
        #expect(!both.contains("MB/s"))
        let toFile = try Self.onTerminal(
            "\(Spool.executable.path) items objects \(file.path) > /dev/null", environment: ["SPOOL_PROGRESS_AFTER": "0"])
        #expect(toFile.contains("MB/s"))
        let quiet = try Self.onTerminal(
            "\(Spool.executable.path) bands --summary --no-progress \(file.path)", environment: ["SPOOL_PROGRESS_AFTER": "0"])
        #expect(!quiet.contains("MB/s"))
        let stdin = try Self.onTerminal(
            "cat \(file.path) | \(Spool.executable.path) items objects > /dev/null", environment: ["SPOOL_PROGRESS_AFTER": "0"])
        #expect(stdin.contains("MB read  "))
        // The bar is cleared before a result is written on its line (issue 22: `count` printed
        // its result onto the bar, `ETA 0:0123550`, then cleared the line with it).
        let counted = try Self.onTerminal("\(Spool.executable.path) count objects \(file.path)", environment: ["SPOOL_PROGRESS_AFTER": "0"])
        #expect(counted.contains("MB/s"))
        let clear = try #require(counted.range(of: "\r\u{1B}[K", options: .backwards))
        let result = try #require(counted.range(of: "30000"))
        #expect(clear.upperBound <= result.lowerBound, "\(counted.debugDescription)")
    }
}
