import Foundation
import Spool
import Testing

/// Every key, date, data and non-conforming float strategy, under the same settings for both
/// decoders.
@Suite("Compatibility: strategies")
struct CompatibilityStrategyTests {
    // MARK: Keys

    struct SnakeModel: Decodable, Equatable {
        let lastUpdated: Int
        let _leading: Int
        let trailing_: Int
        let aB: Int
        let urlValue: Int
        let simple: Int
        let _aB_: Int
        let alreadyCamelcase: Int
        let ALLCAPS: Int
        let nested: Child?

        struct Child: Decodable, Equatable {
            let lastUpdated: Int
            let urlValue: Int
            let simple: Int
        }
    }

    static let snakeJSON = #"{"last_updated": 1, "_leading": 2, "trailing_": 3, "a__b": 4, "URL_value": 5, "simple": 6, "_a_b_": 7, "already_camelCase": 8, "ALLCAPS": 9"#

    /// The keys a container sees after conversion, sorted.
    static let allKeysScript: Probe.Script = { decoder, log in
        let container = try decoder.container(keyedBy: AnyKey.self)
        log.note("allKeys", container.allKeys.map(\.stringValue).sorted())
        if container.contains(AnyKey("inner")), let inner = try? container.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("inner")) {
            log.note("inner.allKeys", inner.allKeys.map(\.stringValue).sorted())
        }
    }

    static let trickyKeys = [
        "last_updated", "_leading", "trailing_", "a__b", "URL_value", "simple", "_a_b_", "__", "_", "", "ALL_CAPS", "ALLCAPS",
        "already_camelCase", "x_2nd", "sha_256_hash", "a_b1c", "a-b_c-d", "v_1.5x", "i_ǆx", "ß_ßa", "a_éB", "a_😀b", "__a__b__",
        "a_b_", "one_two_three", "a_'b", "a_.b", "a_:b",
    ]

    static let trickyJSON = "{" + trickyKeys.enumerated().map { #""\#($1)": \#($0)"# }.joined(separator: ", ") + "}"

    struct Upper: Decodable, Equatable {
        let NAME: String
        let inner: Inner?

        struct Inner: Decodable, Equatable { let VALUE: Int }
    }

    /// A custom key function sees the coding path of the key, ending in the key.
    static let pathKeys = CompatSettings(keys: .custom { path in
        AnyKey(stringValue: "\(path.count):\(path.map(\.stringValue).joined(separator: "/"))")
    })

    static let uppercased = CompatSettings(keys: .custom { path in
        let last = path.last!
        return last.intValue.map { AnyKey(intValue: $0) } ?? AnyKey(stringValue: last.stringValue.uppercased())
    })

    static let keys: [CompatCase] = [
        .same(SnakeModel.self, snakeJSON + "}", .snakeCase),
        .same(SnakeModel.self, snakeJSON + #", "nested": "# + snakeJSON + "}}", .snakeCase),
        .same(SnakeModel.self, snakeJSON + #", "nested": "# + snakeJSON.replacingOccurrences(of: "\"simple\"", with: "\"simple_\"") + "}}", .snakeCase),
        .same(SnakeModel.self, snakeJSON.replacingOccurrences(of: "1,", with: #""1","#) + "}", .snakeCase),
        .same(SnakeModel.self, snakeJSON + "}"),
        .probe("converted keys", trickyJSON, .snakeCase, script: allKeysScript),
        .probe("converted keys", #"{"a_b": {"c_d": 1, "e": 2}, "inner": {"x_y": 1, "Z_Z": 2}}"#, .snakeCase, script: allKeysScript),
        .probe("converted keys", #"{"inner": {"x_y": 1}}"#, pathKeys, script: allKeysScript),
        .probe("converted keys", trickyJSON, pathKeys, script: allKeysScript),
        // [String: T] keeps its keys under any strategy; other dictionaries do not.
        .same([String: Int].self, #"{"a_b": 1, "_c": 2}"#, .snakeCase), .same(Box<[String: Int]>.self, #"{"value": {"a_b": 1}}"#, .snakeCase),
        .same([String: [String: Int]].self, #"{"a_b": {"c_d": 1}}"#, .snakeCase),
        .same([String: Box<Int>].self, #"{"a_b": {"value": 1}}"#, .snakeCase),
        .same([String: SnakeModel].self, #"{"a_b": "# + snakeJSON + "}}", .snakeCase),
        .same([Int: String].self, #"{"1": "a", "1_2": "b"}"#, .snakeCase), .same([CompatibilityContainerTests.Color: Int].self, #"{"dark_red": 1}"#, .snakeCase),
        .same([String: Int].self, #"{"a": 1}"#, uppercased), .same(Upper.self, #"{"name": "x", "inner": {"value": 1}}"#, uppercased),
        .same(Upper.self, #"{"name": "x", "inner": {"valu": 1}}"#, uppercased), .same([Int: Int].self, #"{"1": 2}"#, uppercased),
        .same(Box<Int>.self, #"{"value": "x"}"#, .snakeCase), .same(SnakeModel.self, #"{"last_updated": 1}"#, .snakeCase),
    ]

    @Test(arguments: keys) func keyStrategy(_ row: CompatCase) { row.check() }

    // MARK: Dates

    static let utcFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return formatter
    }()

    static let customDates = CompatSettings(dates: .custom { decoder in
        let container = try decoder.singleValueContainer()
        if let seconds = try? container.decode(Double.self) {
            return Date(timeIntervalSince1970: seconds + Double(decoder.codingPath.count) / 1000)
        }
        let text = try container.decode(String.self)
        guard text.hasPrefix("@"), let seconds = Double(text.dropFirst()) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not @seconds")
        }
        return Date(timeIntervalSince1970: seconds)
    })

    static let dates: [CompatCase] = [
        ["0", "1.5", "-1", "1e10", #""1""#, "null", "true"].flatMap { CompatCase.everywhere(Date.self, $0, CompatSettings(dates: .secondsSince1970)) },
        ["1500", "1", "-1", "0.5", #""x""#, "null"].flatMap { CompatCase.everywhere(Date.self, $0, CompatSettings(dates: .millisecondsSince1970)) },
        ["0", "-1.25", #""x""#, "null"].flatMap { CompatCase.everywhere(Date.self, $0, CompatSettings(dates: .deferredToDate)) },
        [
            #""2016-05-17T22:43:04Z""#, #""2016-05-17T22:43:04+02:00""#, #""2016-05-17T22:43:04-07:30""#, #""1970-01-01T00:00:00Z""#,
            #""2016-05-17T22:43:04z""#, #""2016-05-17T22:43:04+0200""#, "1", "null",
        ].flatMap { CompatCase.everywhere(Date.self, $0, CompatSettings(dates: .iso8601)) },
        [
            #""2016-05-17T22:43:04""#, #""2016-05-17""#, #""2016-05-17 22:43:04Z""#,
            #""2016-05-17T22:43Z""#, #""2016-13-17T22:43:04Z""#, #""x""#,
        ].map { CompatCase.same(Date.self, $0, CompatSettings(dates: .iso8601)) },
        [#""2016-05-17T22:43:04""#, #""2016-05-17""#, "1", "null", #""""#]
            .flatMap { CompatCase.everywhere(Date.self, $0, CompatSettings(dates: .formatted(utcFormatter))) },
        ["12", #""@12""#, #""12""#, "null", "[]"].flatMap { CompatCase.everywhere(Date.self, $0, customDates) },
        [.same(Box<Date?>.self, #"{"value": null}"#, customDates), .same(Box<Date?>.self, #"{"value": null}"#, CompatSettings(dates: .iso8601))],
    ].flatMap { $0 }

    @Test(arguments: dates) func dateStrategy(_ row: CompatCase) { row.check() }

    // MARK: Data

    static let hexData = CompatSettings(data: .custom { decoder in
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        var bytes: [UInt8] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            guard let byte = UInt8(rest.prefix(2), radix: 16) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not hex")
            }
            bytes.append(byte)
            rest = rest.dropFirst(2)
        }
        return Data(bytes) + Data([UInt8(decoder.codingPath.count)])
    })

    static let data: [CompatCase] = [
        ["[104, 105]", "[]", #"["x"]"#, #""aGk=""#, "null", "[null]", "{}"].flatMap { CompatCase.everywhere(Data.self, $0, CompatSettings(data: .deferredToData)) },
        [#""aGVsbG8=""#, #""""#, #""aGk""#, #""aGk=""#, #""!!""#, #""aGk=\u0000""#, "[1]"].flatMap { CompatCase.everywhere(Data.self, $0) },
        [#""6869""#, #""""#, #""zz""#, "1", "null"].flatMap { CompatCase.everywhere(Data.self, $0, hexData) },
    ].flatMap { $0 }

    @Test(arguments: data) func dataStrategy(_ row: CompatCase) { row.check() }

    // MARK: Non-conforming floats

    /// A float compared bit for bit, so that NaN equals NaN.
    struct Bits<F: BinaryFloatingPoint & Decodable>: Decodable, Equatable {
        let value: F

        init(from decoder: any Decoder) throws {
            value = try decoder.singleValueContainer().decode(F.self)
        }

        static func == (lhs: Bits, rhs: Bits) -> Bool {
            lhs.value == rhs.value || (lhs.value.isNaN && rhs.value.isNaN)
        }
    }

    /// Doubles and floats through the keyed and unkeyed containers' typed methods.
    struct Floats: Decodable, Equatable {
        var values: [String] = []

        init(from decoder: any Decoder) throws {
            if var unkeyed = try? decoder.unkeyedContainer() {
                values.append("\(try unkeyed.decode(Double.self))")
                values.append("\(try unkeyed.decode(Float.self))")
                values.append("\(String(describing: try unkeyed.decodeIfPresent(Double.self)))")
                values.append("\(String(describing: try unkeyed.decodeIfPresent(Float.self)))")
                return
            }
            let keyed = try decoder.container(keyedBy: AnyKey.self)
            values.append("\(try keyed.decode(Double.self, forKey: AnyKey("d")))")
            values.append("\(try keyed.decode(Float.self, forKey: AnyKey("f")))")
            values.append("\(String(describing: try keyed.decodeIfPresent(Double.self, forKey: AnyKey("od"))))")
            values.append("\(String(describing: try keyed.decodeIfPresent(Float.self, forKey: AnyKey("of"))))")
        }
    }

    static let strings = CompatSettings(floats: .convertFromString(positiveInfinity: "+Inf", negativeInfinity: "-Inf", nan: "NaN"))

    static let floats: [CompatCase] = [
        [#""+Inf""#, #""-Inf""#, #""NaN""#, #""nan""#, #""Infinity""#, "1.5", "null", #""1.5""#]
            .flatMap { json in [
                CompatCase.same(Bits<Double>.self, json, strings), CompatCase.same(Bits<Float>.self, json, strings),
                CompatCase.same([Bits<Double>].self, "[\(json)]", strings), CompatCase.same(Box<Bits<Float>>.self, #"{"value": \#(json)}"#, strings),
                CompatCase.same(Bits<Double>.self, json), CompatCase.same([Bits<Float>].self, "[1, \(json)]"),
            ] },
        [
            #"["NaN", "+Inf", "-Inf", null]"#, #"["+Inf", "NaN", null, "-Inf"]"#, #"[1, 2, 3, 4]"#, #"["x", 1]"#,
            #"{"d": "NaN", "f": "-Inf", "od": "+Inf", "of": "NaN"}"#, #"{"d": 1, "f": 2, "od": null}"#, #"{"d": "nan", "f": 2}"#,
        ].flatMap { [CompatCase.same(Floats.self, $0, strings), CompatCase.same(Floats.self, $0)] },
    ].flatMap { $0 }

    @Test(arguments: floats) func nonConformingFloatStrategy(_ row: CompatCase) { row.check() }

    /// `.pattern` is Spool's: it reads what the equivalent `DateFormatter` reads, but for
    /// fields of another width (see ``spoolPatternFieldsHaveAFixedWidth()``).
    @Test(arguments: [#"["2016-05-17", "1970-01-01"]"#, #"["2016-05-17T22:43:04"]"#, #"["2016-05-1x"]"#, "[1]", "[null]"])
    func spoolPatternDatesAgreeWithAFormatter(_ json: String) {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        let foundation = Compat.foundation([Date].self, json, CompatSettings(dates: .formatted(formatter)))
        let decoder = StreamingJSONDecoder()
        decoder.dateDecodingStrategy = .pattern("yyyy-MM-dd")
        let spool = Outcome { try decoder.decode([Date].self, from: .string(json)) }
        #expect(Outcome.same(spool, foundation), "JSONDecoder: \(foundation)\nSpool: \(spool)")
    }

    /// A `DateFormatter` reads `2016-5-17` for `yyyy-MM-dd`; Spool's fixed-width `.pattern`
    /// does not.
    @Test func spoolPatternFieldsHaveAFixedWidth() {
        let decoder = StreamingJSONDecoder()
        decoder.dateDecodingStrategy = .pattern("yyyy-MM-dd")
        let spool = Outcome { try decoder.decode([Date].self, from: .string(#"["2016-5-17"]"#)) }
        #expect(spool.error == ErrorRecord(.dataCorrupted, [.index(0)]), "\(spool)")
        #expect(spool.error?.isLocated == true)
    }
}
