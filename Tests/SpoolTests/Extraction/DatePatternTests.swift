import Foundation
import Testing
@testable import Spool

/// `Transformer.pattern(_:)` and the Codable `.pattern` strategy: names, offsets, zones and
/// quoted text, checked against Foundation's `DateFormatter` (`en_US_POSIX`, GMT) on the same
/// strings where the two agree, and where they differ on purpose, both sides written down.
@Suite("Date patterns")
struct DatePatternTests {
    /// What Foundation's `DateFormatter` reads, in the `en_US_POSIX` locale and GMT.
    static func foundation(_ pattern: String, _ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = pattern
        return formatter.date(from: text)
    }

    /// What Spool reads (nil for an invalid date; the pattern must compile).
    static func spool(_ pattern: String, _ text: String) throws -> Date? {
        let transformer = try Transformer.pattern(pattern)
        do {
            let date: Date = try transformer.apply(text)
            return date
        } catch {
            return nil
        }
    }

    /// The message of the error `.pattern(pattern)` throws for `text`.
    static func failure(_ pattern: String, _ text: String) throws -> String? {
        let transformer = try Transformer.pattern(pattern)
        do {
            _ = try transformer.apply(text)
            return nil
        } catch let error as DecodeError {
            #expect(error.code == .invalidValue)
            return error.message
        }
    }

    static func seconds(_ date: Date?) -> Double? { date?.timeIntervalSince1970 }

    // MARK: The two examples

    @Test func twitterCreatedAt() throws {
        let pattern = "EEE MMM dd HH:mm:ss Z yyyy"
        for (text, seconds) in [
            ("Wed Aug 27 13:08:45 +0000 2008", 1_219_842_525.0),
            ("Wed Aug 27 13:08:45 -0800 2008", 1_219_871_325.0),  // 21:08:45 UTC: the offset is applied
            ("Thu Jan 01 00:00:00 +0100 1970", -3600.0),
            ("Tue Feb 29 12:00:00 +0530 2000", 951_805_800.0),
        ] {
            #expect(try Self.seconds(Self.spool(pattern, text)) == seconds, "\(text)")
            #expect(Self.seconds(Self.foundation(pattern, text)) == seconds, "\(text)")
        }
    }

    @Test func httpDates() throws {
        let text = "Sun, 06 Nov 1994 08:49:37 GMT"
        for pattern in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEE, dd MMM yyyy HH:mm:ss 'GMT'"] {
            #expect(try Self.seconds(Self.spool(pattern, text)) == 784_111_777, "\(pattern)")
            #expect(Self.seconds(Self.foundation(pattern, text)) == 784_111_777, "\(pattern)")
        }
        // asctime, an obsolete HTTP form. (RFC 850's, `Sunday, 06-Nov-94`, has a two-digit
        // year, which Spool refuses: see unknownFieldsAreRefused.)
        #expect(try Self.seconds(Self.spool("EEE MMM dd HH:mm:ss yyyy", "Sun Nov 06 08:49:37 1994")) == 784_111_777)
        #expect(Self.seconds(Self.foundation("EEE MMM dd HH:mm:ss yyyy", "Sun Nov 06 08:49:37 1994")) == 784_111_777)
    }

    // MARK: Names

    @Test func monthNamesInEveryCaseAndLength() throws {
        let names = [
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
            "December",
        ]
        for (index, name) in names.enumerated() {
            let expected = Self.seconds(DateComponents.utc(2001, index + 1, 9))
            for written in [name, String(name.prefix(3)), name.lowercased(), name.uppercased(), String(name.prefix(3)).uppercased()] {
                for pattern in ["dd MMM yyyy", "dd MMMM yyyy"] {
                    let text = "09 \(written) 2001"
                    #expect(try Self.seconds(Self.spool(pattern, text)) == expected, "\(pattern) \(text)")
                    #expect(Self.seconds(Self.foundation(pattern, text)) == expected, "\(pattern) \(text)")
                }
            }
        }
        // Neither reads another abbreviation, a name cut elsewhere, or a number for a name.
        for text in ["09 Sept 2001", "09 Janu 2001", "09 01 2001", "09 Jn 2001", "09  Jan 2001"] {
            #expect(try Self.spool("dd MMM yyyy", text) == nil, "\(text)")
        }
        #expect(Self.foundation("dd MMM yyyy", "09 Sept 2001") == nil)
        #expect(Self.foundation("dd MMM yyyy", "09 01 2001") == nil)
    }

    @Test func dayNamesInEveryCaseAndLength() throws {
        // 2001-09-09 was a Sunday.
        let names = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
        for (index, name) in names.enumerated() {
            let expected = Self.seconds(DateComponents.utc(2001, 9, 9 + index))
            for written in [name, String(name.prefix(3)), name.lowercased(), name.uppercased()] {
                for pattern in ["EEE yyyy-MM-dd", "EEEE yyyy-MM-dd", "E yyyy-MM-dd"] {
                    let text = "\(written) 2001-09-\(9 + index < 10 ? "0" : "")\(9 + index)"
                    #expect(try Self.seconds(Self.spool(pattern, text)) == expected, "\(pattern) \(text)")
                    #expect(Self.seconds(Self.foundation(pattern, text)) == expected, "\(pattern) \(text)")
                }
            }
        }
    }

    /// A day name must be the date's day. `DateFormatter` ignores it; Spool refuses the date,
    /// since the two disagree and neither can be trusted (RFC 5322: the day "MUST be the day
    /// implied by the date").
    @Test func aDayNameMustAgreeWithTheDate() throws {
        let pattern = "EEE MMM dd HH:mm:ss Z yyyy"
        let text = "Thu Aug 27 13:08:45 +0000 2008"
        #expect(Self.seconds(Self.foundation(pattern, text)) == 1_219_842_525)  // Foundation reads it
        #expect(
            try Self.failure(pattern, text)
                == #"invalid date "Thu Aug 27 13:08:45 +0000 2008" (expected EEE MMM dd HH:mm:ss Z yyyy): 2008-08-27 is a Wednesday, not a Thursday"#
        )
        // The day is the date as written, before the offset: 23:00 -0800 on Wednesday is
        // Thursday in UTC.
        #expect(try Self.seconds(Self.spool(pattern, "Wed Aug 27 23:00:00 -0800 2008")) == 1_219_906_800)
        // Before 1582-10-15 the date is Julian, and so is its day (as Foundation counts).
        #expect(try Self.spool("EEE yyyy-MM-dd", "Thu 1582-10-04") != nil)
        #expect(Self.foundation("EEE yyyy-MM-dd", "Thu 1582-10-04") != nil)
        #expect(try Self.spool("EEE yyyy-MM-dd", "Fri 1582-10-15") != nil)
    }

    // MARK: Offsets and zones

    @Test(arguments: ["Z", "XXX", "ZZZZZ"])
    func offsetsInEveryForm(_ field: String) throws {
        let pattern = "yyyy-MM-dd'T'HH:mm:ss\(field)"
        for (suffix, seconds) in [
            ("+0000", 1_219_842_525.0), ("-0800", 1_219_871_325.0), ("+01:00", 1_219_838_925.0),
            ("-08:00", 1_219_871_325.0), ("Z", 1_219_842_525.0), ("z", 1_219_842_525.0), ("+0530", 1_219_822_725.0),
            ("+23:59", 1_219_756_185.0), ("-00:00", 1_219_842_525.0),
        ] {
            let text = "2008-08-27T13:08:45" + suffix
            #expect(try Self.seconds(Self.spool(pattern, text)) == seconds, "\(pattern) \(text)")
            #expect(Self.seconds(Self.foundation(pattern, text)) == seconds, "\(pattern) \(text)")
        }
        // Out of range for both: hours to 23, minutes to 59.
        for suffix in ["+2400", "+24:00", "+0060", "+05:60", "+9900"] {
            let text = "2008-08-27T13:08:45" + suffix
            #expect(try Self.spool(pattern, text) == nil, "\(pattern) \(text)")
            #expect(Self.foundation(pattern, text) == nil, "\(pattern) \(text)")
        }
        // Spool reads these forms only: not hours alone, three digits or a zone name, which
        // DateFormatter also takes.
        for suffix in ["+08", "+000", "GMT", "", " +0000", "+0000 "] {
            #expect(try Self.spool(pattern, "2008-08-27T13:08:45" + suffix) == nil, "\(pattern) \(suffix)")
        }
        #expect(Self.foundation(pattern, "2008-08-27T13:08:45+08") != nil)
    }

    /// `zzz` reads GMT and UTC only; `DateFormatter` also reads zone names like PST, which
    /// depend on its tables and can be ambiguous (CST, IST).
    @Test func zoneNamesAreGMTOrUTC() throws {
        let pattern = "yyyy-MM-dd HH:mm:ss zzz"
        for zone in ["GMT", "UTC", "gmt", "utc"] {
            let text = "2008-08-27 13:08:45 \(zone)"
            #expect(try Self.seconds(Self.spool(pattern, text)) == 1_219_842_525, "\(text)")
            #expect(Self.seconds(Self.foundation(pattern, text)) == 1_219_842_525, "\(text)")
        }
        for pattern in ["yyyy-MM-dd HH:mm:ss z", "yyyy-MM-dd HH:mm:ss zz"] {
            #expect(try Self.seconds(Self.spool(pattern, "2008-08-27 13:08:45 GMT")) == 1_219_842_525)
        }
        #expect(Self.seconds(Self.foundation(pattern, "2008-08-27 13:08:45 PST")) == 1_219_871_325)
        #expect(
            try Self.failure(pattern, "2008-08-27 13:08:45 PST")
                == #"invalid date "2008-08-27 13:08:45 PST" (expected yyyy-MM-dd HH:mm:ss zzz): zzz reads GMT or UTC only"#)
        #expect(try Self.spool(pattern, "2008-08-27 13:08:45 GMT+1") == nil)
        #expect(try Self.spool(pattern, "2008-08-27 13:08:45 GM") == nil)
    }

    // MARK: Literal text

    @Test func quotedTextIsLiteral() throws {
        let cases: [(pattern: String, text: String, seconds: Double?)] = [
            ("yyyy-MM-dd'T'HH:mm:ss", "2008-08-27T13:08:45", 1_219_842_525),
            ("yyyy-MM-dd'T'HH:mm:ss", "2008-08-27t13:08:45", nil),  // quoted text is matched exactly
            ("yyyy-MM-dd''HH", "2008-08-27'13", 1_219_842_000),
            ("yyyy-MM-dd'o''clock'HH", "2008-08-27o'clock13", 1_219_842_000),
            ("'Day' dd 'of' MMMM yyyy", "Day 27 of August 2008", 1_219_795_200),
            ("'Day' dd 'of' MMMM yyyy", "day 27 of August 2008", nil),
            ("yyyy-MM-dd 'at' HH:mm", "2008-08-27 at 13:08", 1_219_842_480),
            ("yyyy.MM.dd, HH:mm", "2008.08.27, 13:08", 1_219_842_480),
            ("'yyyy' yyyy", "yyyy 2008", 1_199_145_600),
            ("yyyy-MM-dd 'GMT'", "2008-08-27 GMT", 1_219_795_200),
            ("yyyy-MM-dd 'GMT'", "2008-08-27 gmt", nil),
        ]
        for row in cases {
            #expect(try Self.seconds(Self.spool(row.pattern, row.text)) == row.seconds, "\(row.pattern) \(row.text)")
            #expect(Self.seconds(Self.foundation(row.pattern, row.text)) == row.seconds, "\(row.pattern) \(row.text)")
        }
        // Non-ASCII literal text matches itself.
        for (pattern, text, seconds) in [
            ("dd.MM.yyyy 'um' HH:mm 'Uhr' – EEEE", "27.08.2008 um 13:08 Uhr – Wednesday", 1_219_842_480.0),
            ("yyyy年MM月dd日", "2008年08月27日", 1_219_795_200),
        ] {
            #expect(try Self.seconds(Self.spool(pattern, text)) == seconds, "\(pattern)")
            #expect(Self.seconds(Self.foundation(pattern, text)) == seconds, "\(pattern)")
        }
    }

    /// The fixed-width fields are unchanged: `MMM` is now a month's name, not three digits.
    @Test func numbersStayFixedWidth() throws {
        #expect(try Self.seconds(Self.spool("yyyy-MM-dd HH:mm:ss.SSS", "2008-08-27 13:08:45.250")) == 1_219_842_525.25)
        #expect(try Self.spool("yyyy-MM-dd", "2008-8-27") == nil)
        #expect(try Self.spool("yyyy-MMM-dd", "2008-008-27") == nil)
        #expect(try Self.seconds(Self.spool("yyyy-MMM-dd", "2008-Aug-27")) == 1_219_795_200)
    }

    // MARK: Refused patterns

    /// Every letter outside quotes that is not a field is refused when the pattern is
    /// compiled, with the field and where it is.
    @Test(arguments: [
        ("hh:mm a", "hh", 0), ("yyyy-MM-ddTHH:mm:ss", "T", 10), ("yyyy-MM-dd'T", "'", 10), ("'", "'", 0),
        ("dd MMMMM yyyy", "MMMMM", 3), ("EEEEE", "EEEEE", 0), ("HH:mm ZZZZ", "ZZZZ", 6), ("HH:mm ZZZZZZ", "ZZZZZZ", 6),
        ("HH:mm X", "X", 6), ("HH:mm XX", "XX", 6), ("HH:mm XXXX", "XXXX", 6), ("HH:mm zzzz", "zzzz", 6),
        ("yyyy-MM-dd G", "G", 11), ("D", "D", 0), ("yyyy-ww", "ww", 5), ("HH:mm x", "x", 6), ("é h", "h", 2),
        ("'it''s' k", "k", 8), ("yyyy-MM-dd'T'HH:mm:ss.SSSZ'", "'", 26), ("dd-MMM-yy", "yy", 7),
    ])
    func unknownFieldsAreRefused(_ pattern: String, _ field: String, _ offset: Int) {
        #expect {
            _ = try Transformer.pattern(pattern)
        } throws: { error in
            guard let error = error as? UsageError else { return false }
            let refused = field == "'" ? "the quote" : field
            return error.message.hasPrefix("date pattern \"\(pattern)\": \(refused) at offset \(offset) ")
                && error.description == "error: \(error.message)"
        }
    }

    @Test func refusalMessagesSayWhatToWrite() {
        func message(_ pattern: String) -> String? {
            do {
                _ = try Transformer.pattern(pattern)
                return nil
            } catch {
                return error.message
            }
        }
        #expect(
            message("hh:mm a")
                == #"date pattern "hh:mm a": hh at offset 0 is not a field Spool reads (it reads yyyy MM dd HH mm ss SSS, MMM MMMM EEE EEEE, Z XXX ZZZZZ zzz); put literal text in single quotes ('T')"#
        )
        #expect(
            message("yyyy-MM-dd'T") == #"date pattern "yyyy-MM-dd'T": the quote at offset 10 is not closed; write '' for a quote"#)
        #expect(
            message("HH:mm ZZZZ")
                == #"date pattern "HH:mm ZZZZ": ZZZZ at offset 6 is not a field Spool reads: Z reads +hhmm, XXX or ZZZZZ reads +hh:mm"#
        )
        #expect(message("MMMMM") == #"date pattern "MMMMM": MMMMM at offset 0 is not a field Spool reads: MM is a month's number, MMM or MMMM its name"#)
        #expect(message("zzzz") == #"date pattern "zzzz": zzzz at offset 0 is not a field Spool reads: zzz reads GMT or UTC"#)
        #expect(
            message("dd/MM/yy")
                == #"date pattern "dd/MM/yy": yy at offset 6 is not a field Spool reads: a two-digit year is ambiguous; write yyyy for the year's digits"#
        )
    }

    /// The error the doc comment of ``UsageError`` shows.
    @Test func theDocumentedRefusal() throws {
        let error = #expect(throws: UsageError.self) { try Transformer.pattern("hh:mm a") }
        #expect(
            error?.description
                == #"error: date pattern "hh:mm a": hh at offset 0 is not a field Spool reads (it reads yyyy MM dd HH mm ss SSS, MMM MMMM EEE EEEE, Z XXX ZZZZZ zzz); put literal text in single quotes ('T')"#
        )
    }

    // MARK: The Codable strategy

    struct Status: Decodable, Equatable {
        let id: Int
        let createdAt: Date

        enum CodingKeys: String, CodingKey {
            case id
            case createdAt = "created_at"
        }
    }

    static let statuses = #"[{"id": 1, "created_at": "Wed Aug 27 13:08:45 +0000 2008"}, {"id": 2, "created_at": "Sun Nov 06 08:49:37 -0800 1994"}]"#

    @Test func theStrategyReadsWhatAFormatterReads() throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "EEE MMM dd HH:mm:ss Z yyyy"
        let foundation = JSONDecoder()
        foundation.dateDecodingStrategy = .formatted(formatter)
        let expected = try foundation.decode([Status].self, from: Data(Self.statuses.utf8))

        let decoder = StreamingJSONDecoder()
        decoder.dateDecodingStrategy = .pattern("EEE MMM dd HH:mm:ss Z yyyy")
        #expect(try decoder.decode([Status].self, from: .string(Self.statuses)) == expected)
        #expect(expected.map(\.createdAt.timeIntervalSince1970) == [1_219_842_525, 784_140_577])
    }

    /// A refused pattern throws before the decoder reads anything: here the input is not JSON,
    /// or not there, and the error is still the pattern's.
    @Test func theStrategyRefusesAPatternBeforeReading() async throws {
        let decoder = StreamingJSONDecoder()
        decoder.dateDecodingStrategy = .pattern("EEE MMM dd HH:mm:ss Q yyyy")
        func isRefusal(_ error: any Error) -> Bool {
            guard let error = error as? UsageError else { return false }
            return error.message.hasPrefix(#"date pattern "EEE MMM dd HH:mm:ss Q yyyy": Q at offset 20 "#)
        }
        #expect { try decoder.decode([Status].self, from: .string("{not json")) } throws: { isRefusal($0) }
        #expect { try decoder.decode([Status].self, from: Data("[".utf8)) } throws: { isRefusal($0) }
        #expect { try decoder.decode([Status].self, from: .file("/nonexistent/statuses.json")) } throws: { isRefusal($0) }
        await #expect {
            try await decoder.decode([Status].self, from: .bytes(AsyncStream<UInt8> { $0.finish() }))
        } throws: { isRefusal($0) }

        // A stream's first next() throws it, and the request ends; the stream has read
        // nothing for it and serves another request.
        let stream = JSONStream(.string(Self.statuses))
        let statuses = stream.elements(of: Status.self, decoder: decoder)
        #expect { try statuses.next() } throws: { isRefusal($0) }
        #expect(try statuses.next() == nil)
        #expect(statuses.isFinished && statuses.count == 0)
        #expect(stream.bytesRead == 0)
        #expect(try stream.count() == 2)

        let members = JSONStream(.string(#"{"a": "x"}"#)).members(of: Date.self, decoder: decoder)
        #expect { try members.next() } throws: { isRefusal($0) }

        let asyncStream = AsyncJSONStream(.bytes(AsyncStream<UInt8> { $0.finish() }))
        await #expect {
            for try await _ in asyncStream.elements(of: Status.self, decoder: decoder) {}
        } throws: { isRefusal($0) }

        // The same decoder, given a pattern Spool reads, decodes.
        decoder.dateDecodingStrategy = .pattern("EEE MMM dd HH:mm:ss Z yyyy")
        #expect(try decoder.decode([Status].self, from: .string(Self.statuses)).map(\.id) == [1, 2])
    }

    /// A date that does not match is an invalid value at its path, as before.
    @Test func theStrategyLocatesAnInvalidDate() throws {
        let decoder = StreamingJSONDecoder()
        decoder.dateDecodingStrategy = .pattern("EEE MMM dd HH:mm:ss Z yyyy")
        let json = #"[{"id": 1, "created_at": "Thu Aug 27 13:08:45 +0000 2008"}]"#
        #expect {
            try decoder.decode([Status].self, from: .string(json))
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["Index 0", "created_at"]
                && context.debugDescription.hasSuffix("2008-08-27 is a Wednesday, not a Thursday")
        }
    }

    // MARK: Documentation

    @Test func theTransformerDocExample() throws {
        let created = try Transformer.pattern("EEE MMM dd HH:mm:ss Z yyyy")
        let date = try created.apply("Wed Aug 27 13:08:45 +0000 2008")   // 2008-08-27T13:08:45Z
        #expect(date == Date(timeIntervalSince1970: 1_219_842_525))
        #expect(ISO8601DateFormatter().string(from: date) == "2008-08-27T13:08:45Z")
    }
}

extension DateComponents {
    /// Midnight UTC of the day, from the test's own calendar arithmetic.
    static func utc(_ year: Int, _ month: Int, _ day: Int) -> Date {
        Date(timeIntervalSince1970: Double(CivilDate.days(year: year, month: month, day: day) * 86_400))
    }
}
