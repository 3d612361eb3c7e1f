#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Ready-made date transformers from text. None goes through `DateFormatter` (on Linux one
/// formatter call costs more than decoding a whole record); the text is parsed from its bytes by
/// the same parser as the Codable date strategies `.iso8601` and `.pattern`.
///
/// ```swift
/// birthDate: try e.value("birth_date", .pattern("yyyy-MM-dd"))
/// ```
extension Transformer where From == String, To == Date {
    /// ISO 8601 / RFC 3339 date-times: `2016-01-01T12:30:00Z`, with optional fractional
    /// seconds (`.5`, `.123456`) and a `Z` or `±hh:mm` / `±hhmm` offset. Years 0000 to 9999,
    /// in Foundation's calendar as `JSONDecoder` reads them: Gregorian from 1582-10-15, Julian
    /// before.
    public static var iso8601: Transformer { Transformer { text in try DateParser.iso8601.parse(text) } }

    /// A fixed-width pattern in UTC, e.g. `yyyy-MM-dd`, `MM-dd-yyyy`, `yyyy-MM-dd HH:mm:ss`.
    /// Fields: `yyyy`, `MM`, `dd`, `HH`, `mm`, `ss`, `SSS`; any other character must match itself.
    /// Dates are read as a `DateFormatter` (`en_US_POSIX`, GMT) reads them: Gregorian from
    /// 1582-10-15, Julian before, and year 0000 refused.
    public static func pattern(_ pattern: String) -> Transformer {
        let parser = DateParser.pattern(pattern)
        return Transformer { text in try parser.parse(text) }
    }
}

/// Ready-made date transformers from numbers.
extension Transformer where From == Double, To == Date {
    /// A number of seconds since 1970-01-01T00:00:00Z.
    public static var secondsSince1970: Transformer { Transformer { Date(timeIntervalSince1970: $0) } }

    /// A number of milliseconds since 1970-01-01T00:00:00Z.
    public static var millisecondsSince1970: Transformer { Transformer { Date(timeIntervalSince1970: $0 / 1000) } }
}
