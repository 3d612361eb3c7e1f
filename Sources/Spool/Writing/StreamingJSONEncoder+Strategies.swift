import Foundation  // DateFormatter is not in FoundationEssentials

// The options carry Foundation's names, so `JSONEncoder` code switches by one word.

extension StreamingJSONEncoder {
    /// How a model's coding keys become the JSON object's keys.
    public enum KeyEncodingStrategy: Sendable {
        /// The keys as they are.
        case useDefaultKeys
        /// `camelCase` keys become `snake_case` as `JSONEncoder` converts them: words split where
        /// lowercase turns uppercase, and before the last capital of a run of capitals
        /// (`myURLKey` → `my_url_key`, `HTTPServer` → `h_ttp_server`), leading and trailing
        /// underscores kept. The keys of `String`-keyed dictionaries are left alone.
        case convertToSnakeCase
        /// Your function maps the coding path, ending in the model's key, to the key to write.
        case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
    }

    /// How a `Date` is written.
    public enum DateEncodingStrategy: Sendable {
        /// `Date`'s own `Encodable` conformance: seconds since 2001-01-01 as a number.
        case deferredToDate
        /// Seconds since 1970-01-01T00:00:00Z, as a number.
        case secondsSince1970
        /// Milliseconds since 1970-01-01T00:00:00Z, as a number.
        case millisecondsSince1970
        /// An ISO 8601 date-time string in UTC without fractional seconds
        /// (`2016-05-17T22:43:04Z`), as `JSONEncoder` writes it.
        case iso8601
        /// A string made by the formatter.
        case formatted(DateFormatter)
        /// Your function writes the date through the encoder it is given; writing nothing
        /// gives `{}`, as with `JSONEncoder`.
        case custom(@Sendable (_ date: Date, _ encoder: any Encoder) throws -> Void)
    }

    /// How `Data` is written.
    public enum DataEncodingStrategy: Sendable {
        /// `Data`'s own `Encodable` conformance: an array of byte values.
        case deferredToData
        /// A Base64 string.
        case base64
        /// Your function writes the data through the encoder it is given; writing nothing
        /// gives `{}`.
        case custom(@Sendable (_ data: Data, _ encoder: any Encoder) throws -> Void)
    }

    /// How the non-numbers infinity and NaN are written, which JSON cannot hold as numbers.
    public enum NonConformingFloatEncodingStrategy: Sendable {
        /// Refuse them: `EncodingError.invalidValue` with the coding path.
        case `throw`
        /// Write these strings for positive infinity, negative infinity and NaN.
        case convertToString(positiveInfinity: String, negativeInfinity: String, nan: String)
    }
}

extension StreamingJSONEncoder.KeyEncodingStrategy {
    /// `camelCase` to `snake_case` with `JSONEncoder`'s rule: the first character never starts a
    /// word; a word starts at each capital (Unicode categories Lu and Lt) that a lowercase letter
    /// (Ll) follows, and a run of capitals followed by lowercase is one word up to its last
    /// capital; the words are lowercased and joined by `_`. As in `JSONEncoder`, letters are
    /// searched scalar by scalar and steps are whole characters, so a capital with a combining
    /// mark (`B\u{301}`) is one letter: `aB\u{301}c` is `a_b\u{301}c`.
    static func snakeCase(fromCamelCase key: String) -> String {
        guard !key.isEmpty else { return key }
        let scalars = key.unicodeScalars
        func isUpper(_ scalar: Unicode.Scalar) -> Bool {
            let category = scalar.properties.generalCategory
            return category == .uppercaseLetter || category == .titlecaseLetter
        }
        func isLower(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.generalCategory == .lowercaseLetter }

        var words: [Range<String.Index>] = []
        var wordStart = key.startIndex
        var searchRange = key.index(after: wordStart)..<key.endIndex
        while let upper = scalars[searchRange].firstIndex(where: isUpper) {
            words.append(wordStart..<upper)
            searchRange = upper..<searchRange.upperBound
            guard let lower = scalars[searchRange].firstIndex(where: isLower) else {
                wordStart = searchRange.lowerBound
                break
            }
            if lower == key.index(after: upper) {
                wordStart = upper  // one capital, then lowercase: the same word
            } else {
                let lastCapital = key.index(before: lower)  // a run of capitals is a word of its own
                words.append(upper..<lastCapital)
                wordStart = lastCapital
            }
            searchRange = scalars.index(after: lower)..<searchRange.upperBound
        }
        words.append(wordStart..<searchRange.upperBound)
        return words.map { key[$0].lowercased() }.joined(separator: "_")
    }
}
