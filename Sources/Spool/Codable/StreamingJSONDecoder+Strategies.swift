import Foundation  // DateFormatter is not in FoundationEssentials

// The strategies carry Foundation's case names, so `JSONDecoder` code switches by one word.

extension StreamingJSONDecoder {
    /// How JSON object keys become the keys a model's `CodingKeys` are compared with.
    public enum KeyDecodingStrategy: Sendable {
        /// The keys as they are.
        case useDefaultKeys
        /// `snake_case` keys become `camelCase` (`last_updated` → `lastUpdated`), as
        /// `JSONDecoder` converts them: leading and trailing underscores are kept, and so are
        /// keys without an underscore.
        case convertFromSnakeCase
        /// Your function maps the coding path, ending in the JSON key, to the key to use.
        case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)
    }

    /// How a `Date` is read.
    public enum DateDecodingStrategy: Sendable {
        /// `Date`'s own `Decodable` conformance: seconds since 2001-01-01 as a number.
        case deferredToDate
        /// A number of seconds since 1970-01-01T00:00:00Z.
        case secondsSince1970
        /// A number of milliseconds since 1970-01-01T00:00:00Z.
        case millisecondsSince1970
        /// An ISO 8601 date-time string, with or without fractional seconds, with `Z` or an
        /// offset (`2016-05-17T22:43:04.000000+00:00`). Parsed without a formatter.
        case iso8601
        /// A string in the formatter's format.
        case formatted(DateFormatter)
        /// Your function, given a decoder for the value.
        case custom(@Sendable (_ decoder: any Decoder) throws -> Date)
        /// A date pattern such as `yyyy-MM-dd`, `EEE MMM dd HH:mm:ss Z yyyy` or
        /// `EEE, dd MMM yyyy HH:mm:ss zzz`: Spool's fast path, compiled once, no `DateFormatter`
        /// per value. Fields: `yyyy` `MM` `dd` `HH` `mm` `ss` `SSS` (numbers), `MMM` `MMMM`
        /// `EEE` `EEEE` (English names), `Z` `XXX` `ZZZZZ` (offsets), `zzz` (GMT or UTC), and
        /// text in single quotes; see ``Transformer/pattern(_:)`` for what each reads.
        ///
        /// A pattern with any other letter is refused when a decode or stream starts, before
        /// it reads any input: the decode throws a ``UsageError`` naming the letter
        /// (a stream's first `next()` throws it).
        case pattern(String)
    }

    /// How `Data` is read.
    public enum DataDecodingStrategy: Sendable {
        /// `Data`'s own `Decodable` conformance: an array of bytes.
        case deferredToData
        /// A Base64 string.
        case base64
        /// Your function, given a decoder for the value.
        case custom(@Sendable (_ decoder: any Decoder) throws -> Data)
    }

    /// How the non-numbers infinity and NaN are read into `Double` and `Float`, which JSON
    /// cannot write as numbers.
    public enum NonConformingFloatDecodingStrategy: Sendable {
        /// Refuse them: a string where a number is expected is a type mismatch.
        case `throw`
        /// Read these strings as positive infinity, negative infinity and NaN.
        case convertFromString(positiveInfinity: String, negativeInfinity: String, nan: String)
    }
}

extension StreamingJSONDecoder.KeyDecodingStrategy {
    /// `snake_case` to `camelCase`, as swift-foundation's `JSONDecoder` does it: words are split
    /// at underscores; leading and trailing underscores stay; a key of one word is kept as it
    /// is; otherwise the first word is lowercased and the others capitalized
    /// (`_my_URL_key_` → `_myUrlKey_`, `utc_2nd` → `utc2Nd`).
    static func camelCase(fromSnakeCase key: String) -> String {
        guard let firstNonUnderscore = key.firstIndex(where: { $0 != "_" }) else { return key }
        var lastNonUnderscore = key.index(before: key.endIndex)
        while lastNonUnderscore > firstNonUnderscore && key[lastNonUnderscore] == "_" {
            lastNonUnderscore = key.index(before: lastNonUnderscore)
        }
        let words = key[firstNonUnderscore...lastNonUnderscore].split(separator: "_")
        guard words.count > 1 else { return key }
        var result = String(key[..<firstNonUnderscore]) + words[0].lowercased()
        for word in words.dropFirst() {
            result += capitalized(word)
        }
        return result + key[key.index(after: lastNonUnderscore)...]
    }

    /// `word.capitalized`, as `JSONDecoder` capitalizes the words after the first: a letter
    /// that follows a letter is lowercased, any other letter titlecased (so `2nd` → `2Nd`,
    /// `a-b` → `A-B`, `ß` → `Ss`). ASCII letters and digits without Foundation's help.
    static func capitalized(_ word: Substring) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(word.utf8.count)
        var afterLetter = false
        for byte in word.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"):
                bytes.append(afterLetter ? byte : byte - 32)
                afterLetter = true
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                bytes.append(afterLetter ? byte + 32 : byte)
                afterLetter = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                bytes.append(byte)
                afterLetter = false
            default:
                return String(word).capitalized
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
