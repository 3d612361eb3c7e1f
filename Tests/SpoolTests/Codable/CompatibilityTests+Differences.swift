import Foundation
import Spool
import Testing

/// Where Spool differs from `JSONDecoder` on purpose, or where `JSONDecoder` itself is at odds
/// with its own rules: each row states what each decoder does, so that a change on either side
/// shows here.
@Suite("Compatibility: documented differences")
struct CompatibilityDifferenceTests {
    /// One input, with what each decoder must give.
    static func differs<T: Decodable & Equatable & Sendable & SendableMetatype>(
        _ type: T.Type, _ json: [UInt8], _ settings: CompatSettings = .defaults, label: String,
        foundation: Outcome<T>, spool: Outcome<T>, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> CompatCase {
        CompatCase(name: "\(label): \(T.self) ← \(String(decoding: json.prefix(60), as: UTF8.self))") {
            let fromFoundation = Compat.foundation(T.self, json, settings)
            let fromSpool = Compat.spool(T.self, json, settings)
            #expect(Outcome.same(fromFoundation, foundation), "JSONDecoder: \(fromFoundation)", sourceLocation: sourceLocation)
            #expect(Outcome.same(fromSpool, spool), "Spool: \(fromSpool)", sourceLocation: sourceLocation)
            if let error = fromSpool.error, error.kind != .dataCorrupted || !error.path.isEmpty {
                #expect(error.isLocated, "not located: \(error.debugDescription)", sourceLocation: sourceLocation)
            }
        }
    }

    static func differs<T: Decodable & Equatable & Sendable & SendableMetatype>(
        _ type: T.Type, _ json: String, _ settings: CompatSettings = .defaults, label: String,
        foundation: Outcome<T>, spool: Outcome<T>, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> CompatCase {
        differs(T.self, Array(json.utf8), settings, label: label, foundation: foundation, spool: spool, sourceLocation: sourceLocation)
    }

    static func mismatch<T>(_ path: KeyRecord...) -> Outcome<T> { .error(ErrorRecord(.typeMismatch, path)) }
    static func corrupted<T>(_ path: KeyRecord...) -> Outcome<T> { .error(ErrorRecord(.dataCorrupted, path)) }

    /// Integers are exact in both where the number is whole (`1.0` and `1e2` are 1 and 100 in
    /// both). A fraction or a number out of range is invalid JSON at the root for JSONDecoder
    /// (`dataCorrupted`, empty path: "The given data was not valid JSON"), and a located
    /// type mismatch at the value's path for Spool.
    static let integers: [CompatCase] = [
        differs(Int.self, "1.0", label: "whole", foundation: .value(1), spool: .value(1)),
        differs(Int.self, "1e2", label: "whole", foundation: .value(100), spool: .value(100)),
        differs(Int.self, "-2.50e1", label: "whole", foundation: .value(-25), spool: .value(-25)),
        differs(Box<Int>.self, #"{"value": 1E+2}"#, label: "whole", foundation: .value(Box(value: 100)), spool: .value(Box(value: 100))),
        differs(Int64.self, "9007199254740993.0", label: "whole", foundation: .value(9_007_199_254_740_993), spool: .value(9_007_199_254_740_993)),
        differs(Int.self, "1.5", label: "fraction", foundation: corrupted(), spool: mismatch()),
        differs(Box<Int>.self, #"{"value": 1.5}"#, label: "fraction", foundation: corrupted(), spool: mismatch(KeyRecord("value"))),
        differs([Int].self, "[1, 2.5]", label: "fraction", foundation: corrupted(), spool: mismatch(.index(1))),
        differs(Int.self, "1.0000000000000001", label: "fraction rounded away by Double", foundation: .value(1), spool: mismatch()),
        differs(UInt8.self, "300", label: "out of range", foundation: corrupted(), spool: mismatch()),
        differs(Int8.self, "-129", label: "out of range", foundation: corrupted(), spool: mismatch()),
        differs(UInt.self, "-1", label: "out of range", foundation: corrupted(), spool: mismatch()),
        differs(Int64.self, "9223372036854775808", label: "out of range", foundation: corrupted(), spool: mismatch()),
        differs(Int.self, "1e20", label: "out of range", foundation: corrupted(), spool: mismatch()),
        differs(Int.self, "1e400", label: "out of range", foundation: corrupted(), spool: mismatch()),
        differs([String: UInt8].self, #"{"a": 256}"#, label: "out of range", foundation: corrupted(), spool: mismatch(KeyRecord("a"))),
        differs(Data.self, "[1, 256]", CompatSettings(data: .deferredToData), label: "byte out of range", foundation: corrupted(), spool: mismatch(.index(1))),
    ]

    /// A `Double` or `Float` that would be infinite, or a non-zero number that would round to
    /// zero, is invalid JSON for JSONDecoder; Spool refuses both as a located type mismatch.
    static let floats: [CompatCase] = [
        differs(Double.self, "1e400", label: "overflow", foundation: corrupted(), spool: mismatch()),
        differs(Double.self, "-1e400", label: "overflow", foundation: corrupted(), spool: mismatch()),
        differs(Box<Double>.self, #"{"value": 1e309}"#, label: "overflow", foundation: corrupted(), spool: mismatch(KeyRecord("value"))),
        differs(Float.self, "1e39", label: "overflow", foundation: corrupted(), spool: mismatch()),
        differs([Float].self, "[1, -3.5e38]", label: "overflow", foundation: corrupted(), spool: mismatch(.index(1))),
        // Rounding to zero: both refuse a non-zero number that would be 0.
        differs(Double.self, "1e-400", label: "underflow", foundation: corrupted(), spool: mismatch()),
        differs(Float.self, "1e-50", label: "underflow", foundation: corrupted(), spool: mismatch()),
        differs(Date.self, "1e400", CompatSettings(dates: .secondsSince1970), label: "overflow", foundation: corrupted(), spool: mismatch()),
    ]

    /// `Decimal` is read from the number's text by both; a number beyond `Decimal`'s range is
    /// invalid JSON for JSONDecoder and a located type mismatch for Spool.
    static let decimals: [CompatCase] = [
        differs(Decimal.self, "0.1", label: "exact", foundation: .value(Decimal(string: "0.1")!), spool: .value(Decimal(string: "0.1")!)),
        differs(Decimal.self, "1e200", label: "beyond Decimal", foundation: corrupted(), spool: mismatch()),
        differs(Box<Decimal>.self, #"{"value": -1e-200}"#, label: "beyond Decimal", foundation: corrupted(), spool: mismatch(KeyRecord("value"))),
    ]

    @Test(arguments: integers) func spoolIntegersAreExact(_ row: CompatCase) { row.check() }
    @Test(arguments: floats) func spoolFloatsRefuseInfinity(_ row: CompatCase) { row.check() }
    @Test(arguments: decimals) func spoolDecimalsAreReadFromTheText(_ row: CompatCase) { row.check() }

    /// Spool reads UTF-8 only; JSONDecoder also detects UTF-16 and UTF-32 by their byte order
    /// marks or zero bytes. Both skip a UTF-8 byte order mark (``ByteOrderMarkTests``).
    static let encodings: [CompatCase] = [
        differs(String.self, [0xFF, 0xFE] + Array(#""a""#.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }), label: "UTF-16LE",
                foundation: .value("a"), spool: corrupted()),
        differs(String.self, Array(#""a""#.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }), label: "UTF-16BE without a BOM",
                foundation: .value("a"), spool: corrupted()),
    ]

    @Test(arguments: encodings) func spoolReadsStrictUTF8(_ row: CompatCase) { row.check() }

    /// JSONDecoder checks numbers and strings only when a model reads them, and takes a
    /// trailing comma; Spool rejects invalid JSON wherever it is.
    static let lenient: [CompatCase] = [
        differs([Int].self, "[1,]", label: "trailing comma", foundation: .value([1]), spool: corrupted()),
        differs([String: Int].self, #"{"a": 1,}"#, label: "trailing comma", foundation: .value(["a": 1]), spool: corrupted()),
        differs([Int].self, "01", label: "invalid number not read", foundation: mismatch(), spool: corrupted()),
        differs([Int].self, "1.", label: "invalid number not read", foundation: mismatch(), spool: corrupted()),
        differs([Int].self, "-", label: "invalid number not read", foundation: mismatch(), spool: corrupted()),
        differs([Int].self, "1e", label: "invalid number not read", foundation: mismatch(), spool: corrupted()),
        differs(Box<Int>.self, #"{"other": 01, "value": 1}"#, label: "invalid number not read", foundation: .value(Box(value: 1)), spool: corrupted()),
        differs([Int].self, #""\x""#, label: "invalid string not read", foundation: mismatch(), spool: corrupted()),
        differs([Int].self, "\"\t\"", label: "invalid string not read", foundation: mismatch(), spool: corrupted()),
        differs(Int.self, "01", label: "invalid number read", foundation: corrupted(), spool: corrupted()),
        differs(String.self, #""\x""#, label: "invalid string read", foundation: corrupted(), spool: corrupted()),
        differs(String.self, "\"\t\"", label: "invalid string read", foundation: corrupted(), spool: corrupted()),
    ]

    @Test(arguments: lenient) func spoolRejectsInvalidJSONThatJSONDecoderDoesNotRead(_ row: CompatCase) { row.check() }

    static let iso8601 = CompatSettings(dates: .iso8601)

    /// `.iso8601`: JSONDecoder (Swift 6.3.1) also reads fractional seconds now (see
    /// ``iso8601FractionalSeconds()``). It reports a bad date string at the path of the
    /// container holding it (its `self.codingPath`), not at the value, unlike its other errors;
    /// Spool at the value. Spool's parser is stricter on calendar dates, reads four-digit years
    /// only, and accepts RFC 3339's lowercase `t` (all outside the Codable layer). Dates before
    /// 1582 agree (HistoricDateTests).
    static let dates: [CompatCase] = [
        differs(Box<Date>.self, #"{"value": "yesterday"}"#, iso8601, label: "bad ISO 8601 date", foundation: corrupted(), spool: corrupted(KeyRecord("value"))),
        differs([Date].self, #"["2016-05-17T22:43:04Z", "x"]"#, iso8601, label: "bad ISO 8601 date", foundation: corrupted(), spool: corrupted(.index(1))),
        differs(Date.self, #""2016-02-30T22:43:04Z""#, iso8601, label: "day out of range",
                foundation: .value(Date(timeIntervalSince1970: 1_456_872_184)), spool: corrupted()),
        differs(Date.self, #""2016-05-17t22:43:04Z""#, iso8601, label: "lowercase t",
                foundation: corrupted(), spool: .value(Date(timeIntervalSince1970: 1_463_524_984))),
        differs(Date.self, #""10000-01-01T00:00:00Z""#, iso8601, label: "year past 9999",
                foundation: .value(Date(timeIntervalSince1970: 253_402_300_800)), spool: corrupted()),
    ]

    @Test(arguments: dates) func iso8601Dates(_ row: CompatCase) { row.check() }

    /// Both read fractional seconds; Spool's date is the nearest to the text's instant,
    /// JSONDecoder's can be off in the last bits (here by about 0.1 µs).
    @Test func iso8601FractionalSeconds() throws {
        let json = #"["2016-05-17T22:43:04.123Z", "2016-05-17T22:43:04.5+02:00"]"#
        let foundation = try #require(Compat.foundation([Date].self, json, Self.iso8601).value)
        let spool = try #require(Compat.spool([Date].self, json, Self.iso8601).value)
        #expect(spool == [Date(timeIntervalSince1970: 1_463_524_984.123), Date(timeIntervalSince1970: 1_463_517_784.5)])
        for (a, b) in zip(foundation, spool) {
            #expect(abs(a.timeIntervalSince(b)) < 1e-6, "\(a.timeIntervalSince1970) \(b.timeIntervalSince1970)")
        }
    }

    /// Whole-document decoding of a document larger than 4 MiB held in memory, or read from a
    /// file, releases the elements of the first array it walks once they are decoded
    /// (``JSONParsingOptions/releasesDecodedElements``), so a model that reads an array again
    /// (a fallback after a failed attempt) gets a located error saying so; JSONDecoder reads it
    /// again, and so does Spool with the option off, or for a smaller document in memory, which
    /// is parsed whole first.
    struct Twice: Decodable, Equatable, Sendable {
        let ints: [Int]?
        let doubles: [Double]

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            ints = try? container.decode([Int].self, forKey: AnyKey("v"))
            doubles = try container.decode([Double].self, forKey: AnyKey("v"))
        }
    }

    @Test(arguments: [#"{"v": [1, 2.5]}"#, #"{"v": [1, 2]}"#])
    func spoolReleasesDecodedArrays(_ json: String) throws {
        let foundation = Compat.foundation(Twice.self, json)
        #expect(foundation.value != nil, "\(foundation)")
        let small = Compat.spool(Twice.self, json)
        #expect(Outcome.same(small, foundation), "\(small)")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("spool-twice-\(UUID().uuidString).json")
        try Data(json.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let spool = Outcome { try StreamingJSONDecoder().decode(Twice.self, from: .file(file.path)) }
        let error = try #require(spool.error, "\(spool)")
        #expect(error.kind == .dataCorrupted && error.path.first?.string == "v", "\(error)")
        #expect(error.isLocated && error.debugDescription.contains("releasesDecodedElements"), "\(error.debugDescription)")
        let keeping = StreamingJSONDecoder()
        keeping.options.releasesDecodedElements = false
        let kept = Outcome { try keeping.decode(Twice.self, from: .file(file.path)) }
        #expect(Outcome.same(kept, foundation), "\(kept)")
    }

    /// Duplicate keys: JSONDecoder (Swift 6.3.1, swift-foundation) keeps the FIRST of
    /// duplicate keys (`_setIfNil` in its keyed container and its `[String: T]` path), and so
    /// does Spool, everywhere: its Codable layer where it reads the keys itself (a key
    /// strategy, `[String: T]`), and `Extractor.member` for lookups without a key strategy,
    /// whatever the order of the lookups (the last row).
    struct OtherThenValue: Decodable, Equatable, Sendable {
        let other: Int
        let value: Int
    }

    static let duplicates: [CompatCase] = [
        .same(Box<Int>.self, #"{"value": 1, "value": 2}"#), .same([String: Int].self, #"{"a": 1, "a": 2}"#),
        .same([String: Int].self, #"{"a": 1, "a": 2}"#, .snakeCase), .same(Box<Int>.self, #"{"value": 1, "value": 2}"#, .snakeCase),
        .same(AB.self, #"{"a_b": 1, "aB": 2}"#, .snakeCase), .same(AB.self, #"{"aB": 1, "a_b": 2}"#, .snakeCase),
        .same([String: Int].self, #"{"a": 1, "a": "x"}"#), .same([String: Int].self, #"{"a": 1, "a": "x"}"#, .snakeCase),
        .same(OtherThenValue.self, #"{"value": 1, "other": 0, "value": 2}"#, .snakeCase),
        .same(OtherThenValue.self, #"{"value": 1, "other": 0, "value": 2}"#),
    ]

    struct AB: Decodable, Equatable, Sendable { let aB: Int }

    @Test(arguments: duplicates) func duplicateKeys(_ row: CompatCase) { row.check() }
}
