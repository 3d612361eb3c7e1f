import Foundation
import Testing
@testable import Spool

/// `JSONWriter.Format.Layout.jq(indent:)` (jq's layout) and `Format.sortsKeys` (members in
/// code point order of their keys, as `jq -S`), through the writer's calls, `copy(from:)` and
/// `StreamingJSONEncoder`.
@Suite("JSONWriter: jq's layout and sorted keys")
struct JSONWriterJQLayoutTests {
    /// `json` copied through a writer in `format`.
    func copied(_ json: String, _ format: JSONWriter.Format, options: JSONParsingOptions = .init()) throws -> String {
        try written(format) { try $0.copy(from: JSONReader(.string(json), options: options)) }
    }

    @Test func theWritersCallsInJQsLayout() throws {
        let text = try written(.jq()) { writer in
            try writer.beginObject()
            try writer.key("name")
            try writer.string("Sigur Rós/\u{7F}")
            try writer.key("tags")
            try writer.beginArray()
            try writer.endArray()
            try writer.key("extra")
            try writer.beginObject()
            try writer.endObject()
            try writer.key("members")
            try writer.beginArray()
            try writer.beginObject()
            try writer.key("name")
            try writer.string("Jónsi")
            try writer.endObject()
            try writer.beginArray()
            try writer.beginArray()
            try writer.endArray()
            try writer.endArray()
            try writer.endArray()
            try writer.key("formed")
            try writer.number(1994)
            try writer.endObject()
        }
        #expect(
            text == #"""
                {
                  "name": "Sigur Rós/\u007f",
                  "tags": [],
                  "extra": {},
                  "members": [
                    {
                      "name": "Jónsi"
                    },
                    [
                      []
                    ]
                  ],
                  "formed": 1994
                }

                """#)
        // Indent 0 is compact, as jq -c; slashes stay escaped when the format says so.
        #expect(try copied(#"{"a":[{},[]],"b":"/"}"#, JSONWriter.Format(.jq(indent: 0), escapesSlashes: false)) == #"{"a":[{},[]],"b":"/"}"# + "\n")
        #expect(try copied(#"{"b":"/"}"#, JSONWriter.Format(.jq(indent: 2))) == "{\n  \"b\": \"\\/\"\n}\n")
        // U+007F is escaped in jq's layout only, as jq and JSONEncoder write it.
        #expect(try copied("\"\u{7F}\"", .jq()) == "\"\\u007f\"\n")
        #expect(try copied("\"\u{7F}\"", .pretty()) == "\"\u{7F}\"")
        #expect(try copied("\"a\u{7F}bcdefghijklmnop\u{7F}\"", .jq(indent: 0)) == "\"a\\u007fbcdefghijklmnop\\u007f\"\n")
    }

    /// Any number of top-level values, each followed by a line feed, as jq writes a stream.
    @Test func jqsLayoutWritesAStreamOfValues() throws {
        var options = JSONParsingOptions()
        options.allowsMultipleValues = true
        #expect(try copied("{\"a\":[]}\n1\n{}", .jq(), options: options) == "{\n  \"a\": []\n}\n1\n{}\n")
        #expect(try copied("", .jq(), options: options) == "")
        let writer = JSONWriter(format: .jq())
        try writer.writeLines([["b": 1], [:]])
        try writer.finish()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "{\n  \"b\": 1\n}\n{}\n")
    }

    @Test func sortedKeysInCodePointOrder() throws {
        // Code points (UTF-8 bytes), not UTF-16 units: U+FF5E before U+1F600; `\n` (written
        // escaped) by its own byte, first; the decomposed é (e, U+0301) before the composed one.
        let keys = ["b", "a", "\u{E9}", "e\u{301}", "Z", "_", "\u{FF5E}", "\u{1F600}", "\n", "A"]
        for format in [JSONWriter.Format(.compact, sortsKeys: true), JSONWriter.Format(.lines, sortsKeys: true)] {
            let text = try written(format) { writer in
                try writer.beginObject()
                for (index, key) in keys.enumerated() {
                    try writer.key(key)
                    try writer.number(index)
                }
                try writer.endObject()
            }
            #expect(text.hasPrefix(#"{"\n":8,"A":9,"Z":4,"_":5,"a":1,"b":0,"é":3,"é":2,"～":6,"😀":7}"#), "\(format)")
        }
    }

    /// Nested objects sort their own members; arrays keep their order; duplicate keys stay,
    /// in the order written; values are moved byte for byte.
    @Test func sortedKeysInEveryLayout() throws {
        let json = #"{"z":{"y":1.0e+2,"x":[{"d":"\u00e9\/","c":[]}]},"b":1,"a":{},"b":-0}"#
        #expect(try copied(json, JSONWriter.Format(.compact, sortsKeys: true)) == #"{"a":{},"b":1,"b":-0,"z":{"x":[{"c":[],"d":"é\/"}],"y":1.0e+2}}"#)
        #expect(
            try copied(json, JSONWriter.Format(.jq(indent: 2), escapesSlashes: false, sortsKeys: true)) == """
                {
                  "a": {},
                  "b": 1,
                  "b": -0,
                  "z": {
                    "x": [
                      {
                        "c": [],
                        "d": "é/"
                      }
                    ],
                    "y": 1.0e+2
                  }
                }

                """)
        #expect(
            try copied(json, JSONWriter.Format(.pretty(indent: 1), sortsKeys: true)) == """
                {
                 "a" : {

                 },
                 "b" : 1,
                 "b" : -0,
                 "z" : {
                  "x" : [
                   {
                    "c" : [

                    ],
                    "d" : "é\\/"
                   }
                  ],
                  "y" : 1.0e+2
                 }
                }
                """)
    }

    /// An encoder writing into a writer in jq's layout: keys written twice, super encoders and
    /// containers continued put their bytes where jq's layout has them. Each output is the
    /// compact one laid out again by a writer in jq's layout; with `sortsKeys`, the sorted one.
    @Test(arguments: Twice.allCases)
    func anEncoderWritesJQsLayout(_ twice: Twice) throws {
        for (format, sorted) in [
            (JSONWriter.Format.jq(), false), (JSONWriter.Format.jq(indent: 3), false),
            (JSONWriter.Format(.jq(indent: 2), sortsKeys: true), true),
        ] {
            let compact = StreamingJSONEncoder()
            if sorted { compact.outputFormatting = .sortedKeys }
            let expected = Result { () throws -> String in
                let relaid = JSONWriter(format: JSONWriter.Format(format.layout, escapesSlashes: format.escapesSlashes))
                try relaid.copy(from: JSONReader(.data(try compact.encode(twice))))
                try relaid.finish()
                return String(decoding: relaid.bytes, as: UTF8.self)
            }
            let actual = Result { () throws -> String in
                let writer = JSONWriter(format: format)
                try StreamingJSONEncoder().encode(twice, to: writer)
                try writer.finish()
                return String(decoding: writer.bytes, as: UTF8.self)
            }
            switch (expected, actual) {
            case (.success(let expected), .success(let actual)): #expect(actual == expected, "\(format)")
            case (.failure, .failure): break
            default: Issue.record("\(format): compact \(expected), jq's layout \(actual)")
            }
        }
    }
}
