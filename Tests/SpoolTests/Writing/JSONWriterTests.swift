import Foundation
import Testing
@testable import Spool

@Suite("JSONWriter")
struct JSONWriterTests {
    /// A small document exercising every call.
    func document(_ writer: JSONWriter) throws {
        try writer.beginObject()
        try writer.key("name")
        try writer.string("Sigur Rós")
        try writer.key("formed")
        try writer.number(1994)
        try writer.key("members")
        try writer.beginArray()
        try writer.beginObject()
        try writer.key("name")
        try writer.string("Jónsi")
        try writer.endObject()
        try writer.endArray()
        try writer.key("tags")
        try writer.beginArray()
        try writer.endArray()
        try writer.key("extra")
        try writer.beginObject()
        try writer.endObject()
        try writer.key("active")
        try writer.bool(true)
        try writer.key("bio")
        try writer.null()
        try writer.endObject()
    }

    // MARK: - Formats

    @Test func compact() throws {
        #expect(try written(.compact, document) == #"{"name":"Sigur Rós","formed":1994,"members":[{"name":"Jónsi"}],"tags":[],"extra":{},"active":true,"bio":null}"#)
    }

    @Test func prettyIsJSONEncodersLayout() throws {
        #expect(try written(.pretty(), document) == """
            {
              "name" : "Sigur Rós",
              "formed" : 1994,
              "members" : [
                {
                  "name" : "Jónsi"
                }
              ],
              "tags" : [

              ],
              "extra" : {

              },
              "active" : true,
              "bio" : null
            }
            """)
    }

    @Test func prettyWithAnotherIndentWidth() throws {
        let text = try written(.pretty(indent: 4)) { writer in
            try writer.beginArray()
            try writer.number(1)
            try writer.beginArray()
            try writer.number(2)
            try writer.endArray()
            try writer.endArray()
        }
        #expect(text == "[\n    1,\n    [\n        2\n    ]\n]")
    }

    @Test func indentationStopsGrowingAtMaxIndentation() throws {
        let format = JSONWriter.Format(.pretty(indent: 2), maxIndentation: 5)  // two levels fit
        let text = try written(format) { writer in
            for _ in 0..<4 { try writer.beginArray() }
            try writer.number(1)
            for _ in 0..<4 { try writer.endArray() }
        }
        #expect(text == "[\n  [\n    [\n    [\n    1\n    ]\n    ]\n  ]\n]")
        #expect(JSONWriter.Format(.pretty(indent: 16), maxIndentation: 10).indentationLimit == 0)
        #expect(JSONWriter.Format(.compact, maxIndentation: 10).indentationLimit == .max)
        #expect(JSONWriter.Format.pretty().indentationLimit == .max)
    }

    @Test func anEncoderKeepsTheIndentationLimitInSortedObjects() throws {
        struct Node: Encodable {
            var name: String
            var children: [String: Node]
        }
        var model = Node(name: "leaf", children: [:])
        for depth in 0..<12 { model = Node(name: "level \(depth)", children: ["b": model, "a": Node(name: "x", children: [:])]) }
        let encoder = StreamingJSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let writer = JSONWriter(format: JSONWriter.Format(.pretty(indent: 4), maxIndentation: 8))
        try encoder.encode(model, to: writer)
        try writer.finish()
        let text = String(decoding: writer.bytes, as: UTF8.self)
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.sortedKeys, .prettyPrinted]
        let expected = String(decoding: try foundation.encode(model), as: UTF8.self)
        func unindented(_ text: String) -> [Substring] { text.split(separator: "\n").map { $0.drop(while: { $0 == " " }) } }
        #expect(unindented(text) == unindented(expected))
        let indents = text.split(separator: "\n").map { (line: Substring) in line.prefix(while: { $0 == " " }).count }
        #expect(indents.max() == 8)
    }

    @Test func prettyEmptyTopLevelContainersMatchJSONEncoder() throws {
        #expect(try written(.pretty()) { try $0.beginArray(); try $0.endArray() } == "[\n\n]")
        #expect(try written(.pretty()) { try $0.beginObject(); try $0.endObject() } == "{\n\n}")
        #expect(try written(.compact) { try $0.beginObject(); try $0.endObject() } == "{}")
    }

    @Test func linesPutEachTopLevelValueOnItsOwnLine() throws {
        let text = try written(.lines) { writer in
            try writer.beginObject()
            try writer.key("a")
            try writer.beginArray()
            try writer.number(1)
            try writer.endArray()
            try writer.endObject()
            try writer.number(2)
            try writer.string("three\nlines")
            try writer.null()
        }
        #expect(text == "{\"a\":[1]}\n2\n\"three\\nlines\"\nnull\n")
    }

    @Test func linesMayBeEmpty() throws {
        #expect(try written(.lines) { _ in } == "")
    }

    @Test func slashesAreEscapedUnlessDisabled() throws {
        #expect(try written { try $0.string("a/b") } == #""a\/b""#)
        #expect(try written(JSONWriter.Format(.compact, escapesSlashes: false)) { try $0.string("a/b") } == #""a/b""#)
    }

    // MARK: - Strings

    @Test func everyEscapeAsJSONEncoderWritesIt() throws {
        var text = ""
        for byte in 0..<0x20 { text.unicodeScalars.append(UnicodeScalar(UInt8(byte))) }
        text += "\"\\/\u{7F}é😀\u{2028}"
        let expected = try JSONEncoder().encode(text)
        let writer = JSONWriter()
        try writer.string(text)
        try writer.finish()
        #expect(writer.data == expected)
        #expect(String(decoding: writer.bytes, as: UTF8.self).contains(#"\u001f"#))
    }

    @Test(arguments: [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000])
    func escapesAtEveryPositionOfTheWordLoop(_ length: Int) throws {
        for special in ["\"", "\\", "/", "\n", "\u{1}", "é"] {
            for position in [0, length / 2, max(0, length - 1)] where length > 0 {
                var characters = Array(repeating: "x", count: length)
                characters[position] = special
                let text = characters.joined()
                let writer = JSONWriter()
                try writer.string(text)
                try writer.finish()
                #expect(writer.data == (try JSONEncoder().encode(text)), "\(length) \(position) \(special.debugDescription)")
            }
        }
    }

    @Test func rawUTF8StringsAreValidatedStrictly() throws {
        let writer = JSONWriter(format: .lines)
        try writer.string(utf8: Array("plain é 😀".utf8))
        for invalid: [UInt8] in [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80]] {
            #expect(throws: WriteError.self) { try writer.string(utf8: invalid) }
        }
        try writer.finish()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "\"plain é 😀\"\n")
    }

    @Test func rawUTF8KeysAreValidatedBeforeAnythingIsWritten() throws {
        let writer = JSONWriter()
        try writer.beginObject()
        let error = #expect(throws: WriteError.self) { try writer.key(utf8: [0x61, 0xFF]) }
        #expect(error?.code == .invalidValue)
        #expect(error?.description == "error: invalid UTF-8 in key at byte 1: unexpected byte 0xFF")
        try writer.key(utf8: Data("ok".utf8))
        try writer.number(1)
        try writer.endObject()
        try writer.finish()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"ok":1}"#)
    }

    // MARK: - Numbers

    @Test func integersOfEveryWidth() throws {
        let text = try written { writer in
            try writer.beginArray()
            try writer.number(0)
            try writer.number(Int8.min)
            try writer.number(Int16.min)
            try writer.number(Int32.min)
            try writer.number(Int64.min)
            try writer.number(Int64.max)
            try writer.number(UInt8.max)
            try writer.number(UInt16.max)
            try writer.number(UInt32.max)
            try writer.number(UInt64.max)
            try writer.number(UInt(9))
            try writer.number(Int128.min)
            try writer.number(UInt128.max)
            try writer.endArray()
        }
        #expect(text == "[0,-128,-32768,-2147483648,-9223372036854775808,9223372036854775807,255,65535,4294967295,18446744073709551615,9,-170141183460469231731687303715884105728,340282366920938463463374607431768211455]")
    }

    @Test func doublesAreShortestAndRoundTrip() throws {
        let values: [Double] = [0.1, 100, -0.0, 1e21, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 1.0 / 3, 2.5e-5, 123.456]
        let text = try written { writer in
            try writer.beginArray()
            for value in values { try writer.number(value) }
            try writer.endArray()
        }
        #expect(text == "[0.1,100,-0,1e+21,5e-324,1.7976931348623157e+308,0.3333333333333333,2.5e-05,123.456]")
        let decoded = try JSONDecoder().decode([Double].self, from: Data(text.utf8))
        #expect(decoded.map(\.bitPattern) == values.map(\.bitPattern))
    }

    @Test func floatsAreShortestForFloat() throws {
        #expect(try written { try $0.number(Float(0.1)) } == "0.1")
        #expect(try written { try $0.number(Float(16_777_216)) } == "16777216")
    }

    @Test func decimalsAreExact() throws {
        let decimal = try #require(Decimal(string: "12345678901234567890.123"))
        #expect(try written { try $0.number(decimal) } == "12345678901234567890.123")
        #expect(throws: WriteError.self) { try JSONWriter().number(Decimal.nan) }
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteNumbersAreRefused(_ value: Double) throws {
        let writer = JSONWriter()
        try writer.beginArray()
        let error = #expect(throws: WriteError.self) { try writer.number(value) }
        #expect(error?.code == .invalidValue)
        #expect(throws: WriteError.self) { try writer.number(Float(value)) }
        try writer.endArray()
        try writer.finish()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "[]")
    }

    @Test(arguments: ["0", "-0", "1E400", "0.10", "-12.5e+3", "123456789012345678901234567890", "1e-0"])
    func numberTextIsKeptExactly(_ text: String) throws {
        #expect(try written { try $0.number(text: text) } == text)
        #expect(try written { try $0.number(utf8: Array(text.utf8)) } == text)
    }

    @Test(arguments: ["", "-", "01", "1.", ".5", "1e", "1e+", "+1", "0x10", "1 ", "NaN", "Infinity", "1.5.2", "--1"])
    func malformedNumberTextIsRefused(_ text: String) throws {
        let writer = JSONWriter()
        let error = #expect(throws: WriteError.self) { try writer.number(text: text) }
        #expect(error?.code == .invalidValue)
        #expect(writer.bytes.isEmpty)
    }

    @Test func literalIntegersPickTheIntegerOverload() throws {
        #expect(try written { try $0.number(5) } == "5")
        #expect(try written { try $0.number(5.0) } == "5")
        #expect(try written { try $0.number(5.5) } == "5.5")
    }

    // MARK: - Misuse

    @Test func aValueWhereAKeyIsDue() throws {
        let writer = JSONWriter()
        try writer.beginObject()
        try writer.key("a")
        try writer.number(1)
        let error = #expect(throws: WriteError.self) { try writer.number(2) }
        #expect(error?.code == .misuse)
        #expect(error?.message == "a value where a key is due: write key(_:) first (in an object, after 1 member)")
        #expect(throws: WriteError.self) { try writer.beginArray() }
        try writer.endObject()
        try writer.finish()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"a":1}"#)
    }

    @Test func aKeyWhereAValueIsDue() throws {
        let writer = JSONWriter()
        #expect(throws: WriteError.self) { try writer.key("top") }
        try writer.beginArray()
        let inArray = #expect(throws: WriteError.self) { try writer.key("a") }
        #expect(inArray?.message == "a key in an array: keys belong in objects (in an array, after 0 elements)")
        try writer.beginObject()
        try writer.key("a")
        let twice = #expect(throws: WriteError.self) { try writer.key("b") }
        #expect(twice?.message == "a key where a value is due: the key before it has no value yet (in an object, after 0 members and a key)")
        let early = #expect(throws: WriteError.self) { try writer.endObject() }
        #expect(early?.message == "endObject() right after a key: write the key's value first")
        try writer.bool(false)
        try writer.endObject()
        try writer.endArray()
        try writer.finish()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"[{"a":false}]"#)
    }

    @Test func unbalancedEnds() throws {
        let writer = JSONWriter()
        #expect(throws: WriteError.self) { try writer.endArray() }
        try writer.beginArray()
        let wrong = #expect(throws: WriteError.self) { try writer.endObject() }
        #expect(wrong?.message == "endObject() inside an array: end it with endArray()")
        let unfinished = #expect(throws: WriteError.self) { try writer.finish() }
        #expect(unfinished?.message == "finish() with 1 container still open: end it first")
        try writer.endArray()
        try writer.finish()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "[]")
    }

    @Test func aSecondTopLevelValueOutsideLines() throws {
        for format in [JSONWriter.Format.compact, .pretty()] {
            let writer = JSONWriter(format: format)
            try writer.number(1)
            let error = #expect(throws: WriteError.self) { try writer.number(2) }
            #expect(error?.message == "a second top-level value: JSON text holds one (use Format.lines for one value per line)")
            try writer.finish()
            #expect(writer.bytes == Array("1".utf8))
        }
    }

    @Test func finishNeedsAValue() throws {
        let writer = JSONWriter()
        let error = #expect(throws: WriteError.self) { try writer.finish() }
        #expect(error?.message == "finish() before any value was written")
    }

    @Test func writingAfterFinish() throws {
        let writer = JSONWriter()
        try writer.null()
        try writer.finish()
        try writer.finish()  // a second finish does nothing
        #expect(writer.isFinished)
        let error = #expect(throws: WriteError.self) { try writer.beginArray() }
        #expect(error?.code == .closed)
        #expect(error?.description == "error: the writer is finished: nothing more can be written")
        #expect(writer.bytes == Array("null".utf8))
    }

    // MARK: - Going back

    @Test func rewindingDropsAValueStillInTheBuffer() throws {
        let writer = JSONWriter()
        try writer.beginArray()
        try writer.number(1)
        let mark = writer.checkpoint()
        try writer.beginObject()
        try writer.key("half")
        #expect(writer.rewind(to: mark, reason: "test"))
        try writer.number(2)
        try writer.endArray()
        try writer.finish()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "[1,2]")
    }

    // MARK: - Sorting (the encoder's .sortedKeys)

    @Test func sortedObjectsReorderMembersByTheirUTF8Bytes() throws {
        for format in [JSONWriter.Format.compact, .pretty()] {
            let writer = JSONWriter(format: format)
            try writer.beginSortedObject()
            for key in ["b", "a\"q", "é", "B", "a/b", "a", "a\u{1}", ""] {
                try writer.key(key)
                if key == "a" {
                    try writer.beginSortedObject()
                    try writer.key("z")
                    try writer.number(1)
                    try writer.key("y")
                    try writer.beginArray()
                    try writer.endArray()
                    try writer.endObject()
                } else {
                    try writer.string(key)
                }
            }
            try writer.endObject()
            try writer.finish()
            struct Key: CodingKey {
                var stringValue: String
                init(_ name: String) { stringValue = name }
                init?(stringValue: String) { self.stringValue = stringValue }
                var intValue: Int? { nil }
                init?(intValue: Int) { nil }
            }
            enum Value: Encodable {
                case text(String)
                case nested
                func encode(to encoder: any Encoder) throws {
                    switch self {
                    case .text(let text):
                        var container = encoder.singleValueContainer()
                        try container.encode(text)
                    case .nested:
                        var container = encoder.container(keyedBy: Key.self)
                        try container.encode(1, forKey: Key("z"))
                        try container.encode([Int](), forKey: Key("y"))
                    }
                }
            }
            let model = Dictionary(uniqueKeysWithValues: ["b", "a\"q", "é", "B", "a/b", "a", "a\u{1}", ""].map { ($0, $0 == "a" ? Value.nested : .text($0)) })
            let encoder = JSONEncoder()
            encoder.outputFormatting = format.isPretty ? [.sortedKeys, .prettyPrinted] : [.sortedKeys]
            let expected = String(decoding: try encoder.encode(model), as: UTF8.self)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == expected, "\(format)")
        }
    }

    @Test(arguments: [true, false])
    func objectsThatCheckKeysKeepTheLastOfEqualKeys(sorted: Bool) throws {
        let writer = JSONWriter()
        try writer.openContainer(.object, sorted: sorted, checksKeys: true)
        for (key, value) in [("b", 1), ("a", 2), ("b", 3), ("a", 4), ("c", 5)] {
            #expect(try writer.memberKey(key, then: .value) == nil)
            try writer.number(value)
        }
        try writer.endObject()
        try writer.finish()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == (sorted ? #"{"a":4,"b":3,"c":5}"# : #"{"b":3,"a":4,"c":5}"#))
    }
}
