import Foundation
import Testing
@testable import Spool

/// StreamingJSONEncoder's output is JSONEncoder's, byte for byte, under `.sortedKeys` (compact)
/// and `[.sortedKeys, .prettyPrinted]` (with neither, JSONEncoder orders keys by hash).
@Suite("StreamingJSONEncoder matches JSONEncoder")
struct EncoderComparisonTests {
    static let layouts: [[String]] = [["sortedKeys"], ["sortedKeys", "prettyPrinted"], ["sortedKeys", "withoutEscapingSlashes"]]

    /// The options named, for both encoders (Spool's takes `JSONEncoder`'s own).
    static func formatting(_ names: [String]) -> JSONEncoder.OutputFormatting {
        var formatting: JSONEncoder.OutputFormatting = []
        for name in names {
            switch name {
            case "sortedKeys": formatting.insert(.sortedKeys)
            case "prettyPrinted": formatting.insert(.prettyPrinted)
            default: formatting.insert(.withoutEscapingSlashes)
            }
        }
        return formatting
    }

    /// Encodes `value` with both encoders in every layout and expects the same bytes (or both to
    /// fail).
    func expectSameBytes<T: Encodable>(
        _ value: T, bothFail: Bool = false, configure: (JSONEncoder, StreamingJSONEncoder) -> Void = { _, _ in },
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        for layout in Self.layouts {
            let foundation = JSONEncoder()
            let spool = StreamingJSONEncoder()
            foundation.outputFormatting = Self.formatting(layout)
            spool.outputFormatting = foundation.outputFormatting
            configure(foundation, spool)
            let expected = Result { try foundation.encode(value) }
            let actual = Result { try spool.encode(value) }
            switch (expected, actual) {
            case (.success(let expected), .success(let actual)):
                #expect(!bothFail, "both encoded, where both should fail", sourceLocation: sourceLocation)
                #expect(
                    String(decoding: actual, as: UTF8.self) == String(decoding: expected, as: UTF8.self), "\(layout)",
                    sourceLocation: sourceLocation)
                #expect(actual == expected, "\(layout)", sourceLocation: sourceLocation)
            case (.failure(let expected), .failure(let actual)):
                #expect(bothFail, "both failed: JSONEncoder \(expected), Spool \(actual)", sourceLocation: sourceLocation)
            case (.success(let expected), .failure(let error)):
                Issue.record("\(layout): Spool failed (\(error)), JSONEncoder wrote \(String(decoding: expected, as: UTF8.self))", sourceLocation: sourceLocation)
            case (.failure(let error), .success(let actual)):
                Issue.record("\(layout): JSONEncoder failed (\(error)), Spool wrote \(String(decoding: actual, as: UTF8.self))", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func everyScalarType() { expectSameBytes(AllScalars()) }
    @Test func doublesFloatsAndIntegersAtTheirBounds() { expectSameBytes(Doubles()) }
    @Test func stringsWithEveryEscape() { expectSameBytes(Escapes()) }
    @Test func nestedAndEmptyContainers() { expectSameBytes(Containers()) }
    @Test func enumsWithAssociatedValues() {
        expectSameBytes([Shape.circle(radius: 1.5), .rectangle(width: 2, height: 0.5), .point, .labeled("tag", 7), .nested(inner: nil)])
    }
    @Test func classInheritanceThroughSuperEncoder() { expectSameBytes(Dog()) }
    @Test func classInheritanceSharingTheEncoder() { expectSameBytes(Cat()) }
    @Test func superEncoderUsedAfterLaterKeys() { expectSameBytes(Bird()) }
    @Test func unusedSuperEncoderIsAnEmptyObject() { expectSameBytes(UnusedSuper()) }
    @Test func superEncodersInAnUnkeyedContainer() { expectSameBytes(UnkeyedSupers()) }
    @Test func containersOpenedByHand() { expectSameBytes(HandWritten()) }
    @Test func singleValueWrappers() { expectSameBytes([Wrapper(wrapped: Inner())]) }
    @Test func aNestedValueThatEncodesNothingIsAnEmptyObject() { expectSameBytes([EncodesNothing()]) }
    @Test func aTopLevelValueThatEncodesNothingFailsInBoth() { expectSameBytes(EncodesNothing(), bothFail: true) }
    @Test func everythingAtOnce() { expectSameBytes(Everything()) }
    @Test func animalsOfEveryKind() { expectSameBytes([Dog(), Cat(), Bird(), Animal(name: "Worm", legs: 0)] as [Animal]) }

    @Test(arguments: [
        "\"top\"", "0", "-0.0", "1e300", "true", "null",
    ])
    func topLevelScalars(_ json: String) throws {
        switch json {
        case "\"top\"": expectSameBytes("top")
        case "0": expectSameBytes(0)
        case "-0.0": expectSameBytes(-0.0)
        case "1e300": expectSameBytes(1e300)
        case "true": expectSameBytes(true)
        default: expectSameBytes(Int?.none)
        }
    }

    @Test func topLevelContainers() {
        expectSameBytes([Int]())
        expectSameBytes([String: Int]())
        expectSameBytes([[Int]]())
        expectSameBytes([[String: Int]()])
        expectSameBytes(Empty())
    }

    @Test func duplicateKeysKeepTheLastValue() {
        struct Duplicates: Encodable {
            struct Key: CodingKey {
                var stringValue: String
                init(_ name: String) { stringValue = name }
                init?(stringValue: String) { self.stringValue = stringValue }
                var intValue: Int? { nil }
                init?(intValue: Int) { nil }
            }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Key.self)
                try container.encode(1, forKey: Key("b"))
                try container.encode(2, forKey: Key("a"))
                try container.encode(3, forKey: Key("b"))
                try container.encode([4], forKey: Key("a"))
            }
        }
        expectSameBytes(Duplicates())
    }

    // MARK: - Strategies

    @Test func datesUnderEveryStrategy() {
        expectSameBytes(Dates())
        expectSameBytes(Dates()) { $0.dateEncodingStrategy = .secondsSince1970; $1.dateEncodingStrategy = .secondsSince1970 }
        expectSameBytes(Dates()) { $0.dateEncodingStrategy = .millisecondsSince1970; $1.dateEncodingStrategy = .millisecondsSince1970 }
        expectSameBytes(Dates()) { $0.dateEncodingStrategy = .iso8601; $1.dateEncodingStrategy = .iso8601 }
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.locale = Locale(identifier: "en_US_POSIX")
        expectSameBytes(Dates()) { $0.dateEncodingStrategy = .formatted(formatter); $1.dateEncodingStrategy = .formatted(formatter) }
        expectSameBytes(Dates()) {
            $0.dateEncodingStrategy = .custom { date, encoder in
                var container = encoder.singleValueContainer()
                try container.encode("day \(Int(date.timeIntervalSince1970 / 86_400))")
            }
            $1.dateEncodingStrategy = .custom { date, encoder in
                var container = encoder.singleValueContainer()
                try container.encode("day \(Int(date.timeIntervalSince1970 / 86_400))")
            }
        }
        expectSameBytes(Dates()) {
            $0.dateEncodingStrategy = .custom { _, _ in }
            $1.dateEncodingStrategy = .custom { _, _ in }
        }
        expectSameBytes(Dates()) {
            $0.dateEncodingStrategy = .custom { date, encoder in
                var container = encoder.unkeyedContainer()
                try container.encode(date.timeIntervalSince1970)
                try container.encode("s")
            }
            $1.dateEncodingStrategy = .custom { date, encoder in
                var container = encoder.unkeyedContainer()
                try container.encode(date.timeIntervalSince1970)
                try container.encode("s")
            }
        }
    }

    @Test func dataUnderEveryStrategy() {
        expectSameBytes(Blobs())
        expectSameBytes(Blobs()) { $0.dataEncodingStrategy = .deferredToData; $1.dataEncodingStrategy = .deferredToData }
        expectSameBytes(Blobs()) {
            $0.dataEncodingStrategy = .custom { data, encoder in
                var container = encoder.singleValueContainer()
                try container.encode(data.count)
            }
            $1.dataEncodingStrategy = .custom { data, encoder in
                var container = encoder.singleValueContainer()
                try container.encode(data.count)
            }
        }
        expectSameBytes(Blobs()) {
            $0.dataEncodingStrategy = .custom { _, _ in }
            $1.dataEncodingStrategy = .custom { _, _ in }
        }
    }

    @Test func snakeCaseKeys() {
        expectSameBytes(SnakeKeys()) { $0.keyEncodingStrategy = .convertToSnakeCase; $1.keyEncodingStrategy = .convertToSnakeCase }
        expectSameBytes(Everything()) { $0.keyEncodingStrategy = .convertToSnakeCase; $1.keyEncodingStrategy = .convertToSnakeCase }
    }

    @Test func snakeCaseMatchesJSONEncoderWordForWord() {
        let keys = [
            "", "a", "A", "ab", "aB", "AB", "ABC", "aBC", "aBCd", "myURLKey", "myURL", "URLKey", "HTTPServer", "oneTwoThree",
            "one_TwoThree", "_leading", "__doubleLeading", "trailing_", "_both_", "a1B", "a1b2C3", "x1", "camelCASE", "ÄpfelBirnen",
            "élanVital", "straßeNeu", "ΣίσυφοςΜύθος", "日本Go", "aǅb", "already_snake_case", "mixed_CaseKey",
            // Combining marks: JSONEncoder steps by characters (issue 21: `a_b_\u{301}c` before).
            "aB\u{301}c", "aB\u{301}Cd", "aBC\u{301}d", "a\u{301}Bc", "e\u{301}", "AB\u{301}", "aB\u{308}\u{301}C\u{327}de",
            "a👍🏽Bc", "aB👍c",
        ]
        struct Keys: Encodable {
            var keys: [String]
            struct Key: CodingKey {
                var stringValue: String
                init?(stringValue: String) { self.stringValue = stringValue }
                var intValue: Int? { nil }
                init?(intValue: Int) { nil }
            }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Key.self)
                for (index, key) in keys.enumerated() {
                    if let codingKey = Key(stringValue: key) { try container.encode(index, forKey: codingKey) }
                }
            }
        }
        expectSameBytes(Keys(keys: keys)) { $0.keyEncodingStrategy = .convertToSnakeCase; $1.keyEncodingStrategy = .convertToSnakeCase }
    }

    @Test func customKeys() {
        let upper: @Sendable ([any CodingKey]) -> any CodingKey = { path in
            struct Key: CodingKey {
                var stringValue: String
                init?(stringValue: String) { self.stringValue = stringValue }
                var intValue: Int? { nil }
                init?(intValue: Int) { nil }
            }
            let last = path.last?.stringValue ?? ""
            return Key(stringValue: "\(path.count):\(last.uppercased())") ?? path[path.count - 1]
        }
        expectSameBytes(Containers()) { $0.keyEncodingStrategy = .custom(upper); $1.keyEncodingStrategy = .custom(upper) }
    }

    @Test func nonConformingFloatsAsStrings() {
        expectSameBytes(NonConforming()) {
            $0.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "+Inf", negativeInfinity: "-Inf", nan: "NaN")
            $1.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "+Inf", negativeInfinity: "-Inf", nan: "NaN")
        }
    }

    @Test func nonConformingFloatsThrowInBoth() {
        expectSameBytes(NonConforming(), bothFail: true)
    }

    @Test func userInfoReachesTheModels() throws {
        struct Reads: Encodable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(encoder.userInfo[CodingUserInfoKey(rawValue: "unit")!] as? String ?? "none")
            }
        }
        let key = try #require(CodingUserInfoKey(rawValue: "unit"))
        expectSameBytes([Reads()]) { $0.userInfo = [key: "kg"]; $1.userInfo = [key: "kg"] }
    }
}
