import Foundation
import Spool
import Testing

/// Errors: the `DecodingError` case, its coding path and the missing key, for invalid JSON,
/// type mismatches, missing keys, `null`s, the end of arrays, and errors models throw.
@Suite("Compatibility: errors")
struct CompatibilityErrorTests {
    struct Outer: Decodable, Equatable {
        let inner: Inner
        let list: [Inner]?

        struct Inner: Decodable, Equatable { let x: Int }
    }

    /// Two integers from an array.
    struct Pair: Decodable, Equatable {
        let first: Int
        let second: Int

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            first = try container.decode(Int.self)
            second = try container.decode(Int.self)
        }
    }

    /// Asks `decodeNil(forKey:)` of a key that may be missing.
    struct NilProbe: Decodable, Equatable {
        let isNil: Bool

        init(from decoder: any Decoder) throws {
            isNil = try decoder.container(keyedBy: AnyKey.self).decodeNil(forKey: AnyKey("x"))
        }
    }

    /// The anchors: each decoder must give exactly these.
    static let anchors: [CompatCase] = [
        .fails([Int].self, #"[1, "x"]"#, ErrorRecord(.typeMismatch, [.index(1)])),
        .fails([[Int]].self, #"[[1], [2, "x"]]"#, ErrorRecord(.typeMismatch, [.index(1), .index(1)])),
        .fails([String: Int].self, #"{"a": 1, "b": "x"}"#, ErrorRecord(.typeMismatch, [KeyRecord("b")])),
        .fails([String: [Int]].self, #"{"a": [1, null]}"#, ErrorRecord(.valueNotFound, [KeyRecord("a"), .index(1)])),
        .fails([Int: String].self, #"{"1": "a", "x": "b"}"#, ErrorRecord(.typeMismatch, [KeyRecord("x")])),
        .fails([Int: String].self, #"{"1": 2}"#, ErrorRecord(.typeMismatch, [KeyRecord("1", 1)])),
        .fails(Set<Int>.self, #"[1, "x"]"#, ErrorRecord(.typeMismatch, [.index(1)])),
        .fails(Outer.self, #"{"inner": {}}"#, ErrorRecord(.keyNotFound, [KeyRecord("inner")], key: KeyRecord("x"))),
        .fails(Outer.self, #"{}"#, ErrorRecord(.keyNotFound, [], key: KeyRecord("inner"))),
        .fails(Outer.self, #"{"inner": {"x": 1}, "list": [{"x": 1}, {}]}"#, ErrorRecord(.keyNotFound, [KeyRecord("list"), .index(1)], key: KeyRecord("x"))),
        .fails(Outer.self, #"{"inner": null}"#, ErrorRecord(.valueNotFound, [KeyRecord("inner")])),
        .fails(Outer.self, #"{"inner": {"x": null}}"#, ErrorRecord(.valueNotFound, [KeyRecord("inner"), KeyRecord("x")])),
        .fails(Box<String>.self, #"{"value": null}"#, ErrorRecord(.valueNotFound, [KeyRecord("value")])),
        .fails([String].self, #"["a", null]"#, ErrorRecord(.valueNotFound, [.index(1)])),
        .fails(String.self, "null", ErrorRecord(.valueNotFound, [])),
        .fails(Pair.self, "[1]", ErrorRecord(.valueNotFound, [.index(1)])),
        .fails(Pair.self, "[]", ErrorRecord(.valueNotFound, [.index(0)])),
        .fails(NilProbe.self, "{}", ErrorRecord(.keyNotFound, [], key: KeyRecord("x"))),
        .same(NilProbe.self, #"{"x": null}"#), .same(NilProbe.self, #"{"x": 0}"#),
        .fails(Outer.self, "[]", ErrorRecord(.typeMismatch, [])),
        .fails(Pair.self, "{}", ErrorRecord(.typeMismatch, [])),
    ]

    @Test(arguments: anchors) func anchor(_ row: CompatCase) { row.check() }

    /// `null` into every non-optional kind of value, in every kind of container.
    static let nulls: [CompatCase] = [
        CompatCase.everywhere(String.self, "null"), CompatCase.everywhere(Int.self, "null"), CompatCase.everywhere(UInt8.self, "null"),
        CompatCase.everywhere(Double.self, "null"), CompatCase.everywhere(Float.self, "null"), CompatCase.everywhere(Bool.self, "null"),
        CompatCase.everywhere(Decimal.self, "null"), CompatCase.everywhere(URL.self, "null"), CompatCase.everywhere(Date.self, "null"),
        CompatCase.everywhere(Data.self, "null"), CompatCase.everywhere([Int].self, "null"), CompatCase.everywhere([String: Int].self, "null"),
        CompatCase.everywhere([Int: Int].self, "null"), CompatCase.everywhere(Set<Int>.self, "null"), CompatCase.everywhere(Outer.Inner.self, "null"),
        CompatCase.everywhere(Pair.self, "null"), CompatCase.everywhere(Date.self, "null", CompatSettings(dates: .secondsSince1970)),
        CompatCase.everywhere(Date.self, "null", CompatSettings(dates: .iso8601)), CompatCase.everywhere(Data.self, "null", CompatSettings(data: .deferredToData)),
    ].flatMap { $0 }

    @Test(arguments: nulls) func nullIntoANonOptional(_ row: CompatCase) { row.check() }

    /// Invalid JSON is `dataCorrupted` at the root, whatever the model.
    static let invalid: [CompatCase] = [
        "", " ", "{", "nul", ".5", "[1] 2", "1 2", #"{"a" 1}"#, "NaN", "Infinity", "'a'", "[1", #"{"a": 1"#, "// c\n1",
        "/* c */ 1", #""a"#, "[1,,2]", #"{1: 2}"#, "tru", "+1", #"["a", {"b": [1, 2}]"#,
    ].flatMap { json in
        [CompatCase.same([Int].self, json, label: "invalid"), CompatCase.same(Box<Int>.self, json, label: "invalid")]
    } + [
        CompatCase.same([Int].self, #"[1, "x", }"#, label: "invalid after a type mismatch"),
        CompatCase.same(Outer.self, #"{"inner": {}, "#, label: "invalid after a missing key"),
        CompatCase.same(String.self, bytes: [0x22, 0xFF, 0x22], label: "invalid UTF-8"),
        CompatCase.same(String.self, bytes: [0x22, 0xC0, 0xAF, 0x22], label: "overlong UTF-8"),
        CompatCase.same(String.self, bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], label: "encoded surrogate"),
        CompatCase.same([String].self, bytes: Array(#"["a", ""#.utf8) + [0xE2, 0x82] + Array("\"]".utf8), label: "truncated UTF-8"),
        CompatCase.same(String.self, bytes: [0x22, 0x61, 0x00, 0x22], label: "raw NUL"),
        CompatCase.same(Int.self, bytes: [], label: "empty"),
    ]

    @Test(arguments: invalid) func invalidJSON(_ row: CompatCase) { row.check() }

    // MARK: Errors thrown by models

    enum ModelError: Error, Equatable { case negative(Int) }

    struct Validated: Decodable, Equatable {
        let age: Int

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            age = try container.decode(Int.self, forKey: AnyKey("age"))
            if age < -100 { throw ModelError.negative(age) }
            guard age >= 0 else {
                throw DecodingError.dataCorruptedError(forKey: AnyKey("age"), in: container, debugDescription: "negative age")
            }
        }
    }

    struct ValidatedElements: Decodable, Equatable {
        let values: [Int]

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            var values: [Int] = []
            while !container.isAtEnd {
                let value = try container.decode(Int.self)
                guard value >= 0 else { throw DecodingError.dataCorruptedError(in: container, debugDescription: "negative") }
                values.append(value)
            }
            self.values = values
        }
    }

    struct ValidatedSingle: Decodable, Equatable {
        let value: Int

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            value = try container.decode(Int.self)
            guard value >= 0 else { throw DecodingError.dataCorruptedError(in: container, debugDescription: "negative") }
        }
    }

    static let thrown: [CompatCase] = [
        .same(Validated.self, #"{"age": 1}"#, located: false), .same(Validated.self, #"{"age": -1}"#, located: false),
        .same(Validated.self, #"{"age": -101}"#, located: false), .same([Validated].self, #"[{"age": 1}, {"age": -1}]"#, located: false),
        .same([String: Validated].self, #"{"a": {"age": -101}}"#, located: false),
        .same(ValidatedElements.self, "[1, 2]", located: false), .same(ValidatedElements.self, "[1, -2]", located: false),
        .same(Box<ValidatedElements>.self, #"{"value": [1, -2]}"#, located: false),
        .same(ValidatedSingle.self, "-1", located: false), .same([ValidatedSingle].self, "[1, -1]", located: false),
        .same(Box<ValidatedSingle>.self, #"{"value": -1}"#, located: false),
    ]

    @Test(arguments: thrown) func errorThrownByAModel(_ row: CompatCase) { row.check() }

    /// Spool's value errors say where the value is; JSONDecoder's are sentences without one.
    @Test func spoolDescriptionsStartWithTheValuesLocation() throws {
        let cases: [(error: ErrorRecord?, foundation: ErrorRecord?, location: String)] = [
            (Compat.spool([Int].self, #"[1, "x"]"#).error, Compat.foundation([Int].self, #"[1, "x"]"#).error, "1:5"),
            (Compat.spool([Int].self, "[\n  1,\n  null]").error, Compat.foundation([Int].self, "[\n  1,\n  null]").error, "3:3"),
            (Compat.spool([String: [String: Int]].self, #"{"a": {"b": true}}"#).error,
             Compat.foundation([String: [String: Int]].self, #"{"a": {"b": true}}"#).error, "1:13"),
            (Compat.spool(Outer.self, #"{"inner": {}}"#).error, Compat.foundation(Outer.self, #"{"inner": {}}"#).error, "1:11"),
            (Compat.spool(Pair.self, "[1 ]").error, Compat.foundation(Pair.self, "[1 ]").error, "1:4"),
        ]
        for (spool, foundation, location) in cases {
            let spool = try #require(spool)
            let foundation = try #require(foundation)
            #expect(spool.debugDescription.hasPrefix("\(location): "), "\(spool.debugDescription)")
            #expect(!foundation.isLocated, "\(foundation.debugDescription)")
        }
    }
}
