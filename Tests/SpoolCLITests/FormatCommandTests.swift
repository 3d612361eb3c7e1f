import Foundation
import Testing

/// `spool fmt --jq-style` and `--sort-keys` (issue 24, item 6): jq's layout and jq's key
/// order, with numbers kept as written.
@Suite("spool fmt --jq-style, --sort-keys")
struct FormatCommandTests {
    static let nested = #"{"a":[1,2.50,{"b":null}],"c":"x/y\u00e9\u007f\u001f","d":{},"e":[],"f":[{},[],[[]],{"g":{}}],"h":{"i":{}}}"#

    @Test func jqStyleLaysOutAsJq() throws {
        let run = try Spool.run(["fmt", "--jq-style"], stdin: Data(Self.nested.utf8))
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        // jq 1.6 writes the same, but 2.5 for 2.50.
        #expect(
            run.stdout == #"""
                {
                  "a": [
                    1,
                    2.50,
                    {
                      "b": null
                    }
                  ],
                  "c": "x/yé\u007f\u001f",
                  "d": {},
                  "e": [],
                  "f": [
                    {},
                    [],
                    [
                      []
                    ],
                    {
                      "g": {}
                    }
                  ],
                  "h": {
                    "i": {}
                  }
                }

                """#)
        let compact = #"{"a":[1,2.50,{"b":null}],"c":"x/yé\u007f\u001f","d":{},"e":[],"f":[{},[],[[]],{"g":{}}],"h":{"i":{}}}"# + "\n"
        #expect(try Spool.run(["fmt", "--jq-style", "--compact"], stdin: Data(Self.nested.utf8)).stdout == compact)
        #expect(try Spool.run(["fmt", "--jq-style", "--indent", "0"], stdin: Data(Self.nested.utf8)).stdout == compact)
        let four = try Spool.run(["fmt", "--jq-style", "--indent", "4"], stdin: Data(#"{"a":[1,{}],"b":{"c":[]}}"#.utf8))
        #expect(four.stdout == "{\n    \"a\": [\n        1,\n        {}\n    ],\n    \"b\": {\n        \"c\": []\n    }\n}\n")
        // Empty top-level containers, and scalars.
        #expect(try Spool.run(["fmt", "--jq-style"], stdin: Data("[]".utf8)).stdout == "[]\n")
        #expect(try Spool.run(["fmt", "--jq-style"], stdin: Data(" {} ".utf8)).stdout == "{}\n")
        #expect(try Spool.run(["fmt", "--jq-style"], stdin: Data("1.0e+2".utf8)).stdout == "1.0e+2\n")
        // Without the flag, the layout is JSONEncoder's, as before.
        #expect(try Spool.run(["fmt"], stdin: Data(#"{"d":{}}"#.utf8)).stdout == "{\n  \"d\" : {\n\n  }\n}\n")
    }

    /// With --ndjson, each value in jq's layout, as `jq .` writes a stream of values.
    @Test func jqStyleWritesEveryValueOfAStream() throws {
        let input = Data("{\"b\":1}\n[]\n\n{}\n\"x\"\n{\"a\":[{}],\"c\":{\"z\":1,\"y\":[]}}\n".utf8)
        let run = try Spool.run(["fmt", "--jq-style", "--ndjson"], stdin: input)
        #expect(run.status == 0)
        #expect(
            run.stdout == """
                {
                  "b": 1
                }
                []
                {}
                "x"
                {
                  "a": [
                    {}
                  ],
                  "c": {
                    "z": 1,
                    "y": []
                  }
                }

                """)
        let sorted = try Spool.run(["fmt", "--jq-style", "--ndjson", "--sort-keys", "--compact"], stdin: input)
        #expect(sorted.stdout == "{\"b\":1}\n[]\n{}\n\"x\"\n{\"a\":[{}],\"c\":{\"y\":[],\"z\":1}}\n")
        let lines = try Spool.run(["fmt", "--ndjson", "--sort-keys"], stdin: input)
        #expect(lines.stdout == sorted.stdout)
    }

    /// Keys in the order of their code points, as `jq -S`: not UTF-16's (which puts U+1F600
    /// before U+FF5E), and with escaped keys compared unescaped (`\n` first).
    @Test func sortKeysOrdersByCodePoint() throws {
        let input = Data(
            #"{"b":1,"a":2,"\u00e9":3,"e\u0301":4,"Z":5,"_":6,"\uff5e":7,"\ud83d\ude00":8,"\n":9,"A":{"y":[{"d":1,"c":2}],"x":{}}}"#.utf8)
        let compact = try Spool.run(["fmt", "--sort-keys", "--compact"], stdin: input)
        #expect(compact.status == 0)
        #expect(compact.stdout == #"{"\n":9,"A":{"x":{},"y":[{"c":2,"d":1}]},"Z":5,"_":6,"a":2,"b":1,"é":4,"é":3,"～":7,"😀":8}"# + "\n")
        #expect(try Spool.run(["fmt", "--sort-keys", "--compact", "--jq-style"], stdin: input).stdout == compact.stdout)
        let pretty = try Spool.run(["fmt", "--sort-keys", "--indent", "1"], stdin: Data(#"{"b":{"d":[],"c":1},"a":{}}"#.utf8))
        #expect(pretty.stdout == "{\n \"a\" : {\n\n },\n \"b\" : {\n  \"c\" : 1,\n  \"d\" : [\n\n  ]\n }\n}\n")
        let jq = try Spool.run(["fmt", "--sort-keys", "--jq-style"], stdin: Data(#"{"b":{"d":[],"c":1},"a":{}}"#.utf8))
        #expect(jq.stdout == "{\n  \"a\": {},\n  \"b\": {\n    \"c\": 1,\n    \"d\": []\n  }\n}\n")
    }

    /// Sorting moves members whole: numbers keep their text and strings their escapes.
    @Test func sortKeysKeepsValuesExact() throws {
        let input = #"{"z":1.0e+2,"y":-0,"x":1E400,"w":123456789012345678901234567890,"v":"\u00e9\/\"\t","u":[0.10,{"t":2.50,"s":true}]}"#
        let sorted = try Spool.run(["fmt", "--sort-keys", "--compact"], stdin: Data(input.utf8))
        #expect(
            sorted.stdout
                == #"{"u":[0.10,{"s":true,"t":2.50}],"v":"é/\"\t","w":123456789012345678901234567890,"x":1E400,"y":-0,"z":1.0e+2}"# + "\n")
        // The same members as without --sort-keys, each byte for byte.
        let unsorted = try Spool.run(["fmt", "--compact"], stdin: Data(input.utf8)).stdout
        for member in [#""w":123456789012345678901234567890"#, #""v":"é/\"\t""#, #""x":1E400"#, #""z":1.0e+2"#] {
            #expect(unsorted.contains(member) && sorted.stdout.contains(member), "\(member)")
        }
    }

    /// Members with the same key are all kept, in input order; jq keeps one, with the last
    /// value (`{"a":2,"b":3}`).
    @Test func sortKeysKeepsDuplicateKeys() throws {
        let input = Data(#"{"b":1,"a":2,"b":3}"#.utf8)
        #expect(try Spool.run(["fmt", "--sort-keys", "--compact"], stdin: input).stdout == #"{"a":2,"b":1,"b":3}"# + "\n")
        #expect(try Spool.run(["fmt", "--compact"], stdin: input).stdout == #"{"b":1,"a":2,"b":3}"# + "\n")
    }

    /// Invalid input: what was written stays whole lines, as without the flags; the members
    /// of a sorted object still open are not written (they were not in order yet).
    @Test func anErrorKeepsWholeLines() throws {
        let jq = try Spool.run(["fmt", "--jq-style"], stdin: Data(#"[{"a":[1,2,"#.utf8))
        #expect(jq.status == 1)
        #expect(jq.stdout == "[\n  {\n    \"a\": [\n      1,\n")
        #expect(jq.stderr.hasPrefix("<stdin>:1:12: error: unexpected end of input"))
        let sorted = try Spool.run(["fmt", "--sort-keys"], stdin: Data(#"[1, {"b":1,"a":"#.utf8))
        #expect(sorted.status == 1)
        #expect(sorted.stdout == "[\n  1,\n  {\n")
        #expect(sorted.stderr.hasPrefix("<stdin>:1:16: error: unexpected end of input"))
        let sortedJQ = try Spool.run(["fmt", "--sort-keys", "--jq-style"], stdin: Data(#"[1, {"b":1,"a":{"d":1,"c":"#.utf8))
        #expect(sortedJQ.stdout == "[\n  1,\n  {\n")
        let sortedCompact = try Spool.run(["fmt", "--sort-keys", "--compact"], stdin: Data(#"[1, {"b":1,"a":"#.utf8))
        #expect(sortedCompact.stdout.isEmpty)
    }

    static let jq = "/usr/bin/jq"
    static var corpus: URL { Spool.repository.deletingLastPathComponent().appendingPathComponent("shared/testdata/corpus") }

    /// `text` with every number replaced by `N`: to compare layouts where jq rewrites numbers.
    static func withoutNumbers(_ text: String) -> String {
        var out: [UInt8] = []
        let bytes = Array(text.utf8)
        var index = 0
        let numberBytes = Set("0123456789.eE+-".utf8)
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                while index < bytes.count && numberBytes.contains(bytes[index]) { index += 1 }
                out.append(UInt8(ascii: "N"))
            } else {
                out.append(byte)
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Byte for byte what jq writes, on the sample and (when they are beside the repository)
    /// the corpus documents; canada.json, all numbers, with its numbers set aside.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: jq)))
    func jqStyleIsJqsOutput() throws {
        var files = [(Spool.repository.appendingPathComponent("Examples/bands.json").path, true)]
        for (name, exact) in [("twitter.json", true), ("citm_catalog.json", true), ("canada.json", false)] {
            let path = Self.corpus.appendingPathComponent(name).path
            if FileManager.default.fileExists(atPath: path) { files.append((path, exact)) }
        }
        for (path, exact) in files {
            for (spoolFlags, jqFlags) in [([], []), (["--sort-keys"], ["-S"]), (["--compact"], ["-c"]), (["--indent", "4"], ["--indent", "4"])] {
                let spool = try Spool.run(["fmt", "--jq-style"] + spoolFlags + [path])
                let jq = try Spool.run(jqFlags + [".", path], program: URL(fileURLWithPath: Self.jq))
                #expect(spool.status == 0 && jq.status == 0)
                if exact {
                    #expect(spool.stdout == jq.stdout, "\(path) \(spoolFlags)")
                } else {
                    #expect(spool.stdout != jq.stdout, "\(path): numbers written as jq writes them")
                    #expect(Self.withoutNumbers(spool.stdout) == Self.withoutNumbers(jq.stdout), "\(path) \(spoolFlags)")
                }
            }
        }
        let escapes = Data(#"{"k":"\u007f\u0000\u001f\b\f\n\r\t\"\\\/ \u2028 \ud83d\ude00"}"#.utf8)
        let spool = try Spool.run(["fmt", "--jq-style"], stdin: escapes)
        let jq = try Spool.run(["."], stdin: escapes, program: URL(fileURLWithPath: Self.jq))
        #expect(spool.stdout == jq.stdout)
    }
}
