#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A date string's parser, made once: ISO 8601, or a compiled pattern. Behind
/// ``Transformer/iso8601`` and ``Transformer/pattern(_:)`` and the Codable
/// strategies `.iso8601` and `.pattern`.
enum DateParser: Sendable {
    case iso8601
    /// A compiled pattern, and its text for messages.
    case fields(DatePattern, pattern: String)

    /// A parser of `pattern` (see ``Transformer/pattern(_:)``), compiled now.
    /// - Throws: ``UsageError`` for a field Spool does not read, or a quote not closed.
    static func pattern(_ pattern: String) throws(UsageError) -> DateParser {
        .fields(try DatePattern(pattern), pattern: pattern)
    }

    /// The date `text` holds.
    /// - Throws: a ``DecodeError`` (`.invalidValue`) when it does not match the format.
    func parse(_ text: String) throws -> Date {
        switch self {
        case .iso8601:
            guard let date = ISO8601Parser.parse(text) else { throw invalidDate(text, expected: "ISO 8601") }
            return date
        case .fields(let fields, let pattern):
            guard let date = fields.parse(text) else { throw Self.failure(text, fields, pattern) }
            return date
        }
    }

    /// Why `text` has no date of the pattern (out of line: the hot path only calls it).
    @inline(never)
    private static func failure(_ text: String, _ fields: DatePattern, _ pattern: String) -> DecodeError {
        switch fields.outcome(text) {
        case .date, .mismatch:
            return invalidDate(text, expected: pattern)
        case .weekday(let named, let year, let month, let day, let actual):
            let date = "\(DatePattern.padded(year, 4))-\(DatePattern.padded(month, 2))-\(DatePattern.padded(day, 2))"
            return invalidDate(
                text, expected: pattern, reason: "\(date) is a \(DatePattern.dayNames[actual]), not a \(DatePattern.dayNames[named])")
        case .zoneName:
            return invalidDate(text, expected: pattern, reason: "zzz reads GMT or UTC only")
        }
    }
}

/// The error for a date string that does not match its format: code `.invalidValue`, message
/// `invalid date "1967-13-01" (expected yyyy-MM-dd)`, then why when the parser knows more
/// (`: 2008-08-27 is a Wednesday, not a Thursday`); the decoder that applied the transformer
/// adds the value's path and location.
func invalidDate(_ text: String, expected format: String, reason: String? = nil) -> DecodeError {
    let why = reason.map { ": \($0)" } ?? ""
    return DecodeError(
        code: .invalidValue, keyPath: .root, message: "invalid date \(JSONKeyPath.quoted(text)) (expected \(format))\(why)")
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

    /// The day of the week of the day `days` from 1970-01-01 (a Thursday): 0 is Sunday.
    static func weekday(days: Int) -> Int {
        (days % 7 + 11) % 7
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

/// A compiled date pattern: numbers of fixed width, English month and day names, offsets and
/// literal text (see ``Transformer/pattern(_:)``).
struct DatePattern: Sendable {
    enum Field: UInt8, Sendable {
        case literal
        // Numbers, of `width` digits.
        case year, month, day, hour, minute, second, fraction
        /// `MMM`, `MMMM`: `Jan` or `January`.
        case monthName
        /// `E` to `EEEE`: `Wed` or `Wednesday`.
        case weekday
        /// `Z` to `ZZZ`, `ZZZZZ`, `XXX`: `Z`, `±hhmm` or `±hh:mm`.
        case offset
        /// `z` to `zzz`: `GMT` or `UTC`.
        case zoneName
    }

    struct Part: Sendable {
        var field: Field
        /// The digits of a number.
        var width: Int
        /// The byte of a literal.
        var literal: UInt8
    }

    /// What a parse found.
    enum Outcome {
        case date(Date)
        /// The text does not have the pattern's form, or its numbers are out of range.
        case mismatch
        /// The text names day `named` (0 is Sunday), but its date is day `actual`.
        case weekday(named: Int, year: Int, month: Int, day: Int, actual: Int)
        /// A `zzz` field holds something other than GMT or UTC.
        case zoneName
    }

    let parts: [Part]
    /// For a pattern of numbers and literal text only, its length in bytes: the length of
    /// every text it reads (the fast path); else -1.
    let fixedLength: Int

    /// The pattern, compiled.
    /// - Throws: ``UsageError`` for a letter outside quotes that is not a field Spool
    ///   reads (or a count of it that is not), or a quote not closed.
    init(_ pattern: String) throws(UsageError) {
        var parts: [Part] = []
        let bytes = Array(pattern.utf8)
        let quote = UInt8(ascii: "'")
        func literal(_ byte: UInt8) { parts.append(Part(field: .literal, width: 1, literal: byte)) }
        var i = 0
        while i < bytes.count {
            let c = bytes[i]
            if c == quote {
                // `''` is a quote; else text up to the closing quote, in which `''` is a quote.
                if i + 1 < bytes.count && bytes[i + 1] == quote {
                    literal(quote)
                    i += 2
                    continue
                }
                var j = i + 1
                while true {
                    guard j < bytes.count else {
                        throw UsageError.datePattern(
                            pattern, "the quote at offset \(Self.offset(bytes, i)) is not closed; write '' for a quote")
                    }
                    if bytes[j] == quote {
                        guard j + 1 < bytes.count && bytes[j + 1] == quote else { break }
                        literal(quote)
                        j += 2
                    } else {
                        literal(bytes[j])
                        j += 1
                    }
                }
                i = j + 1
                continue
            }
            guard Self.isLetter(c) else {
                literal(c)
                i += 1
                continue
            }
            var count = 1
            while i + count < bytes.count && bytes[i + count] == c { count += 1 }
            parts.append(try Self.field(c, count: count, pattern: pattern, bytes: bytes, at: i))
            i += count
        }
        self.parts = parts
        let fixed = parts.allSatisfy { $0.field.rawValue <= Field.fraction.rawValue }
        fixedLength = fixed ? parts.reduce(0) { $0 + $1.width } : -1
    }

    static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    /// The fields Spool reads, for messages.
    static let fieldList = "yyyy MM dd HH mm ss SSS, MMM MMMM EEE EEEE, Z XXX ZZZZZ zzz"

    /// The part for `count` letters `letter` at `start`.
    private static func field(
        _ letter: UInt8, count: Int, pattern: String, bytes: [UInt8], at start: Int
    ) throws(UsageError) -> Part {
        func number(_ field: Field) -> Part { Part(field: field, width: count, literal: 0) }
        func named(_ field: Field) -> Part { Part(field: field, width: 0, literal: 0) }
        let written = String(repeating: Character(Unicode.Scalar(letter)), count: count)
        func refused(_ why: String) -> UsageError {
            .datePattern(pattern, "\(written) at offset \(offset(bytes, start)) \(why)")
        }
        switch letter {
        case UInt8(ascii: "y"):
            // (DateFormatter reads `yy` as a year within a century around today: Spool would
            // read `94` as the year 94, a wrong date rather than an error.)
            guard count != 2 else {
                throw refused("is not a field Spool reads: a two-digit year is ambiguous; write yyyy for the year's digits")
            }
            return number(.year)
        case UInt8(ascii: "d"): return number(.day)
        case UInt8(ascii: "H"): return number(.hour)
        case UInt8(ascii: "m"): return number(.minute)
        case UInt8(ascii: "s"): return number(.second)
        case UInt8(ascii: "S"): return number(.fraction)
        case UInt8(ascii: "M"):
            switch count {
            case 1, 2: return number(.month)
            case 3, 4: return named(.monthName)
            default: throw refused("is not a field Spool reads: MM is a month's number, MMM or MMMM its name")
            }
        case UInt8(ascii: "E"):
            guard count <= 4 else { throw refused("is not a field Spool reads: EEE or EEEE is a day's name") }
            return named(.weekday)
        case UInt8(ascii: "Z"):
            guard count != 4 && count <= 5 else {
                throw refused("is not a field Spool reads: Z reads +hhmm, XXX or ZZZZZ reads +hh:mm")
            }
            return named(.offset)
        case UInt8(ascii: "X"):
            guard count == 3 else { throw refused("is not a field Spool reads: XXX reads +hh:mm or Z, Z reads +hhmm") }
            return named(.offset)
        case UInt8(ascii: "z"):
            guard count <= 3 else { throw refused("is not a field Spool reads: zzz reads GMT or UTC") }
            return named(.zoneName)
        default:
            throw refused(
                "is not a field Spool reads (it reads \(fieldList)); put literal text in single quotes ('T')")
        }
    }

    /// The number of characters before byte `start` (a letter or a quote) of the pattern.
    private static func offset(_ bytes: [UInt8], _ start: Int) -> Int {
        String(decoding: bytes.prefix(start), as: UTF8.self).count
    }

    /// The date `text` holds, or nil (``outcome(_:)`` then says why).
    func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { bytes in
            if fixedLength >= 0 { return parse(fixed: bytes) }
            guard case .date(let date) = parse(bytes: bytes) else { return nil }
            return date
        }
    }

    /// What `text` holds: its date, or why it has none.
    func outcome(_ text: String) -> Outcome {
        var text = text
        return text.withUTF8 { fixedLength >= 0 ? parse(fixed: $0).map(Outcome.date) ?? .mismatch : parse(bytes: $0) }
    }

    /// The date of a text of a pattern of numbers and literal text only: the same as
    /// ``parse(bytes:)``, but every part is where the pattern puts it once the length is right.
    private func parse(fixed bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        guard bytes.count == fixedLength else { return nil }
        var fields = NumberFields()
        var i = 0
        for part in parts {
            if part.field == .literal {
                guard bytes[i] == part.literal else { return nil }  // (i < fixedLength)
                i &+= 1
                continue
            }
            guard let value = CivilDate.digits(bytes, at: i, width: part.width), fields.set(part, value) else { return nil }
            i &+= part.width
        }
        return CivilDate.date(
            year: fields.year, month: fields.month, day: fields.day, hour: fields.hour, minute: fields.minute,
            second: fields.second, fraction: fields.fraction)
    }

    /// The number fields of a date as they are read, from January 1st, 1970, 00:00:00.
    private struct NumberFields {
        var year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0
        var fraction = 0.0

        /// Sets the number field `part` reads; false for a value no date has.
        @inline(__always)
        mutating func set(_ part: Part, _ value: Int) -> Bool {
            switch part.field {
            case .year:
                // Year 0 (1 BC) has no year of era: DateFormatter's `yyyy` refuses it too.
                guard value > 0 else { return false }
                year = value
            case .month: month = value
            case .day: day = value
            case .hour: hour = value
            case .minute: minute = value
            case .second: second = value
            default: fraction = DatePattern.fraction(value, digits: part.width)
            }
            return true
        }
    }

    /// `value` as the fraction of `digits` digits after the point.
    fileprivate static func fraction(_ value: Int, digits: Int) -> Double {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        return Double(value) / scale
    }

    /// The date of any text, or why it has none.
    private func parse(bytes: UnsafeBufferPointer<UInt8>) -> Outcome {
        var fields = NumberFields()
        var offset = 0
        var weekday = -1
        var i = 0
        for part in parts {
            switch part.field {
            case .literal:
                guard i < bytes.count, bytes[i] == part.literal else { return .mismatch }
                i &+= 1
            case .monthName:
                guard let (index, length) = Self.name(in: bytes, at: i, from: Self.lowercaseMonthNames) else { return .mismatch }
                fields.month = index + 1
                i += length
            case .weekday:
                guard let (index, length) = Self.name(in: bytes, at: i, from: Self.lowercaseDayNames) else { return .mismatch }
                weekday = index
                i += length
            case .offset:
                guard let (seconds, length) = Self.offset(in: bytes, at: i) else { return .mismatch }
                offset = seconds
                i += length
            case .zoneName:
                guard Self.isUTC(bytes, at: i) else { return .zoneName }
                i += 3
            default:
                guard let value = CivilDate.digits(bytes, at: i, width: part.width), fields.set(part, value) else {
                    return .mismatch
                }
                i += part.width
            }
        }
        let (year, month, day) = (fields.year, fields.month, fields.day)
        guard i == bytes.count,
            let date = CivilDate.date(
                year: year, month: month, day: day, hour: fields.hour, minute: fields.minute, second: fields.second,
                fraction: fields.fraction, offsetSeconds: offset)
        else { return .mismatch }
        if weekday >= 0 {
            let actual = CivilDate.weekday(days: CivilDate.days(year: year, month: month, day: day))
            guard actual == weekday else { return .weekday(named: weekday, year: year, month: month, day: day, actual: actual) }
        }
        return .date(date)
    }

    /// Month names, for messages.
    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]
    /// Day names from Sunday, as ``CivilDate/weekday(days:)`` counts, for messages.
    static let dayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    /// The names in lowercase ASCII, as the parser compares them.
    static let lowercaseMonthNames = monthNames.map { Array($0.lowercased().utf8) }
    static let lowercaseDayNames = dayNames.map { Array($0.lowercased().utf8) }

    /// The index in `names` (lowercase) of the name at `start`, whole or its first three
    /// letters (whole when it is there), in any letter case, and its length in bytes. (The
    /// first three letters tell the month names apart, and the day names.)
    private static func name(
        in bytes: UnsafeBufferPointer<UInt8>, at start: Int, from names: [[UInt8]]
    ) -> (index: Int, length: Int)? {
        guard start >= 0, start + 3 <= bytes.count else { return nil }
        // (`| 0x20` lowercases a letter, and makes no other byte a lowercase letter.)
        let first = bytes[start] | 0x20, second = bytes[start + 1] | 0x20, third = bytes[start + 2] | 0x20
        for index in names.indices {
            let name = names[index]
            guard name.count >= 3, name[0] == first, name[1] == second, name[2] == third else { continue }
            var length = 3
            while length < name.count && start + length < bytes.count && bytes[start + length] | 0x20 == name[length] {
                length += 1
            }
            return (index, length == name.count ? length : 3)
        }
        return nil
    }

    /// The offset at `start`: `Z` (or `z`), `±hhmm` or `±hh:mm`, up to 23:59, in seconds east of
    /// UTC, and its length in bytes.
    private static func offset(in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> (seconds: Int, length: Int)? {
        guard start < bytes.count else { return nil }
        let sign: Int
        switch bytes[start] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"): return (0, 1)
        case UInt8(ascii: "+"): sign = 1
        case UInt8(ascii: "-"): sign = -1
        default: return nil
        }
        guard let hours = CivilDate.digits(bytes, at: start + 1, width: 2), hours <= 23 else { return nil }
        var minutesAt = start + 3
        if minutesAt < bytes.count && bytes[minutesAt] == UInt8(ascii: ":") { minutesAt += 1 }
        guard let minutes = CivilDate.digits(bytes, at: minutesAt, width: 2), minutes <= 59 else { return nil }
        return (sign * (hours * 3600 + minutes * 60), minutesAt + 2 - start)
    }

    /// Whether `GMT` or `UTC`, in any letter case, is at `start`.
    private static func isUTC(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        guard start >= 0, start + 3 <= bytes.count else { return false }
        let word = (bytes[start] | 0x20, bytes[start + 1] | 0x20, bytes[start + 2] | 0x20)
        return word == (UInt8(ascii: "g"), UInt8(ascii: "m"), UInt8(ascii: "t"))
            || word == (UInt8(ascii: "u"), UInt8(ascii: "t"), UInt8(ascii: "c"))
    }

    /// `value` in decimal, with leading zeros to `width` digits.
    static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
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
