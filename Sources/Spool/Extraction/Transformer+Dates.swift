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

    /// A date pattern, compiled once: `yyyy-MM-dd`, `yyyy-MM-dd'T'HH:mm:ss.SSSXXX`, Twitter's
    /// `EEE MMM dd HH:mm:ss Z yyyy`, or HTTP's `EEE, dd MMM yyyy HH:mm:ss zzz`.
    ///
    /// ```swift
    /// let created = try Transformer.pattern("EEE MMM dd HH:mm:ss Z yyyy")
    /// let date = try created.apply("Wed Aug 27 13:08:45 +0000 2008")   // 2008-08-27T13:08:45Z
    /// ```
    ///
    /// The fields, as `DateFormatter` spells them:
    /// - `yyyy`, `MM`, `dd`, `HH`, `mm`, `ss`: a number of exactly as many digits as letters
    ///   (year, month, day, hour 00-23, minute, second); `SSS`: as many digits of a second.
    /// - `MMM`, `MMMM`: an English month name, `Jan` or `January`; `EEE`, `EEEE`: a day name,
    ///   `Wed` or `Wednesday`. Either form fits either field, in any letter case (`wed`,
    ///   `WED`), as a `DateFormatter` with the `en_US_POSIX` locale reads them. A day name
    ///   must be the date's day: `Thu Aug 27 ... 2008` is an invalid date (a Wednesday), where
    ///   `DateFormatter` ignores the day name.
    /// - `Z`, `XXX`, `ZZZZZ`: an offset, `+0100`, `-08:00` or `Z` (each field takes each form,
    ///   as `DateFormatter` does; hours to 23). The date is the instant: `13:08:45 -0800` is
    ///   21:08:45 UTC.
    /// - `zzz`: `GMT` or `UTC` (any letter case), and no other zone name: names such as `PST`
    ///   or `CST` depend on tables and can be ambiguous. Without a zone field, the date is UTC.
    /// - Text in single quotes is literal (`'T'`, `'GMT'`), and `''` is a quote. Any character
    ///   that is not an ASCII letter (`-`, `:`, `,`, a space) matches itself.
    ///
    /// Each value must match the pattern whole, with the dates of `DateFormatter` (Gregorian
    /// from 1582-10-15, Julian before, year 0000 refused), or the transformer throws a
    /// ``DecodeError`` (`.invalidValue`: `invalid date "1967-13-01" (expected yyyy-MM-dd)`).
    ///
    /// - Throws: ``UsageError`` when the pattern has a letter outside quotes that is not
    ///   one of these fields (`h`, `a`, `D`, an unquoted `T`, `ZZZZ`, the two-digit year `yy`),
    ///   or a quote it does not close: the pattern is refused here, not on every value.
    public static func pattern(_ pattern: String) throws(UsageError) -> Transformer {
        let parser = try DateParser.pattern(pattern)
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
