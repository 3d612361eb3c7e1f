#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A date string's parser, made once: ISO 8601, or a compiled fixed-width pattern. Behind
/// ``Transformer/iso8601`` and ``Transformer/pattern(_:)`` and the Codable
/// strategies `.iso8601` and `.pattern`.
enum DateParser: Sendable {
    case iso8601
    /// A compiled pattern, and its text for messages.
    case fields(DatePattern, pattern: String)

    /// A parser of `pattern` (see ``Transformer/pattern(_:)``), compiled now.
    static func pattern(_ pattern: String) -> DateParser {
        .fields(DatePattern(pattern), pattern: pattern)
    }

    /// The date `text` holds.
    /// - Throws: a ``DecodeError`` (`.invalidValue`) when it does not match the format.
    func parse(_ text: String) throws -> Date {
        switch self {
        case .iso8601:
            guard let date = ISO8601Parser.parse(text) else { throw invalidDate(text, expected: "ISO 8601") }
            return date
        case .fields(let fields, let pattern):
            guard let date = fields.parse(text) else { throw invalidDate(text, expected: pattern) }
            return date
        }
    }
}

/// The error for a date string that does not match its format: code `.invalidValue`, message
/// `invalid date "1967-13-01" (expected yyyy-MM-dd)`; the decoder that applied the transformer
/// adds the value's path and location.
func invalidDate(_ text: String, expected format: String) -> DecodeError {
    DecodeError(code: .invalidValue, keyPath: .root, message: "invalid date \(JSONKeyPath.quoted(text)) (expected \(format))")
}

/// Calendar arithmetic in UTC for the calendar Foundation's `Calendar(identifier: .gregorian)`,
/// `ISO8601DateFormatter`, `DateFormatter` and `JSONDecoder`/`JSONEncoder` use: Gregorian from
/// 1582-10-15, Julian before it (year 0 is 1 BC, a Julian leap year). A date given as
/// 1582-10-05 to 1582-10-14, which that calendar skips, is read as Foundation reads it: as a
/// Julian date, the same day as 1582-10-15 to 1582-10-24.
enum CivilDate {
    /// 1582-10-15, the first day of the Gregorian calendar, in days from 1970-01-01.
    static let gregorianStart = -141_427

    /// Days from 1970-01-01 to the given date.
    static func days(year: Int, month: Int, day: Int) -> Int {
        let gregorian = gregorianDays(year: year, month: month, day: day)
        return gregorian >= gregorianStart ? gregorian : julianDays(year: year, month: month, day: day)
    }

    /// Days from 1970-01-01 to the date in the proleptic Gregorian calendar (Howard Hinnant's
    /// `days_from_civil`).
    static func gregorianDays(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Days from 1970-01-01 to the date in the proleptic Julian calendar: the same count with
    /// years starting in March, in four-year cycles of 1461 days whose leap day ends the last.
    static func julianDays(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let cycle = (y >= 0 ? y : y - 3) / 4
        let yearOfCycle = y - cycle * 4
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        return cycle * 1461 + yearOfCycle * 365 + dayOfYear - 719_470
    }

    /// Whether the day exists in its month: years before 1582 are Julian (a leap year every
    /// fourth year), later ones Gregorian (1582 is not a leap year in either).
    static func isValid(year: Int, month: Int, day: Int) -> Bool {
        guard (1...12).contains(month), day >= 1 else { return false }
        let leap = year < 1582 ? year % 4 == 0 : (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let length =
            switch month {
            case 2: leap ? 29 : 28
            case 4, 6, 9, 11: 30
            default: 31
            }
        return day <= length
    }

    /// The decimal number in the `width` bytes of `bytes` from `start`, or nil if they are not
    /// all digits (or run past the end), or are more than 18 (which an `Int` might not hold).
    @inline(__always)
    static func digits(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, width: Int) -> Int? {
        guard start >= 0, width <= 18, start + width <= bytes.count else { return nil }
        if width == 2 {  // (most fields; without the loop, yyyy-MM-dd takes 6 % fewer instructions)
            let tens = bytes[start] &- UInt8(ascii: "0"), ones = bytes[start + 1] &- UInt8(ascii: "0")
            guard tens <= 9, ones <= 9 else { return nil }
            return Int(tens) &* 10 &+ Int(ones)
        }
        var value = 0
        for k in 0..<width {
            let digit = bytes[start + k] &- UInt8(ascii: "0")
            guard digit <= 9 else { return nil }
            value = value &* 10 &+ Int(digit)  // below 10^18
        }
        return value
    }

    /// The last year read: nine digits, far past any date Foundation writes, and few enough
    /// that day and second counts cannot overflow.
    static let maximumYear = 999_999_999

    static func date(
        year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, fraction: Double = 0,
        offsetSeconds: Int = 0
    ) -> Date? {
        guard year <= maximumYear, isValid(year: year, month: month, day: day), (0...23).contains(hour),
            (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let seconds = days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }
}

/// A compiled fixed-width date pattern.
struct DatePattern: Sendable {
    /// `field` is 0 for a literal byte, else one of `y M d H m s S` (as ASCII).
    struct Part: Sendable {
        var field: UInt8
        var width: Int
        var literal: UInt8
    }

    let parts: [Part]
    let length: Int

    init(_ pattern: String) {
        var parts: [Part] = []
        let bytes = Array(pattern.utf8)
        var i = 0
        while i < bytes.count {
            let c = bytes[i]
            if "yMdHmsS".utf8.contains(c) {
                var width = 1
                while i + width < bytes.count && bytes[i + width] == c { width += 1 }
                parts.append(Part(field: c, width: width, literal: 0))
                i += width
            } else {
                parts.append(Part(field: 0, width: 1, literal: c))
                i += 1
            }
        }
        self.parts = parts
        length = bytes.count
    }

    func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse(bytes: $0) }
    }

    private func parse(bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        guard bytes.count == length else { return nil }
        var year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0
        var fraction = 0.0
        var i = 0
        for part in parts {
            if part.field == 0 {
                guard bytes[i] == part.literal else { return nil }
                i += 1
                continue
            }
            guard let value = CivilDate.digits(bytes, at: i, width: part.width) else { return nil }
            i += part.width
            switch part.field {
            case UInt8(ascii: "y"):
                // Year 0 (1 BC) has no year of era: DateFormatter's `yyyy` refuses it too.
                guard value > 0 else { return nil }
                year = value
            case UInt8(ascii: "M"): month = value
            case UInt8(ascii: "d"): day = value
            case UInt8(ascii: "H"): hour = value
            case UInt8(ascii: "m"): minute = value
            case UInt8(ascii: "s"): second = value
            default:
                var scale = 1.0
                for _ in 0..<part.width { scale *= 10 }
                fraction = Double(value) / scale
            }
        }
        return CivilDate.date(year: year, month: month, day: day, hour: hour, minute: minute, second: second, fraction: fraction)
    }
}

/// RFC 3339 date-times, parsed from the bytes.
enum ISO8601Parser {
    static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { b -> Date? in
            func number(_ at: Int, _ width: Int) -> Int? { CivilDate.digits(b, at: at, width: width) }
            guard b.count >= 20, let year = number(0, 4), b[4] == UInt8(ascii: "-"), let month = number(5, 2),
                b[7] == UInt8(ascii: "-"), let day = number(8, 2), b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t"),
                let hour = number(11, 2), b[13] == UInt8(ascii: ":"), let minute = number(14, 2),
                b[16] == UInt8(ascii: ":"), let second = number(17, 2)
            else { return nil }
            var i = 19
            var fraction = 0.0
            if b[i] == UInt8(ascii: ".") {
                i += 1
                var scale = 0.1
                let digitsStart = i
                while i < b.count, b[i] &- UInt8(ascii: "0") <= 9 {
                    fraction += Double(b[i] &- UInt8(ascii: "0")) * scale
                    scale /= 10
                    i += 1
                }
                guard i > digitsStart else { return nil }
            }
            guard i < b.count else { return nil }
            var offset = 0
            switch b[i] {
            case UInt8(ascii: "Z"), UInt8(ascii: "z"):
                i += 1
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                let sign = b[i] == UInt8(ascii: "-") ? -1 : 1
                guard let hours = number(i + 1, 2) else { return nil }
                var minutesAt = i + 3
                if minutesAt < b.count && b[minutesAt] == UInt8(ascii: ":") { minutesAt += 1 }
                guard let minutes = number(minutesAt, 2), hours <= 23, minutes <= 59 else { return nil }
                offset = sign * (hours * 3600 + minutes * 60)
                i = minutesAt + 2
            default:
                return nil
            }
            guard i == b.count else { return nil }
            return CivilDate.date(
                year: year, month: month, day: day, hour: hour, minute: minute, second: second, fraction: fraction,
                offsetSeconds: offset)
        }
    }
}
