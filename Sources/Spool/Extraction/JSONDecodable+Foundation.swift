#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension URL: JSONDecodable {
    /// A JSON string that `URL(string:)` accepts.
    public static func decode(_ e: Extractor) throws -> URL {
        let text = try e.string()
        guard let url = URL(string: text) else { throw e.error("invalid URL \(JSONKeyPath.quoted(text))") }
        return url
    }
}

extension Decimal: JSONDecodable {
    /// A JSON number, exactly, from its source text.
    public static func decode(_ e: Extractor) throws -> Decimal {
        let text = try e.numberText(expecting: Decimal.self)
        guard let value = Decimal(string: text) else {
            throw e.mismatchError(at: e.index, expected: Decimal.self, reason: "out of Decimal's range")
        }
        return value
    }
}
