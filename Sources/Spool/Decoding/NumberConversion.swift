/// Spool's conversions of a JSON number's source text, exposed for its fuzz targets and
/// benchmarks, which compare them with the C library's on raw text.
///
/// Not API: `@_spi(Testing)`, and it may change or go at any time. Decode numbers with
/// ``Extractor/double()`` or `Float.decodeValue(from:)` instead.
@_spi(Testing) public enum NumberConversion {
    /// The nearest `Double` to the number `text` (JSON number syntax), or nil when out of
    /// `Double`'s range (infinite, or a non-zero number rounded to 0) or not a number.
    public static func double(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        NumberText.double(text)
    }

    /// ``double(_:)`` for `Float`, rounded once from the text.
    public static func float(_ text: UnsafeBufferPointer<UInt8>) -> Float? {
        NumberText.float(text)
    }
}
