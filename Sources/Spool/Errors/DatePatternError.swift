/// A date pattern Spool does not read, refused when the pattern is compiled, before any value:
/// by ``Transformer/pattern(_:)``, and by a ``StreamingJSONDecoder`` whose date strategy is
/// `.pattern` when a decode or a stream starts, before it reads any input.
///
/// A letter outside single quotes is a field: one Spool does not read (`h`, `a`, `ZZZZ`, the
/// two-digit year `yy`) is refused rather than matched as literal text, which would fail on
/// every value as an invalid date (or, for `yy`, read `94` as the year 94). Quote literal
/// text: `yyyy-MM-dd'T'HH:mm:ss`.
///
/// ```text
/// error: date pattern "hh:mm a": hh at offset 0 is not a field Spool reads (it reads yyyy MM dd HH mm ss SSS, MMM MMMM EEE EEEE, Z XXX ZZZZZ zzz); put literal text in single quotes ('T')
/// ```
public struct DatePatternError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The pattern, as given.
    public var pattern: String
    /// The field refused, as written (`h`, `ZZZZ`), or `'` for a quote that is not closed.
    public var field: String
    /// Where the field starts: the number of characters before it in the pattern.
    public var offset: Int
    /// What is wrong and what to write instead, in one sentence.
    public var message: String

    /// `error: MESSAGE`.
    public var description: String { "error: \(message)" }
}
