import Foundation
@testable import Spool
import Synchronization
import Testing

/// Key strategies convert each distinct JSON key once per decode or stream, not once per
/// object (issue 21), and still match as `JSONDecoder` matches.
@Suite("Key strategies: one conversion per distinct key")
struct KeyTranslationTests {
    struct Row: Decodable, Equatable {
        let firstName: String
        let id: Int
        let lastSeenAt: Int?
    }

    static let rows = "[" + (0..<500).map { #"{"first_name": "n\#($0)", "id": \#($0), "last_seen_at": 1}"# }.joined(separator: ",") + "]"

    @Test func aCustomStrategyIsCalledOncePerDistinctKey() throws {
        let calls = Mutex<[String]>([])
        let decoder = StreamingJSONDecoder()
        decoder.keyDecodingStrategy = .custom { path in
            let last = path[path.count - 1].stringValue
            calls.withLock { $0.append(last) }
            return TestKey(stringValue: StreamingJSONDecoderTestKeys.camel(last))
        }
        let rows = try decoder.decode([Row].self, from: Data(Self.rows.utf8))
        #expect(rows.count == 500 && rows[499] == Row(firstName: "n499", id: 499, lastSeenAt: 1))
        #expect(calls.withLock { $0.sorted() } == ["first_name", "id", "last_seen_at"])

        // A stream keeps one table for all its elements.
        calls.withLock { $0.removeAll() }
        var streamed = 0
        try JSONStream(.string(Self.rows)).elements(of: Row.self, decoder: decoder).forEach { _ in streamed += 1 }
        #expect(streamed == 500)
        #expect(calls.withLock { $0.count } == 3)
    }

    @Test func snakeCaseMatchesAsJSONDecoderDoes() throws {
        let decoder = StreamingJSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        #expect(try decoder.decode([Row].self, from: Data(Self.rows.utf8)) == foundation.decode([Row].self, from: Data(Self.rows.utf8)))
        // Keys that convert alike: the first in the object counts, in any order of lookups.
        let alike = #"{"first_name": "a", "firstName": "b", "FIRST_NAME": "c", "id": 1, "last_seen_at": null}"#
        #expect(try decoder.decode(Row.self, from: Data(alike.utf8)) == foundation.decode(Row.self, from: Data(alike.utf8)))
        #expect(try decoder.decode(Row.self, from: Data(alike.utf8)).firstName == "a")
        // Long and non-ASCII keys, and keys that are only underscores.
        struct Odd: Decodable, Equatable {
            let aVeryLongKeyNameThatIsLongerThanSixteenBytes: Int
            let çaVaBien: Int
            let __: Int
        }
        let odd = #"{"a_very_long_key_name_that_is_longer_than_sixteen_bytes": 1, "ça_va_bien": 2, "__": 3}"#
        #expect(try decoder.decode(Odd.self, from: Data(odd.utf8)) == foundation.decode(Odd.self, from: Data(odd.utf8)))
        #expect(try decoder.decode(Odd.self, from: Data(odd.utf8)) == Odd(aVeryLongKeyNameThatIsLongerThanSixteenBytes: 1, çaVaBien: 2, __: 3))
    }

    /// Wide objects (past the index of keys passed) with lookups out of order.
    @Test func wideObjectsInAnyOrder() throws {
        struct Wide: Decodable, Equatable {
            let values: [Int]

            struct Key: CodingKey {
                let stringValue: String
                init(stringValue: String) { self.stringValue = stringValue }
                var intValue: Int? { nil }
                init?(intValue: Int) { nil }
            }

            init(values: [Int]) { self.values = values }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Key.self)
                values = try (0..<60).reversed().map { try container.decode(Int.self, forKey: Key(stringValue: "key\($0)Name")) }
            }
        }
        let json = "{" + (0..<60).map { #""key_\#($0)_name": \#($0)"# }.joined(separator: ",") + "}"
        let decoder = StreamingJSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        #expect(try decoder.decode(Wide.self, from: Data(json.utf8)) == Wide(values: (0..<60).reversed()))
    }
}

/// A coding key with any name.
struct TestKey: CodingKey {
    let stringValue: String
    init(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
}

/// A naive snake-to-camel conversion for the custom strategy's test.
enum StreamingJSONDecoderTestKeys {
    static func camel(_ key: String) -> String {
        let words = key.split(separator: "_")
        guard let first = words.first else { return key }
        return String(first) + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}

/// Keys are compared as `JSONDecoder` compares them, as `String`s: the same characters in
/// another Unicode form match (issue 21: `"cafe\u0301"` was not found for `café`).
@Suite("Keys in another Unicode form")
struct CanonicalKeyTests {
    struct Accented: Decodable, Equatable {
        let café: Int
    }

    struct AnyKey: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    @Test func aDecomposedKeyIsFound() throws {
        let json = #"{"cafe\u0301": 2}"#
        #expect(try JSONDecoder().decode(Accented.self, from: Data(json.utf8)).café == 2)
        #expect(try StreamingJSONDecoder().decode(Accented.self, from: .string(json)).café == 2)
        let raw = "{\"cafe\u{301}\": 3}"  // as raw UTF-8, not an escape
        #expect(try StreamingJSONDecoder().decode(Accented.self, from: .string(raw)).café == 3)
        var values: [Int] = []
        try JSONStream(.string("[\(json)]")).elements(of: Accented.self, decoder: StreamingJSONDecoder()).forEach { values.append($0.café) }
        #expect(values == [2])
    }

    struct Pair: Decodable, Equatable {
        let a: Int
        let café: Int
    }

    struct Wide: Decodable, Equatable {
        let k0, k1, k2, k3, k4, k5, k6, k7, k8, k9, k10, k11, k12, k13, k14, k15, k16, k17: Int
        let k18, k19, k20, k21, k22, k23, k24, k25, k26, k27, k28, k29, k30, k31, k32, k33, k34, k35: Int
        let café: Int
    }

    /// Keys passed in another Unicode form before the one asked for (out of order, and the
    /// first of two equivalent keys): the filter and index of keys passed work on bytes, so a
    /// scan answers (found in review: keyNotFound, or the later duplicate, silently).
    @Test(arguments: [
        #"{"café":1,"a":2}"#, "{\"cafe\u{301}\":1,\"a\":2}", #"{"a":2,"café":1}"#,
        #"{"café":1,"a":0,"café":2}"#, #"{"café":1,"a":0,"café":2}"#,
        #"{"a":0,"café":1,"café":2}"#, #"{"a":0,"café":1,"café":2}"#,
    ])
    func keysPassedInAnotherForm(_ json: String) throws {
        let foundation = try JSONDecoder().decode(Pair.self, from: Data(json.utf8))
        #expect(try StreamingJSONDecoder().decode(Pair.self, from: Data(json.utf8)) == foundation)
    }

    @Test func aWideObjectWithAKeyInAnotherForm() throws {
        let json = #"{"café":99,"# + (0..<36).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}"
        let foundation = try JSONDecoder().decode(Wide.self, from: Data(json.utf8))
        #expect(try StreamingJSONDecoder().decode(Wide.self, from: Data(json.utf8)) == foundation)
        #expect(foundation.café == 99)
    }

    struct Probe: Decodable {
        let contains: Bool
        init(from decoder: any Decoder) throws {
            contains = try decoder.container(keyedBy: AnyKey.self).contains(AnyKey(stringValue: "caf\u{e9}"))
        }
    }

    @Test func containsAgrees() throws {
        #expect(try StreamingJSONDecoder().decode(Probe.self, from: .string(#"{"cafe\u0301": 2}"#)).contains)
        #expect(try !StreamingJSONDecoder().decode(Probe.self, from: .string(#"{"cafe": 2}"#)).contains)
    }

    /// The table of conversions is bounded: a stream whose objects keep bringing new keys
    /// must not grow it with the input (found in review; the table had no limit). It is
    /// emptied between elements, once past its limit, never within one.
    @Test func theTableOfConversionsStaysBounded() {
        let translation = KeyTranslation(.snakeCase)
        func converted(_ key: String) -> String {
            var key = key
            return key.withUTF8 { String(decoding: translation.converted($0), as: UTF8.self) }
        }
        // One new key per element.
        var mostKeys = 0
        for id in 0..<10_000 {
            #expect(converted("user_\(id)") == "user\(id)")
            mostKeys = max(mostKeys, translation.used)
            translation.endDecode()
        }
        #expect(mostKeys == KeyTranslation.maximumKeys + 1)
        #expect(translation.used <= KeyTranslation.maximumKeys)
        // Keys met before the table started again still convert.
        #expect(converted("user_5") == "user5" && converted("user_9999") == "user9999")

        // Within one element, nothing is let go of, however many keys it has.
        translation.endDecode()
        let before = translation.used
        for id in 0..<6_000 { _ = converted("item_\(id)") }
        #expect(translation.used == before + 6_000)
        translation.endDecode()
        #expect(translation.used == 0 && translation.storedBytes == 0)

        // Long keys: bounded by the arena's bytes, counted in whole chunks.
        let long = String(repeating: "a_b", count: 3_000)
        var mostBytes = 0
        for id in 0..<1_000 {
            #expect(converted("\(long)_\(id)") == "\(String(repeating: "aB", count: 3_000))\(id)")
            mostBytes = max(mostBytes, translation.storedBytes)
            translation.endDecode()
        }
        #expect(mostBytes > KeyTranslation.maximumBytes)
        #expect(mostBytes <= KeyTranslation.maximumBytes + 2 * 16_384)

        // One huge key is let go of with the element that held it.
        let huge = String(repeating: "x_", count: 1_000_000)
        #expect(converted(huge).utf8.count == 1_000_001)  // x, then 999,999 X, and the trailing _ kept
        #expect(translation.storedBytes >= 3_000_000)
        translation.endDecode()
        #expect(translation.storedBytes == 0)
    }

    /// Past the table's limit, keys convert as before. Every key an object's lookups pass is
    /// converted, those the model does not ask for too (here, all of them: `missing` is never
    /// found), so objects with keys of their own fill the table.
    @Test func aStreamOfNewKeysDecodesAsJSONDecoderDoes() throws {
        struct Row: Decodable, Equatable {
            let id: Int
            let lastNote: String
            let missing: Int?
        }
        let json = "[" + (0..<6_000).map { #"{"extra_\#($0)": 1, "id": \#($0), "more_\#($0)_x": [], "last_note": "n\#($0)"}"# }
            .joined(separator: ",") + "]"
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        let expected = try foundation.decode([Row].self, from: Data(json.utf8))
        #expect(expected[5_999] == Row(id: 5_999, lastNote: "n5999", missing: nil))
        let decoder = StreamingJSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        #expect(try decoder.decode([Row].self, from: Data(json.utf8)) == expected)
        var streamed: [Row] = []
        try JSONStream(.string(json)).elements(of: Row.self, decoder: decoder).forEach { streamed.append($0) }
        #expect(streamed == expected)
    }
}
