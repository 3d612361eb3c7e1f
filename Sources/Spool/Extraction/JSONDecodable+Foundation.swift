#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension URL: JSONDecodable {
    /// A JSON string that `URL(string:)` accepts.
    public static func decode(_ e: Extractor) throws -> URL {
        let text = try e.string()
        guard let url = URL(string: text) else {
            var error = e.error("invalid URL \(JSONKeyPath.quoted(text))")
            error.code = .invalidValue
            throw error
        }
        return url
    }
}

extension Decimal: JSONDecodable {
    /// A JSON number, exactly, from its source text.
    ///
    /// A number `Decimal` cannot hold exactly is a type mismatch ("does not fit Decimal
    /// exactly"), never rounded: more significant digits than its 128-bit significand holds
    /// (up to 38 digits always, 39 up to 340282366920938463463374607431768211455), or a value
    /// whose power of ten is out of its range (`1e-129`, or `1e166` once trailing zeros are
    /// moved into the significand). Leading and trailing zeros cost nothing: `1.000…0` is 1,
    /// `0e999` is 0.
    public static func decode(_ e: Extractor) throws -> Decimal {
        _ = try e.checkedToken()
        return try Decimal.read(at: e.index, in: e.context)
    }
}
