import Foundation
import Spool
import Testing

// The decoding behaviours swift-foundation's JSONEncoderTests.swift checks of JSONDecoder
// (issue 21), on UTF-8 input, through the compatibility harness: both decoders must give the
// same value or the same DecodingError. Models and inputs are this file's own; each test's
// `// Foundation:` line names the swift-foundation tests whose behaviour it checks. Where Spool
// differs on purpose (CompatibilityTests+Differences.swift, the README), the test says so.
// A keyed container's lookup of a key written in another canonically equivalent form
// (`"cafe\u0301"` for `café`) finds it in both decoders (``Extractor/matches(_:_:)``).

@Suite("Foundation behaviours: decoding")
struct FoundationBehaviourTests {
    /// `json` as `T` fails in both decoders, with the same error.
    static func refused<T: Decodable & Equatable & SendableMetatype>(
        _ type: T.Type, _ json: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> CompatCase {
        CompatCase(name: "refused: \(T.self) ← \(json.prefix(80))") {
            let outcome = Compat.expectSame(T.self, json, sourceLocation: sourceLocation)
            #expect(outcome.error != nil, "\(outcome)", sourceLocation: sourceLocation)
        }
    }

    static func refused<T: Decodable & Equatable & SendableMetatype>(
        _ type: T.Type, bytes: [UInt8], label: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> CompatCase {
        CompatCase(name: "refused, \(label): \(T.self)") {
            let outcome = Compat.expectSame(T.self, bytes, sourceLocation: sourceLocation)
            #expect(outcome.error != nil, "\(outcome)", sourceLocation: sourceLocation)
        }
    }

    // MARK: - Numbers

    /// Numbers as a whole document, with and without white space after them.
    static let numberFragments: [CompatCase] = [
        "0 ", "2.5 ", "0.25 ", "7e2 ", "-3.02e-4 ", "0", "2.5", "7e2", "-3.02e-4", "0e-7", "0E+3", "-0.0 ",
    ].flatMap { [CompatCase.same(Double.self, $0), CompatCase.same(Float.self, $0), CompatCase.same(Decimal.self, $0)] }

    /// 64-bit integers near the ends of their ranges, where a Double would round them.
    static let wideIntegers: [CompatCase] = [
        ["-9223372036854775808", "9223372036854775807", "-9223372036854775807", "9223372036854774784"]
            .map { CompatCase.same(Int64.self, $0) },
        ["9223372036854775807", "9223372036854775808", "9223372036854776833", "18446744073709551615", "18446744073709550591", "7023186452138540119"]
            .map { CompatCase.same(UInt64.self, $0) },
        [.same([String: UInt64].self, #"{"n": 7023186452138540119}"#), .same(Box<Int64>.self, #"{"value": -9223372036854775807}"#)],
    ].flatMap { $0 }

    /// 128-bit integers, and whole numbers written with a fraction of zero that both read.
    static let int128s: [CompatCase] = [
        ["-170141183460469231731687303715884105727", "-18446744073709551616", "-18446744073709551615", "9223372036854775808",
         "18446744073709551616", "-1", "0", "18446744073709551615.0", "-18446744073709551615.0", "4294967296.0"]
            .map { CompatCase.same(Int128.self, $0) },
        ["18446744073709551615", "18446744073709551616", "170141183460469231731687303715884105728", "18446744073709551615.0", "0.0"]
            .map { CompatCase.same(UInt128.self, $0) },
    ].flatMap { $0 }

    /// Numbers of every plain-JSON form, as the model's type (the JSON5 suite's plain-JSON rows).
    static let plainNumbers: [CompatCase] = [
        ["0.75", "4.5e2", "6.25", "3e21", "3e-21", "-0.75", "-6.25", "0.0", "-0.0"].map { CompatCase.same(Double.self, $0) },
        ["7e-0", "7e+1", "7e+0", "7e0", "23", "-23", "-0", "0e21", "0", "0E0"].map { CompatCase.same(Int.self, $0) },
    ].flatMap { $0 }

    /// A Decimal with more digits than a Double holds.
    static let decimals: [CompatCase] = [
        "98765432109800000000000000000000000000000000000000000000000000000000000000000 ", "1" + String(repeating: "0", count: 127),
        "18446744073709551616", "-9223372036854775809", "123.4567891011121314e-100", "0.000000000000000000000000000000000001",
    ].map { CompatCase.same(Decimal.self, $0) }

    /// Invalid numbers fail whatever the type asked for.
    static let invalidNumbers: [CompatCase] = [
        "1.", "2e ", "-3.5e- ", "+", "+4.0z", "5t", "NaN", "nan", "Infinity", "-Infinity", "inf", "-", "0x1F", "2.e3", ".5", "-.5", "+1", "012",
        "-012", "1e2.5", "0e", "0e+", "0e+-1", "-31ABCq42",
    ].map { refused(Float.self, $0) }

    // Foundation: jsonNumberFragments, largeIntegerNumber,
    //   largeIntegerNumberIsNotRoundedToNearestDoubleWhenDecodingAsAnInteger, int128SlowPath, uint128SlowPath,
    //   hugeNumbers, invalidJSONNumbersFailAsExpected, json5Spec (plain-JSON numbers)
    /// Numbers of every form decode alike as Double, Float, Decimal, 64- and 128-bit integers; invalid ones fail alike.
    @Test(arguments: numberFragments + wideIntegers + int128s + plainNumbers + decimals + invalidNumbers)
    func numbers(_ row: CompatCase) { row.check() }

    typealias Differences = CompatibilityDifferenceTests

    /// Numbers JSONDecoder calls invalid JSON and Spool a located type mismatch (listed: "a
    /// number that would overflow", "out of range", "beyond Decimal").
    static let listedNumberDifferences: [CompatCase] = [
        Differences.differs(Float.self, "3.04e-1234", label: "underflow", foundation: Differences.corrupted(), spool: Differences.mismatch()),
        Differences.differs(Int64.self, "-9223372036854775809", label: "out of range", foundation: Differences.corrupted(), spool: Differences.mismatch()),
        Differences.differs(Int64.self, "9223372036854776833", label: "out of range", foundation: Differences.corrupted(), spool: Differences.mismatch()),
        Differences.differs(UInt64.self, "18446744073709551616", label: "out of range", foundation: Differences.corrupted(), spool: Differences.mismatch()),
        Differences.differs(UInt64.self, "1.7976931348623157e+308", label: "out of range", foundation: Differences.corrupted(), spool: Differences.mismatch()),
        Differences.differs(Decimal.self, "300e200", label: "beyond Decimal", foundation: Differences.corrupted(), spool: Differences.mismatch()),
        Differences.differs([String: [Bool]].self, #"{"list" : [ false, ],}"#, label: "trailing commas",
                            foundation: .value(["list": [false]]), spool: Differences.corrupted()),
    ]

    // Foundation: largeIntegerNumberIsNotRoundedToNearestDoubleWhenDecodingAsAnInteger,
    //   invalidJSONNumbersFailAsExpected, decodeLargeDoubleAsInteger, overlargeDecimal, jsonPermitsTrailingCommas
    /// Out-of-range numbers and trailing commas differ only as README lists (invalid JSON there, a located type mismatch here).
    @Test(arguments: listedNumberDifferences) func listedNumberDifference(_ row: CompatCase) { row.check() }

    /// Whole numbers beyond 64 bits written with a fraction or exponent: JSONDecoder's slower
    /// path for them refuses them (swift-foundation's tests mark these "should work but don't
    /// yet"); Spool reads them exactly.
    static let wideWholeNumbers: [CompatCase] = [
        Differences.differs(Int128.self, "\(Int128.max).0", label: "beyond 64 bits", foundation: Differences.corrupted(), spool: .value(.max)),
        Differences.differs(Int128.self, "\(Int128.min).0", label: "beyond 64 bits", foundation: Differences.corrupted(), spool: .value(.min)),
        Differences.differs(Int128.self, "-18446744073709551616.0", label: "beyond 64 bits", foundation: Differences.corrupted(),
                            spool: .value(-18_446_744_073_709_551_616)),
        Differences.differs(Int128.self, "18446744073709551616e0", label: "beyond 64 bits", foundation: Differences.corrupted(),
                            spool: .value(18_446_744_073_709_551_616)),
        Differences.differs(UInt128.self, "18446744073709551616.0", label: "beyond 64 bits", foundation: Differences.corrupted(),
                            spool: .value(18_446_744_073_709_551_616)),
        Differences.differs(UInt128.self, "\(UInt128.max).0", label: "beyond 64 bits", foundation: Differences.corrupted(), spool: .value(.max)),
    ]

    // Foundation: int128SlowPath, uint128SlowPath (their "should work but don't yet" rows)
    /// Whole numbers beyond 64 bits written with `.0` or an exponent: Spool reads them, JSONDecoder refuses them.
    @Test(arguments: wideWholeNumbers) func spoolReadsWideWholeNumbersWithAFraction(_ row: CompatCase) { row.check() }

    // Foundation: topLevelNumberFragmentsWithJunkDigitCharacters
    /// A number at the end of a `Data` slice is read up to the slice's end, not past it.
    @Test func aNumberEndingASliceEndsThere() throws {
        let whole = Data("x2.718281".utf8)
        for slice in [whole[1..<5], whole.dropFirst().prefix(4), Data(whole[1..<5])] {
            let foundation = try JSONDecoder().decode(Double.self, from: slice)
            #expect(foundation == 2.71)
            #expect(try StreamingJSONDecoder().decode(Double.self, from: slice) == foundation)
            #expect(try StreamingJSONDecoder().decode([Double].self, from: Data("[".utf8) + slice + Data("]".utf8)) == [foundation])
        }
    }

    // MARK: - Strings

    static let strings: [CompatCase] = [
        // Escaped solidus, and an escaped backslash before a solidus.
        #""\/usr\/local""#, #""\\/usr\\/local""#,
        // Three-byte UTF-8: CJK and Hangul.
        #""漢字한국어""#,
        // \u escapes: lower and upper case hex, between other characters, a surrogate pair.
        #""\u00fc\u2260""#, #""ab\u00fccd\u2260ef""#, #""\u00FC\u00Fc""#, #""\uD83C\uDF89""#, #""\ud83c\udf89""#,
        // White space inside strings is kept.
        #"" a\tb ""#,
    ].map { CompatCase.same(String.self, $0) } + [CompatCase.same([String].self, #"["漢字", "한국어"]"#)]

    static let badStrings: [CompatCase] = [
        // Unnecessary escapes.
        #""\q\u\i\e\t""#, #""\a""#, #""\'""#, #""\U00e9""#,
        // Lone and broken surrogate escapes, short or bad hex.
        #""\uDC00""#, #""\uD83C""#, #""\uD83Cabc""#, #""abc\uD83C""#, #""\uD83C\u0041""#, #""\uD83C\uD83C""#, #""\uD8""#,
        #""\uD83Cz\uDF89""#, #""\u12""#, #""\u12G4""#,
        // The same, unquoted: not a string at all.
        #"\uD83C"#, #"\uD83Cabc"#, #"abc\uD83C"#,
    ].map { refused(String.self, $0) } + [
        // Raw control characters.
        "\"a\nb\"", "\"a\tb\"", "\"\u{1}\"",
    ].map { refused([String].self, "[\($0)]") }

    /// Every control character written as an escape, and the space after them.
    static let controlEscapes: [CompatCase] = (0...0x20).map { code -> CompatCase in
        let short: [Int: String] = [0x08: #"\b"#, 0x09: #"\t"#, 0x0A: #"\n"#, 0x0C: #"\f"#, 0x0D: #"\r"#, 0x20: " "]
        let escape = short[code] ?? String(format: #"\u%04x"#, code)
        return CompatCase.same(String.self, "\"\(escape)\"", label: "U+\(String(code, radix: 16))")
    } + [#""\u001F\u000B""#, #""\u0000""#].map { CompatCase.same(String.self, $0) }

    /// NUL (escaped) in values and keys, in every container.
    static let nulls: [CompatCase] = [
        .same([String].self, #"["x\u0000y"]"#), .same([String: String].self, #"{"x\u0000y": "x\u0000y"}"#),
        .same(Box<String>.self, #"{"value": "x\u0000y"}"#), .same([String: Int].self, #"{"a\u0000": 1, "a": 2}"#),
    ]

    /// Keys that are canonically equivalent (precomposed and decomposed é) are one String key.
    static let equivalentKeys: [CompatCase] = [
        .same([String: Bool].self, #"{"r\u00e9sum\u00e9": true, "re\u0301sume\u0301": false}"#),
        .same([String: Bool].self, #"{"re\u0301sume\u0301": false, "r\u00e9sum\u00e9": true}"#),
        .same([String: Bool].self, "{\"r\u{e9}sum\u{e9}\": true, \"re\u{301}sume\u{301}\": false}"),
        .same(Accented.self, #"{"caf\u00e9": 1}"#), .same(Accented.self, #"{"caf\u00e9": 1, "cafe\u0301": 2}"#),
        .same(Accented.self, #"{"cafe\u0301": 2, "caf\u00e9": 1}"#, .snakeCase),
    ]

    /// A key spelled with a precomposed é.
    struct Accented: Decodable, Equatable {
        let café: Int
    }

    // Foundation: jsonEscapedSlashes, jsonUnicodeCharacters, jsonUnicodeEscapes, jsonBadUnicodeEscapes,
    //   superfluouslyEscapedCharacters, jsonControlCharacters, nullByte, equivalentUTF8Sequences
    /// Strings, escapes, control characters, NUL and canonically equivalent dictionary keys decode alike.
    @Test(arguments: strings + badStrings + controlEscapes + nulls + equivalentKeys) func stringsAndEscapes(_ row: CompatCase) { row.check() }

    // MARK: - Invalid input

    struct Named: Decodable, Equatable {
        let name: String
    }

    /// Any JSON value, read by asking for each kind in turn and moving on only on a type
    /// mismatch, so that every number and string is read (JSONDecoder checks them only then).
    indirect enum AnyValue: Decodable, Equatable {
        case null, bool(Bool), number(Double), string(String), array([AnyValue]), object([String: AnyValue])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            func attempt<T: Decodable>(_ type: T.Type) throws -> T? {
                do {
                    return try container.decode(T.self)
                } catch DecodingError.typeMismatch {
                    return nil
                }
            }
            if container.decodeNil() {
                self = .null
            } else if let value = try attempt(Bool.self) {
                self = .bool(value)
            } else if let value = try attempt(Double.self) {
                self = .number(value)
            } else if let value = try attempt(String.self) {
                self = .string(value)
            } else if let value = try attempt([AnyValue].self) {
                self = .array(value)
            } else {
                self = .object(try container.decode([String: AnyValue].self))
            }
        }
    }

    /// Invalid documents, each a different mistake (in the spirit of the json.org failure
    /// suite): every one is `dataCorrupted` at the root in both.
    static let invalidDocuments: [String] = [
        #"{"name": value}"#, #""unterminated"#, #"{"name": "unterminated}"#, #"{"name""#, "tru_", "fals_", "nul_", "nulll", " ", "\n\t ",
        #"["open""#, #"{bare: "key"}"#, #"["crossed"}"#, #"["two",,]"#, #"[ , "missing"]"#, #"["after"],"#, #"["closed"]]"#,
        #"{"closed": true} "extra""#, #"{"sum": 2 + 3}"#, #"{"call": f()}"#, #"{"zero": 07}"#, #"{"hex": 0x1A}"#, #"["\x41"]"#,
        #"[\bare]"#, #"["\012"]"#, #"["a" "b"]"#, #"{"colon" null}"#, #"{"comma", null}"#, #"["colon": true]"#, #"["word", truly]"#,
        #"['quoted']"#, #"["a\ b"]"#, #"{"last": true,"#, #"{"open": "str"#, #"{"minus": -}"#, #"{"dot": 4.}"#, #"{"short": "\u12"}"#,
        #"{"badhex": "\u12X4 and more"}"#, #"{"eof":""#, "[", "[ ", "[\n\n", #"["a","#, #"["a", "#, "{", "{ ", "// note\n{}", "/* note */ []",
        "[] // note", "[\"line\\\nbreak\"]", "[,true]", "[,]", "[true false]", "[1 2]", "", "{'k': 1}", #"{"k": 'v'}"#, "\"line\nbreak\"", #"{"a": 1 "b": 2}"#,
        #"{"a": 1,, "b": 2}"#, "[-010]", "[-018]", "[+0]", "[.]", "[1e2.5]", "[0x]", "[Infinity]", "[-NaN]",
    ]

    static let invalidDocumentRows: [CompatCase] = invalidDocuments.map { refused(AnyValue.self, $0) }

    static func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }

    static let utf16BigEndian: [UInt8] = #""a""#.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }

    /// Invalid UTF-8, in keys and values.
    static let invalidBytes: [CompatCase] = [
        refused(Named.self, bytes: utf8(#"{"name"#) + [0xFF] + utf8(#"": "x"}"#), label: "invalid UTF-8 in a key"),
        refused([String: Bool].self, bytes: [0x7B, 0x80], label: "stray continuation byte"),
        refused([String: Bool].self, bytes: [0x7B, 0xC0], label: "lead byte without continuation"),
        refused([String: Bool].self, bytes: [0x7B, 0xE0, 0x80], label: "three-byte sequence cut short"),
        refused([String: Bool].self, bytes: [0x7B, 0xF0, 0x80, 0x80], label: "four-byte sequence cut short"),
        refused([String].self, bytes: utf8(#"["fruit"#) + [0xED, 0xA0, 0x80, 0xFF] + utf8(#""]"#), label: "invalid UTF-8 in a value"),
        refused(String.self, bytes: [0xEF, 0xBB, 0xBF] + utf16BigEndian, label: "UTF-8 mark on UTF-16"),
    ]

    static let invalidInputs: [CompatCase] = invalidDocumentRows + invalidBytes

    // Foundation: decodingFailure, invalidFragment, topLevelFragmentsWithGarbage, whitespaceOnlyData, invalidKeyUTF8,
    //   bomPrefixes (mismatched mark), jsonFailTests, json5EsotericErrors, json5Spec (rejected rows)
    /// Invalid documents and invalid UTF-8 fail alike, whatever the mistake.
    @Test(arguments: invalidInputs) func invalidInput(_ row: CompatCase) { row.check() }

    /// Valid documents of every plain-JSON form both read alike (the JSON5 suite's plain-JSON
    /// rows and the json.org pass suite's themes; see ``kitchenSink`` for one of each).
    static let validDocuments: [CompatCase] = [
        .same([Bool].self, "[]"), .same([Bool?].self, "[true, false, null]"), .same(String.self, #""/* not a comment */""#),
        .same(String.self, #""// not a comment""#), .same([String: Bool].self, "{}"), .same([String: Bool].self, #"{"k": true, "k": false}"#),
        .same([String: Bool].self, "{\"v\"\n : true}"), .same([String: Bool].self, "{\"v\"\r\n : true}"), .same([String: Bool].self, "{\"v\"\r : true}"),
        .same([String: Bool].self, " \t\r\n{ \t\r\n\"v\" \t\r\n: \t\r\ntrue \t\r\n} \t\r\n"),
        .same([[[[[[[[[[[[[[[[String]]]]]]]]]]]]]]]].self, String(repeating: "[", count: 16) + #""deep""# + String(repeating: "]", count: 16)),
        .same([String: [String: String]].self, #"{"": {"": ""}, " ": {"\u0020": "\/"}}"#),
    ]

    // Foundation: whitespace, json5Spec (plain-JSON rows), jsonPassTests (pass2: deep arrays)
    /// Valid documents of every plain-JSON form decode alike.
    @Test(arguments: validDocuments) func validDocument(_ row: CompatCase) { row.check() }

    /// A document with one of everything plain JSON has (the themes of the json.org pass
    /// suite: every escape, exponents of every form, odd keys, white space everywhere), read
    /// element by element with the typed methods.
    struct KitchenSink: Decodable, Equatable {
        var seen: [String] = []

        struct Everything: Codable, Equatable {
            let big: UInt64
            let negativeReal: Double
            let smallExponent: Double
            let bigExponent: Double
            let emptyKey: Double
            let zero: UInt8
            let one: UInt8
            let blank: String
            let quote: String
            let backslash: String
            let controls: String
            let slashes: String
            let letters: String
            let digits: String
            let escapes: String
            let yes: Bool
            let no: Bool
            let nothing: Bool?
            let emptyList: [String]
            let emptyObject: [String: String]
            let link: URL
            let loose: [Int]
            let tight: [Int]
            let embedded: String
            let oddKey: String

            enum CodingKeys: String, CodingKey {
                case big, negativeReal, smallExponent, bigExponent, emptyKey = "", zero, one, blank, quote, backslash, controls, slashes
                case letters, digits = "9876543210", escapes, yes = "true", no = "false", nothing = "null", emptyList, emptyObject, link
                case loose = " l o o s e ", tight, embedded
                case oddKey = "\\/\"\u{00E9}\u{4E2D}\u{FFFD}\u{09}\u{0A}|{}[]:,#?~ "
            }
        }

        init(from decoder: any Decoder) throws {
            var c = try decoder.unkeyedContainer()
            seen.append(try c.decode(String.self))
            seen.append("\(try c.decode([String: [String]].self))")
            seen.append("\(try c.decode([String: String].self).sorted { $0.key < $1.key })")
            seen.append("\(try c.decode([String].self))")
            seen.append("\(try c.decode(Int.self))")
            seen.append("\(try c.decode(Bool.self)) \(try c.decode(Bool.self)) \(try c.decodeNil())")
            seen.append("\(try c.decode(Everything.self))")
            seen.append("\(try c.decode(Float.self)) \(try c.decode(Float.self)) \(try c.decode(Float.self))")
            seen.append("\(try c.decode(Int.self))")
            for _ in 0..<6 { seen.append("\(try c.decode(Double.self))") }
            seen.append(try c.decode(String.self))
            seen.append("\(c.isAtEnd)")
        }
    }

    static let everything = #"""
        {
          "big": 9876543210123,
          "negativeReal": -1234.5678900,
          "smallExponent": 0.987654321e-15,
          "bigExponent": 9.87654321E+40,
          "": 12345678901E55,
          "zero": 0,
          "one": 1,
          "blank": " ",
          "quote": "\"",
          "backslash": "\\",
          "controls": "\t\r\n\f\b",
          "slashes": "a/b \/ c",
          "letters": "ZYXWVUTSRQPONMLKJIHGFEDCBA",
          "9876543210": "digits",
          "escapes": "\u0041\u00E9\u4e2d\uFFFD\uD834\uDD1E",
          "true": true,
          "false": false,
          "null": null,
          "emptyList":[ ],
          "emptyObject":{ },
          "link": "https://example.net/a?b=c",
          " l o o s e " :[ 9,8 , 7

                ,

                6 , 5        ,          4           ,3        ],"tight":[9,8,7,6,5,4,3],
          "embedded": "{\"a key\":[\"a value\"]}",
          "\\\/\"\u00e9\u4E2D\uFFFD\t\n|{}[]:,#?~ "
                : "any string can be a key"
        }
        """#

    static let kitchenSink = #"""
        [
          "one of everything",
          {"a key":["a value"]},
          {},
          [],
          -7,
          true,
          false,
          null,
          \#(everything),
          0.25 ,37.5
        ,
        12.125
        ,

        2024,
        2e1,
        0.2e1,
        2e-1,
        2e00,3e+00,3e-00
        ,"the end"]
        """#

    // Foundation: jsonPassTests (pass1's themes)
    /// A document with one of everything decodes alike, element by element.
    @Test func kitchenSinkDocument() {
        let outcome = Compat.expectSame(KitchenSink.self, Self.kitchenSink)
        #expect(outcome.value?.seen.count == 17, "\(outcome)")
    }

    // Foundation: jsonPassTests (re-encoding, compact and pretty)
    /// One of every kind of member decodes alike, re-encodes to the same bytes and decodes back.
    @Test func kitchenSinkRoundTrip() throws {
        let decoded = try #require(Compat.expectSame(KitchenSink.Everything.self, Self.everything).value)
        EncoderComparisonTests().expectSameBytes(decoded)
        for formatting: JSONEncoder.OutputFormatting in [[], [.prettyPrinted, .sortedKeys]] {
            let encoder = StreamingJSONEncoder()
            encoder.outputFormatting = formatting
            let again = Compat.expectSame(KitchenSink.Everything.self, Array(try encoder.encode(decoded)))
            #expect(again.value == decoded, "\(again)")
        }
    }

    /// Arrays nested in arrays, walked with nested unkeyed containers: the depth.
    struct Nest: Decodable, Equatable {
        let depth: Int

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            var depth = 1
            while !container.isAtEnd {
                container = try container.nestedUnkeyedContainer()
                depth += 1
            }
            self.depth = depth
        }
    }

    // Foundation: depthTraversal
    /// Nesting up to the shared limit of 512 decodes; one level deeper fails in both.
    @Test(arguments: [256, 511, 512, 513])
    func nestingDepth(_ depth: Int) {
        let outcome = Compat.expectSame(Nest.self, String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
        #expect(outcome.value.map(\.depth) == (depth <= 512 ? depth : nil), "\(outcome)")
    }

    // MARK: - Keys

    /// A custom key function that strips a four-character prefix from longer keys.
    static let stripPrefix = CompatSettings(keys: .custom { path in
        let key = path.last!
        guard key.stringValue.count > 4 else { return key }
        return AnyKey(stringValue: String(key.stringValue.dropFirst(4)))
    })

    /// Every key becomes the same key: the object holds one key, with the first value.
    static let oneKey = CompatSettings(keys: .custom { _ in AnyKey("only") })

    static let allKeysAndOnly: Probe.Script = { decoder, log in
        let container = try decoder.container(keyedBy: AnyKey.self)
        log.note("allKeys", container.allKeys.map(\.stringValue))
        log.attempt("only") { try container.decode(String.self, forKey: AnyKey("only")) }
    }

    struct Greeting: Decodable, Equatable {
        let hello: String
    }

    /// CodingKeys with a raw value of their own, converted from snake case.
    struct Renamed: Decodable, Equatable {
        let renamedValue: String
        let plainValueToo: String

        enum CodingKeys: String, CodingKey {
            case renamedValue = "fooBar"
            case plainValueToo
        }
    }

    struct Leaf: Decodable, Equatable { let intValue: Int }
    struct Branch: Decodable, Equatable { let nestedValue: Leaf }

    /// Snake-case keys and the camel-case keys a model asks for (JSONDecoder's table's
    /// themes: capitals, digits, runs and ends of underscores, diacritics, marks, emoji).
    static let snakeKeys: [String] = [
        "", "b", "SHOUT", "SHOUT_LOUD", "word", "two_words", "one_two_three_four", "one_2_three", "one2_three", "x_Ǆy", "x_ǆy",
        "x_ḉy", "x_Ḉy", "x_ßy", "camelAlready", "__lead_two", "_lead_one", "mid__double", "tail_two__", "mIxEd_cAsE", "_both_ends_",
        "__both__ends__", "_", "__", "___", "_solo", "solo_", "__solo", "solo__", "z̸̢a̵l̶g̷o_t̴e̸x̵t̶", "🐧_🐟", "🐧_x", "x_🐟", "ǳ_ǆ",
    ]

    static let snakeKeysJSON = "{" + snakeKeys.enumerated().map { #""\#($1)": \#($0)"# }.joined(separator: ", ") + "}"

    /// Asks for each key the way a model would: the camel-case name JSONDecoder's conversion
    /// gives, found or not.
    static let camelLookups: Probe.Script = { decoder, log in
        let container = try decoder.container(keyedBy: AnyKey.self)
        let names = container.allKeys.map(\.stringValue).sorted()
        log.note("allKeys", names)
        for name in names { log.attempt(name) { try container.decode(Int.self, forKey: AnyKey(name)) } }
    }

    static let keys: [CompatCase] = [
        .same(Greeting.self, #"{"----hello": "hi"}"#, stripPrefix), .same(Greeting.self, #"{"hello": "hi"}"#, stripPrefix),
        .same([String: String].self, #"{"----hello": "hi"}"#, stripPrefix),
        .probe("colliding keys", #"{"first key": "one", "second key": "two"}"#, oneKey, script: allKeysAndOnly),
        .probe("colliding keys", #"{"first key": 1, "second key": "two"}"#, oneKey, script: allKeysAndOnly),
        .same([String: String].self, #"{"keep_me_as_is": "x"}"#, .snakeCase),
        .fails([String: Int].self, #"{"keep_me_as_is": "x"}"#, ErrorRecord(.typeMismatch, [KeyRecord("keep_me_as_is")]), .snakeCase),
        .fails([String: [String: Branch]].self, #"{"outer_key": {"inner_key": {"nested_value": {"int_value": "x"}}}}"#,
               ErrorRecord(.typeMismatch, [KeyRecord("outer_key"), KeyRecord("inner_key"), KeyRecord("nestedValue"), KeyRecord("intValue")]), .snakeCase),
        .same(Renamed.self, #"{"foo_bar": "a", "plain_value_too": "b"}"#, .snakeCase),
        .same(Renamed.self, #"{"fooBar": "a", "plainValueToo": "b"}"#, .snakeCase),
        .same(Renamed.self, #"{"renamed_value": "a", "plain_value_too": "b"}"#, .snakeCase),
        .probe("snake keys", snakeKeysJSON, .snakeCase, script: camelLookups),
    ] + snakeKeys.map { key in
        .probe("snake key \(key)", #"{"\#(key)": 1}"#, .snakeCase, script: camelLookups)
    }

    // Foundation: decodingKeyStrategyCustom, decodingDictionaryStringKeyConversionUntouched,
    //   decodingDictionaryFailureKeyPath, keyStrategyDuplicateKeys, decodingKeyStrategyCamel,
    //   keyStrategySnakeGeneratedAndCustom, decodingDictionaryFailureKeyPathNested
    /// Custom and snake-case key conversion: colliding keys, untouched [String: T] keys, error paths, renamed CodingKeys.
    @Test(arguments: keys) func keyConversion(_ row: CompatCase) { row.check() }

    // MARK: - Models and containers

    struct EmptyStruct: Decodable, Equatable {}

    final class EmptyClass: Decodable, Equatable {
        static func == (lhs: EmptyClass, rhs: EmptyClass) -> Bool { true }
    }

    /// A Bool behind a single value container.
    enum Toggle: Decodable, Equatable {
        case off, on

        init(from decoder: any Decoder) throws {
            self = try decoder.singleValueContainer().decode(Bool.self) ? .on : .off
        }
    }

    /// A Double behind a single value container.
    struct Seconds: Decodable, Equatable {
        let value: Double
        init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(Double.self) }
    }

    final class Tally: Decodable, Equatable {
        let count: Int
        init(from decoder: any Decoder) throws { count = try decoder.singleValueContainer().decode(Int.self) }
        static func == (lhs: Tally, rhs: Tally) -> Bool { lhs.count == rhs.count }
    }

    enum Tristate: Decodable, Equatable {
        case yes, no, unknown

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .unknown
            } else {
                self = try container.decode(Bool.self) ? .yes : .no
            }
        }
    }

    /// An array and a dictionary behind a single value container.
    struct Primes: Decodable, Equatable {
        let values: [Int]
        init(from decoder: any Decoder) throws { values = try decoder.singleValueContainer().decode([Int].self) }
    }

    final class Lookup: Decodable, Equatable {
        let table: [String: Int]
        init(from decoder: any Decoder) throws { table = try decoder.singleValueContainer().decode([String: Int].self) }
        static func == (lhs: Lookup, rhs: Lookup) -> Bool { lhs.table == rhs.table }
    }

    /// A member read through a nested unkeyed container (the shape of swift-foundation's
    /// issue 106506794).
    struct Wrapped: Decodable, Equatable {
        let inner: Named

        enum CodingKeys: String, CodingKey { case inner }

        init(from decoder: any Decoder) throws {
            var nested = try decoder.container(keyedBy: CodingKeys.self).nestedUnkeyedContainer(forKey: .inner)
            inner = try nested.decode(Named.self)
        }
    }

    /// Two nested keyed containers for the same key, each reading its own member.
    struct SameKeyTwice: Decodable, Equatable {
        let first: String
        let second: String

        enum Top: String, CodingKey { case shared }
        enum FirstKeys: String, CodingKey { case first }
        enum SecondKeys: String, CodingKey { case second }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Top.self)
            first = try container.nestedContainer(keyedBy: FirstKeys.self, forKey: .shared).decode(String.self, forKey: .first)
            second = try container.nestedContainer(keyedBy: SecondKeys.self, forKey: .shared).decode(String.self, forKey: .second)
        }
    }

    /// A missing member read through `superDecoder(forKey:)`, its `valueNotFound` caught.
    struct MaybeNote: Decodable, Equatable {
        let flag: Bool
        let note: String?

        enum CodingKeys: String, CodingKey { case flag, note }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            flag = try container.decode(Bool.self, forKey: .flag)
            do {
                note = try container.superDecoder(forKey: .note).singleValueContainer().decode(String.self)
            } catch DecodingError.valueNotFound {
                note = nil
            }
        }
    }

    /// A model's own error from a keyed and from a single value container.
    struct OnlyFoo: Decodable, Equatable {
        struct NotFoo: Error {}
        let text: String

        init(from decoder: any Decoder) throws {
            if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
                text = try keyed.decode(String.self, forKey: AnyKey("text"))
            } else {
                text = try decoder.singleValueContainer().decode(String.self)
            }
            guard text == "foo" else { throw NotFoo() }
        }
    }

    /// `decodeNil()` that finds a value does not move the container on, however often asked.
    static let repeatedNilChecks: Probe.Script = { decoder, log in
        var container = try decoder.unkeyedContainer()
        while !container.isAtEnd {
            for _ in 0..<3 { log.attempt("decodeNil at \(container.currentIndex)") { try container.decodeNil() } }
            log.attempt("value") { try container.decode(Int.self) }
        }
        log.attempt("decodeNil at end") { try container.decodeNil() }
    }

    static let models: [CompatCase] = [
        .same(EmptyStruct.self, "{}"), .same(EmptyStruct.self, #"{"extra": 1}"#), .same(EmptyStruct.self, "[]"), .same(EmptyStruct.self, "null"),
        .same(EmptyClass.self, "{}"), .same(EmptyClass.self, "1"),
        .same(Toggle.self, "true"), .same(Toggle.self, "false"), .same(Toggle.self, "null"), .same(Toggle.self, "0"),
        .same(Seconds.self, "3141592653"), .same(Seconds.self, "-0.5"), .same(Tally.self, "12"), .same(Tally.self, #""12""#),
        .same(Tristate.self, "true"), .same(Tristate.self, "false"), .same(Tristate.self, "null"), .same([Tristate].self, "[null, true]"),
        .same(Primes.self, "[2, 3, 5, 7]"), .same(Primes.self, "[]"), .same(Primes.self, #"{"a": 1}"#), .same(Primes.self, "null"),
        .same(Lookup.self, #"{"alpha": 1, "beta": 2}"#), .same(Lookup.self, "[1]"),
        .same(Wrapped.self, #"{"inner": [{"name": "n"}]}"#), .same(Wrapped.self, #"{"inner": []}"#), .same(Wrapped.self, #"{"inner": {}}"#),
        .same(SameKeyTwice.self, #"{"shared": {"first": "a", "second": "b"}}"#), .same(SameKeyTwice.self, #"{"shared": {"first": "a"}}"#),
        .same(MaybeNote.self, #"{"flag": true}"#), .same(MaybeNote.self, #"{"flag": true, "note": null}"#),
        .same(MaybeNote.self, #"{"flag": true, "note": "n"}"#), .same(MaybeNote.self, #"{"flag": true, "note": 1}"#),
        .same(OnlyFoo.self, #"{"text": "foo"}"#, located: false), .same(OnlyFoo.self, #"{ "text" : "bar" }"#, located: false),
        .same(OnlyFoo.self, #""bar""#, located: false), .same(OnlyFoo.self, #"{"text": 1}"#),
        .probe("repeated nil checks", "[1, 2, 3]", script: repeatedNilChecks), .probe("repeated nil checks", "[1, null, 3]", script: repeatedNilChecks),
        .same(CompatibilityScalarTests.TypedOptionalElements.self, "[]"),
        .same(CompatibilityScalarTests.TypedOptionals.self, "{" + CompatibilityScalarTests.fields.map { #""\#($0.name)": null"# }.joined(separator: ", ") + "}"),
    ]

    // Foundation: encodingTopLevel* (decoding side), issue106506794,
    //   encodingMultipleNestedContainersWithTheSameTopLevelKey (decoding side), valueNotFoundError,
    //   decodingFailureThrowInInit*, repeatedFailedNilChecks, decodeIfPresent
    /// Empty, single-value and nested-container models, repeated nil checks, super decoders of missing keys, decodeIfPresent.
    @Test(arguments: models) func modelsAndContainers(_ row: CompatCase) { row.check() }

    // MARK: - Falling back after an error

    /// Tries `First`, and on any error `Second`, from the same single value container.
    enum Either<First: Decodable & Equatable, Second: Decodable & Equatable>: Decodable, Equatable {
        case first(First)
        case second(Second)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            do {
                self = .first(try container.decode(First.self))
            } catch {
                self = .second(try container.decode(Second.self))
            }
        }
    }

    struct Refused: Error {}

    /// A date or data strategy that opens a container, then throws.
    static let refusingDates = CompatSettings(dates: .custom { decoder in
        _ = try? decoder.unkeyedContainer()
        throw Refused()
    })

    static let refusingData = CompatSettings(data: .custom { decoder in
        _ = try? decoder.container(keyedBy: AnyKey.self)
        throw Refused()
    })

    static let fallbacks: [CompatCase] = [
        .same(Either<[String], [Int]>.self, "[4, 5, 6]"), .same(Either<[String], [Int]>.self, #"["a"]"#),
        .same(Either<[String], [Int]>.self, #"[1, "a"]"#), .same(Box<Either<[String], [Int]>>.self, #"{"value": [4, 5, 6]}"#),
        .same(Either<[String: Int], [Int]>.self, "[4]"), .same(Either<Int, String>.self, #""x""#),
        .same(Either<Date, Int>.self, "1", refusingDates), .same([Either<Date, Int>].self, "[1, 2]", refusingDates),
        .same(Either<Data, Int>.self, "1", refusingData), .same([String: Either<Data, Int>].self, #"{"a": 1}"#, refusingData),
        .same(Either<Date, Int>.self, #""x""#, refusingDates, located: false),
    ]

    // Foundation: decoderStateThrowOnDecode, decoderStateThrowOnDecodeCustomDate, decoderStateThrowOnDecodeCustomData
    /// A model that falls back to another type after a failed decode (or a throwing date or data strategy) decodes alike.
    @Test(arguments: fallbacks) func fallingBackAfterAnError(_ row: CompatCase) { row.check() }

    // MARK: - Error details the harness does not compare

    /// The type a `valueNotFound` or `typeMismatch` names.
    static func errorType(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .valueNotFound(let type, _)?: "valueNotFound \(type)"
        case .typeMismatch(let type, _)?: "typeMismatch \(type)"
        default: "\(error)"
        }
    }

    struct CamelValue: Decodable, Equatable {
        let thisIsCamelCase: String
    }

    static func errorType<T: Decodable>(_ type: T.Type, _ json: String, _ decode: (Data) throws -> T) -> String {
        do {
            _ = try decode(Data(json.utf8))
            return "no error"
        } catch {
            return errorType(error)
        }
    }

    // Foundation: decodingStringExpectedType
    /// `valueNotFound` and `typeMismatch` name the type the model asked for.
    @Test(arguments: [
        #"{"thisIsCamelCase": null}"#, #"{"thisIsCamelCase": 1}"#, #"{"thisIsCamelCase": {}}"#,
    ])
    func errorsNameTheTypeAskedFor(_ json: String) {
        let foundation = Self.errorType(CamelValue.self, json) { try JSONDecoder().decode(CamelValue.self, from: $0) }
        let spool = Self.errorType(CamelValue.self, json) { try StreamingJSONDecoder().decode(CamelValue.self, from: $0) }
        #expect(spool == foundation)
        #expect(foundation.hasSuffix(" String"), "\(foundation)")
    }

    // Foundation: decodingStringExpectedType
    /// Errors inside arrays name the element type asked for.
    @Test(arguments: ["[1, null]", #"[1, "x"]"#, "[1, []]"])
    func errorsInArraysNameTheElementType(_ json: String) {
        let foundation = Self.errorType([Int].self, json) { try JSONDecoder().decode([Int].self, from: $0) }
        let spool = Self.errorType([Int].self, json) { try StreamingJSONDecoder().decode([Int].self, from: $0) }
        #expect(spool == foundation)
    }

    // MARK: - Keeping a container or decoder past init(from:)

    /// Keeps its unkeyed container and reads it after decoding has returned.
    struct KeepsContainer: Decodable {
        let container: any UnkeyedDecodingContainer

        init(from decoder: any Decoder) throws { container = try decoder.unkeyedContainer() }

        func value() throws -> Int {
            var copy = container
            return try copy.decode(Int.self)
        }
    }

    /// Keeps the top-level decoder and asks it for a container after decoding has returned.
    struct KeepsDecoder: Decodable {
        let decoder: any Decoder

        init(from decoder: any Decoder) throws { self.decoder = decoder }

        func value() throws -> Int {
            var container = try decoder.unkeyedContainer()
            return try container.decode(Int.self)
        }
    }

    // Foundation: delayedDecoding
    /// An unkeyed container kept past `init(from:)` still reads after decoding returned.
    @Test func aContainerKeptPastDecodingStillReads() throws {
        let json = Data("[42]".utf8)
        #expect(try JSONDecoder().decode(KeepsContainer.self, from: json).value() == 42)
        #expect(try StreamingJSONDecoder().decode(KeepsContainer.self, from: json).value() == 42)
    }

    // Foundation: delayedDecoding
    /// The top-level decoder kept past `init(from:)` still gives a container after decoding returned.
    @Test func aDecoderKeptPastDecodingStillReads() throws {
        let json = Data("[42]".utf8)
        #expect(try JSONDecoder().decode(KeepsDecoder.self, from: json).value() == 42)
        #expect(try StreamingJSONDecoder().decode(KeepsDecoder.self, from: json).value() == 42)
    }
}
