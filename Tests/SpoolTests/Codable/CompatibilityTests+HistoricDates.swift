import Foundation
import Spool
import Testing

/// Dates before 1582-10-15 (issue 22, item 4). Foundation's calendar is Julian before that day
/// and Gregorian from it: `JSONEncoder` writes `.iso8601` dates in it, `JSONDecoder` and
/// `DateFormatter` read them in it, and so must Spool's `.iso8601` and `.pattern`, on every
/// year from 0001 to 9999 (and 0000, which `.iso8601` reads as 1 BC and a `yyyy` pattern
/// refuses). Foundation reads the ten days the calendar skips, 1582-10-05 to 1582-10-14, as
/// Julian dates (the same days as 1582-10-15 to 1582-10-24); so does Spool.
@Suite("Compatibility: dates before 1582")
struct HistoricDateTests {
    static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "GMT")!
        return calendar
    }()

    /// Seconds since 1970 of a date in Foundation's calendar.
    static func seconds(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Int {
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        return Int(utc.date(from: components)!.timeIntervalSince1970)
    }

    /// Whole-second instants: every 37th day from 0001-01-01 to 9999-12-31, a step also
    /// adding 1 h 1 min 1 s so that times of day vary; every day (at 12:34:56) from 0000-12-01
    /// to 0001-02-01 and from 1582-09-01 to 1582-11-01.
    static let instants: [Int] = {
        var instants = Array(stride(from: seconds(1, 1, 1), through: seconds(9999, 12, 31, 23, 59, 59), by: 37 * 86_400 + 3661))
        for (from, through) in [(seconds(1, 1, 1) - 31 * 86_400, seconds(1, 2, 1)), (seconds(1582, 9, 1), seconds(1582, 11, 1))] {
            instants += stride(from: from + 45_296, through: through + 45_296, by: 86_400)
        }
        return instants
    }()

    static let dates = instants.map { Date(timeIntervalSince1970: Double($0)) }

    /// Foundation's text of each instant, and dates it does not write: the ten skipped days,
    /// Julian leap days, year 0, offsets that move a date across the switch.
    static let texts: [String] = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        var texts = try! JSONDecoder().decode([String].self, from: encoder.encode(dates))
        texts += (5...14).map { "1582-10-\($0 < 10 ? "0" : "")\($0)T06:00:00Z" }
        texts += ["1500-02-29", "1200-02-29", "0100-02-29", "0004-02-29", "0000-02-29", "0000-01-01"].map { $0 + "T00:00:00Z" }
        texts += [
            "1582-10-15T00:30:00+01:00", "1582-10-04T23:30:00-01:00", "1582-10-14T23:00:00-02:00", "1582-10-15T00:00:00+14:00",
            "1582-10-04T20:00:00-05:00", "0000-01-01T00:00:00+01:00", "0001-01-01T00:00:00-01:00", "1499-12-23T12:00:00Z",
        ]
        return texts
    }()

    static func json(_ strings: some Sequence<String>) -> Data {
        Data(("[" + strings.map { "\"\($0)\"" }.joined(separator: ",") + "]").utf8)
    }

    /// The first few indices where the arrays differ, described.
    static func differences(_ texts: [String], _ expected: [Date], _ actual: [Date]) -> [String] {
        guard expected.count == actual.count else { return ["\(expected.count) dates, Spool \(actual.count)"] }
        return expected.indices.filter { expected[$0] != actual[$0] }.prefix(5).map {
            "\(texts[$0]): Foundation \(expected[$0].timeIntervalSince1970), Spool \(actual[$0].timeIntervalSince1970)"
        }
    }

    @Test func iso8601ReadsAsJSONDecoder() throws {
        let json = Self.json(Self.texts)
        let foundation = JSONDecoder()
        foundation.dateDecodingStrategy = .iso8601
        let spool = StreamingJSONDecoder()
        spool.dateDecodingStrategy = .iso8601
        let expected = try foundation.decode([Date].self, from: json)
        let actual = try spool.decode([Date].self, from: json)
        let differences = Self.differences(Self.texts, expected, actual)
        #expect(differences.isEmpty, "\(differences)")
    }

    /// `JSONEncoder`'s bytes, and they decode back to the same instants, in both decoders.
    @Test func iso8601RoundTrips() throws {
        let foundation = JSONEncoder()
        foundation.dateEncodingStrategy = .iso8601
        let spool = StreamingJSONEncoder()
        spool.dateEncodingStrategy = .iso8601
        let written = try spool.encode(Self.dates)
        #expect(written == (try foundation.encode(Self.dates)))
        let decoder = StreamingJSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let texts = try JSONDecoder().decode([String].self, from: written)
        let differences = Self.differences(texts, Self.dates, try decoder.decode([Date].self, from: written))
        #expect(differences.isEmpty, "\(differences)")
        #expect(try Transformer.iso8601.apply("1499-12-23T00:00:00Z").formatted(.iso8601) == "1499-12-23T00:00:00Z")
    }

    static let dayFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter
    }()

    /// `.pattern("yyyy-MM-dd")` reads what `.formatted` with a `DateFormatter` reads (every
    /// third of the days above, the skipped days and Julian leap days).
    @Test func patternReadsAsDateFormatter() throws {
        let texts = Self.texts.enumerated().filter { $0.offset % 3 == 0 || $0.element.hasPrefix("1582") || $0.element.hasPrefix("0001") }
            .map { String($0.element.prefix(10)) }.filter { !$0.hasPrefix("0000") }
        let json = Self.json(texts)
        let foundation = JSONDecoder()
        foundation.dateDecodingStrategy = .formatted(Self.dayFormatter)
        let spool = StreamingJSONDecoder()
        spool.dateDecodingStrategy = .pattern("yyyy-MM-dd")
        let differences = Self.differences(texts, try foundation.decode([Date].self, from: json), try spool.decode([Date].self, from: json))
        #expect(differences.isEmpty, "\(differences)")
    }

    /// Days that do not exist in their calendar, and year 0, are refused by both, at the value;
    /// Julian leap days are read by both.
    @Test(arguments: ["1582-02-29", "1700-02-29", "1500-02-30", "0100-02-30", "0000-01-01", "0000-12-31", "1500-02-29", "0004-02-29"])
    func patternAcceptsAndRefusesAsDateFormatter(_ text: String) {
        let json = #"["2016-05-17", "\#(text)"]"#
        let foundation = Compat.foundation([Date].self, json, CompatSettings(dates: .formatted(Self.dayFormatter)))
        let decoder = StreamingJSONDecoder()
        decoder.dateDecodingStrategy = .pattern("yyyy-MM-dd")
        let spool = Outcome { try decoder.decode([Date].self, from: .string(json)) }
        #expect(Outcome.same(spool, foundation), "JSONDecoder: \(foundation)\nSpool: \(spool)")
        #expect(spool.error == nil || spool.error?.isLocated == true)
    }
}
