import Foundation
import Testing
@testable import Spool

@Suite("Extractor")
struct ExtractorTests {
    static let json = #"{"s": "x", "n": null, "i": 42, "a": [1, 2, 3], "d": {"k": 1, "l": 2}, "first.name": "dots", "o": {"p": {"q": [10, 20]}}}"#

    @Test func requiredValuesThrowForMissingNullAndMismatch() throws {
        let e = try Extractor.decodeValue(from: .string(Self.json))
        #expect(try (e <| "s") as String == "x")
        #expect(throws: DecodeError.self) { try (e <| "missing") as String }
        do {
            let _: String = try e <| "missing"
        } catch let error as DecodeError {
            #expect(error.code == .missingKey)
            #expect(error.keyPath == ["missing"])
            #expect(error.description == #"1:1: error: missing key "missing" (expected String)"#)
        }
        do {
            let _: String = try e <| "n"
        } catch let error as DecodeError {
            #expect(error.code == .null)
            #expect(error.description == "1:17: error: expected String at n, found null")
        }
        do {
            let _: String = try e <| "i"
        } catch let error as DecodeError {
            #expect(error.code == .typeMismatch)
            #expect(error.expected == "String" && error.actual == "number" && error.excerpt == "42")
            #expect(error.description == "1:28: error: expected String at i, found number 42")
        }
    }

    @Test func optionalValuesAreNilForMissingAndNullButThrowForMismatch() throws {
        let e = try Extractor.decodeValue(from: .string(Self.json))
        #expect(try (e <|? "missing") as String? == nil)
        #expect(try (e <|? "n") as String? == nil)
        #expect(try (e <|? "s") as String? == "x")
        #expect(throws: DecodeError.self) { try (e <|? "i") as String? }
        // `<|` with an optional type: null is nil, but the key must exist.
        #expect(try (e <| "n") as String? == nil)
        #expect(throws: DecodeError.self) { try (e <| "missing") as String? }
    }

    @Test func allSixOperators() throws {
        let e = try Extractor.decodeValue(from: .string(Self.json))
        #expect(try (e <|| "a") as [Int] == [1, 2, 3])
        #expect(try (e <||? "a") as [Int]? == [1, 2, 3])
        #expect(try (e <||? "missing") as [Int]? == nil)
        #expect(try (e <|-| "d") as [String: Int] == ["k": 1, "l": 2])
        #expect(try (e <|-|? "d") as [String: Int]? == ["k": 1, "l": 2])
        #expect(try (e <|-|? "n") as [String: Int]? == nil)
        // `<|` also decodes arrays and dictionaries (conditional conformances).
        #expect(try (e <| "a") as [Int] == [1, 2, 3])
        #expect(try (e <| "d") as [String: Int] == ["k": 1, "l": 2])
    }

    @Test func keyPaths() throws {
        let e = try Extractor.decodeValue(from: .string(Self.json))
        #expect(try (e <| "first.name") as String == "dots")  // one key, dots included
        #expect(try (e <| ["o", "p", "q", 1]) as Int == 20)
        let prefix: JSONKeyPath = ["o", "p"]
        let joined = prefix + ["q", 0]
        #expect(joined == ["o", "p", "q", 0])
        #expect(try (e <| joined) as Int == 10)
        #expect(try (e <|? ["o", "p", "q", 5]) as Int? == nil)
        #expect(try (e <|? ["n", "deeper"]) as Int? == nil)  // null on the way
        do {
            let _: Int = try e <| ["s", "deeper"]
        } catch let error as DecodeError {
            #expect(error.description == #"1:7: error: expected object at s, found string "x""#)
        }
        #expect(JSONKeyPath(["objects", 12, "first.name"]).description == #"objects[12]["first.name"]"#)
    }

    @Test func integersAreExact() throws {
        let e = try Extractor.decodeValue(
            from: .string(#"{"max": 18446744073709551615, "over": 18446744073709551616, "min": -9223372036854775808, "f": 1.5, "g": 1.0, "h": 2.5e1, "neg": -1, "big": 1e400}"#))
        #expect(try (e <| "max") as UInt64 == .max)
        #expect(try (e <| "min") as Int64 == .min)
        #expect(try (e <| "g") as Int == 1)
        #expect(try (e <| "h") as Int == 25)
        func expectNotExact(_ body: () throws -> Void) {
            do {
                try body()
                Issue.record("expected a type mismatch")
            } catch let error as DecodeError {
                #expect(error.code == .typeMismatch)
                #expect(error.message.contains("does not fit"))
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
        expectNotExact { let _: UInt64 = try e <| "over" }
        expectNotExact { let _: Int = try e <| "f" }
        expectNotExact { let _: UInt8 = try e <| "neg" }
        expectNotExact { let _: Int = try e <| "big" }
        #expect(try (e <| "max") as Decimal == Decimal(string: "18446744073709551615"))
        #expect(try (e <| "f") as Double == 1.5)
        #expect(try (e <| "f") as Float == 1.5)
    }

    @Test func aMismatchNamesTheNumberTypeAskedFor() throws {
        let e = try Extractor.decodeValue(from: .string(#"{"s": "1.5"}"#))
        let asFloat = #expect(throws: DecodeError.self) { let _: Float = try e <| "s" }
        #expect(asFloat?.message == #"expected Float at s, found string "1.5""#)
        let asDecimal = #expect(throws: DecodeError.self) { let _: Decimal = try e <| "s" }
        #expect(asDecimal?.message == #"expected Decimal at s, found string "1.5""#)
        let asDouble = #expect(throws: DecodeError.self) { let _: Double = try e <| "s" }
        #expect(asDouble?.message == #"expected Double at s, found string "1.5""#)
    }

    @Test func enumsDecodeByRawValueAndNameTheBadOne() throws {
        let e = try Extractor.decodeValue(from: .string(#"{"ok": "hiatus", "bad": "paused"}"#))
        #expect(try (e <| "ok") as Band.Status == .hiatus)
        do {
            let _: Band.Status = try e <| "bad"
        } catch let error as DecodeError {
            #expect(error.code == .badRawValue)
            #expect(error.description == #"1:25: error: expected Status at bad, found string "paused" (not a raw value of Status)"#)
        }
    }

    @Test func errorsFromModelsAndTransformersAreWrappedWithTheirPath() throws {
        struct Unhappy: Error, CustomStringConvertible { var description: String { "unhappy" } }
        struct Picky: JSONDecodable {
            static func decode(_ e: Extractor) throws -> Picky { throw Unhappy() }
        }
        let json = "{\n  \"list\": [1, {\"when\": \"1967-13-01\"}]\n}"
        let e = try Extractor.decodeValue(from: .string(json))
        do {
            let _: [Picky] = try e <| "list"
        } catch let error as DecodeError {
            #expect(error.code == .custom)
            #expect(error.description == "2:12: error: unhappy at list[0]")
        }
        do {
            let _: Date = try e.value(["list", 1, "when"], Transformer.pattern("yyyy-MM-dd"))
        } catch let error as DecodeError {
            #expect(error.description == #"2:24: error: invalid date "1967-13-01" (expected yyyy-MM-dd) at list[1].when"#)
        }
    }

    /// A transformer that throws Spool's own error keeps its code and message, and gains the
    /// value's path and location (it printed `1:9: error: error: bad at url`, as `.custom`).
    @Test func aDecodeErrorFromATransformerKeepsItsCode() throws {
        let missing = Transformer<String, URL> { _ in throw DecodeError(code: .missingKey, keyPath: .root, message: "bad") }
        let e = try Extractor.decodeValue(from: .string(#"{"url": "x"}"#))
        let error = #expect(throws: DecodeError.self) { try e.value("url", missing) }
        #expect(error?.code == .missingKey)
        #expect(error?.description == "1:9: error: bad at url")
        #expect(error?.keyPath == ["url"])
        let placed = Transformer<String, URL> { _ in
            throw DecodeError(code: .typeMismatch, keyPath: ["elsewhere"], location: nil, message: "not here")
        }
        let kept = #expect(throws: DecodeError.self) { try e.value("url", placed) }
        #expect(kept?.code == .typeMismatch)
        #expect(kept?.description == "1:9: error: not here")  // its own path stands
        #expect(kept?.keyPath == ["elsewhere"])
    }

    @Test func defaultsAndRawValues() throws {
        let e = try Extractor.decodeValue(from: .string(#"{"n": null, "raw": {"x": [true, null, "s", 1.25]}}"#))
        #expect(try e.value("missing", default: 7) == 7)
        #expect(try e.value("n", default: "d") == "d")
        let raw: Extractor = try e <| "raw"
        #expect(raw.keyPath == ["raw"])
        #expect(try (raw <| "x") as JSONValue == .array([.bool(true), .null, .string("s"), .number("1.25")]))
        #expect(try JSONValue.decodeValue(from: .string(#"{"a": 1}"#)) == .object(["a": .number("1")]))
    }

    @Test func decodeErrorsFromTheWholeDocument() {
        #expect {
            try BandMember.decodeValue(from: .string(#"[{"name": "x"}]"#))
        } throws: { error in
            (error as? DecodeError)?.description == #"1:1: error: expected object, found array"#
        }
        #expect(throws: ParseError.self) { try BandMember.decodeValue(from: .string(#"{"name": "x""#)) }
        #expect(throws: ParseError.self) { try BandMember.decodeValue(from: .string(#"{"name": "x", "birth_date": "2000-01-01"} 1"#)) }
    }

    /// Compact JSON written in pieces is the same text, never held much beyond the threshold,
    /// and an error in the value comes before anything is flushed.
    @Test func compactJSONInPieces() throws {
        let long = String(repeating: "ab\"\n\u{1}c", count: 5000)
        var escapedLong = ""
        for _ in 0..<5000 { escapedLong += #"ab\"\n\u0001c"# }
        let json = #"{"s": "\#(escapedLong)", "a": [1, 2.50, true, null, {"k": "v"}], "e": {}}"#
        let e = try Extractor.decodeValue(from: .string(json))
        let whole = try e.compactJSON()
        #expect(try (e <| "s") as String == long)
        for threshold in [1, 7, 100, 4096] {
            var pieces: [UInt8] = []
            var buffer: [UInt8] = Array("[".utf8)
            var largest = 0
            try e.writeCompactJSON(into: &buffer, flushingAt: threshold) { bytes in
                largest = max(largest, bytes.count)
                pieces += bytes
                bytes.removeAll()
            }
            pieces += buffer
            #expect(String(decoding: pieces, as: UTF8.self) == "[" + whole)
            #expect(largest < threshold + 4096 + 16)  // the text goes over a few KiB at a time
        }
        var flushed = false
        var buffer: [UInt8] = []
        let items = JSONStream(.string(#"[{"a": "x"}, {"b": [1, 2,]}]"#)).elements(of: Extractor.self)
        #expect(try items.next()?.compactJSON() == #"{"a":"x"}"#)
        #expect(throws: ParseError.self) {
            try items.next()?.writeCompactJSON(into: &buffer, flushingAt: 1) { _ in flushed = true }
        }
        #expect(!flushed)
    }
}

@Suite("Date transformers")
struct DateTransformerTests {
    static func utc(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 0, _ min: Int = 0, _ s: Int = 0) -> Date {
        Date(timeIntervalSince1970: Double(CivilDate.days(year: y, month: m, day: d) * 86_400 + h * 3600 + min * 60 + s))
    }

    @Test func iso8601() throws {
        let iso = Transformer.iso8601
        #expect(try iso.apply("2016-01-01T12:30:05Z") == Self.utc(2016, 1, 1, 12, 30, 5))
        #expect(try iso.apply("2016-01-01T12:30:05.250Z") == Self.utc(2016, 1, 1, 12, 30, 5).addingTimeInterval(0.25))
        #expect(try iso.apply("2016-01-01T12:30:05+02:00") == Self.utc(2016, 1, 1, 10, 30, 5))
        #expect(try iso.apply("2016-01-01T12:30:05-0130") == Self.utc(2016, 1, 1, 14, 0, 5))
        for bad in ["2016-01-01", "2016-02-30T00:00:00Z", "2016-01-01T24:00:00Z", "2016-01-01T12:30:05", "2016-01-01T12:30:05.Z"] {
            #expect(throws: DecodeError.self, "\(bad)") { try iso.apply(bad) }
        }
    }

    @Test func patterns() throws {
        #expect(try Transformer.pattern("yyyy-MM-dd").apply("1967-02-20") == Self.utc(1967, 2, 20))
        #expect(try Transformer.pattern("MM-dd-yyyy").apply("02-29-2000") == Self.utc(2000, 2, 29))
        #expect(try Transformer.pattern("yyyy-MM-dd HH:mm:ss").apply("1999-12-31 23:59:59") == Self.utc(1999, 12, 31, 23, 59, 59))
        #expect(throws: DecodeError.self) { try Transformer.pattern("MM-dd-yyyy").apply("02-29-1900") }
        #expect(throws: DecodeError.self) { try Transformer.pattern("yyyy-MM-dd").apply("1967-2-20") }
        #expect(try Transformer.pattern("yyyy-MM-dd").apply("1969-12-31") == Self.utc(1969, 12, 31))
        #expect(Self.utc(1969, 12, 31).timeIntervalSince1970 == -86_400)
    }

    /// Before 1582-10-15 dates are Julian, as in Foundation (the values are JSONDecoder's and
    /// DateFormatter's on Swift 6.3.1); 1582-10-05 to 1582-10-14 are read as Julian dates.
    @Test func julianCalendarBefore1582() throws {
        let iso = Transformer.iso8601
        let day = try Transformer.pattern("yyyy-MM-dd")
        for (text, seconds) in [
            ("1582-10-15", -12_219_292_800), ("1582-10-04", -12_219_379_200), ("1582-10-05", -12_219_292_800),
            ("1582-10-14", -12_218_515_200), ("1500-01-01", -14_830_992_000), ("1500-02-29", -14_825_894_400),
            ("1499-12-23", -14_831_769_600), ("0001-01-01", -62_135_769_600), ("0100-02-29", -59_006_534_400),
        ] {
            #expect(try iso.apply(text + "T00:00:00Z").timeIntervalSince1970 == Double(seconds), "\(text)")
            #expect(try day.apply(text).timeIntervalSince1970 == Double(seconds), "\(text)")
        }
        #expect(try iso.apply("0000-01-01T00:00:00Z").timeIntervalSince1970 == -62_167_392_000)
        #expect(try iso.apply("0000-12-31T00:00:00Z").timeIntervalSince1970 == -62_135_856_000)
        #expect(try iso.apply("1582-10-15T00:30:00+01:00").timeIntervalSince1970 == -12_219_294_600)
        for bad in ["0000-01-01", "1582-02-29", "1500-02-30", "1700-02-29"] {
            #expect(throws: DecodeError.self, "\(bad)") { try day.apply(bad) }
        }
        #expect(throws: DecodeError.self) { try iso.apply("1500-02-30T00:00:00Z") }
    }

    /// Long fields are refused, not overflowed: more than 18 digits, or a year past 999999999.
    @Test func longFieldsThrow() throws {
        let y = { (count: Int) in String(repeating: "y", count: count) }
        let nines = { (count: Int) in String(repeating: "9", count: count) }
        #expect(throws: DecodeError.self) { try Transformer.pattern(y(18) + "-MM-dd").apply(nines(18) + "-01-01") }
        #expect(throws: DecodeError.self) { try Transformer.pattern(y(10)).apply("1000000000") }
        #expect(throws: DecodeError.self) { try Transformer.pattern(y(20)).apply(nines(20)) }
        #expect(throws: DecodeError.self) { try Transformer.pattern("yyyy-MM-dd " + String(repeating: "S", count: 20)).apply("2016-01-01 " + nines(20)) }
        #expect(try Transformer.pattern(y(9)).apply("000002016") == Self.utc(2016, 1, 1))
        #expect(try Transformer.pattern(y(9)).apply(nines(9)) > Self.utc(9999, 1, 1))
    }

    @Test func epochs() throws {
        #expect(try Transformer.secondsSince1970.apply(86_400) == Self.utc(1970, 1, 2))
        #expect(try Transformer.millisecondsSince1970.apply(1_500) == Date(timeIntervalSince1970: 1.5))
    }
}
