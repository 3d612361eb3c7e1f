#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What one decode call (or one stream's elements) shares: the decoder's settings, copied
/// once at the start, and what the decoding has learnt about the types it meets.
///
/// A ``TapeDecoder`` holds the session by reference, so a streamed element costs one
/// reference, not a copy of the settings.
final class DecodingSession: @unchecked Sendable {
    // (Unchecked: a session is used by one decode call or one stream at a time, as the
    // stream's own iterator is; its type table is never shared between threads at once.)

    let configuration: StreamingJSONDecoder.Configuration
    /// The key decoding strategy is `.useDefaultKeys`: members are matched by their keys as written.
    let usesDefaultKeys: Bool

    /// The parser of the `.iso8601` or `.pattern` date strategy, made once (a pattern is
    /// compiled when its transformer is made).
    let dateParser: Transformer<String, Date>?

    init(_ configuration: StreamingJSONDecoder.Configuration) {
        self.configuration = configuration
        if case .useDefaultKeys = configuration.keyDecodingStrategy { usesDefaultKeys = true } else { usesDefaultKeys = false }
        switch configuration.dateDecodingStrategy {
        case .iso8601: dateParser = DateTransformers.iso8601
        case .pattern(let pattern): dateParser = DateTransformers.pattern(pattern)
        default: dateParser = nil
        }
    }

    /// How a type is read: the standard scalars straight from their token (not through their
    /// `init(from:)`, which would ask for a single-value container first), the types
    /// `JSONDecoder` reads in its own way, else `init(from:)`.
    enum ValueKind: @unchecked Sendable {
        // (Unchecked: the payloads are metatypes, which nothing mutates.)
        case model
        case string, bool, double, float
        case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64
        case date, data, url, decimal, int128, uint128
        case array(any DecodableArray.Type)
        case stringKeyedDictionary(any StringKeyedDictionary.Type)
    }

    /// The standard scalars' kinds, by type.
    private static let scalarKinds: [(type: ObjectIdentifier, kind: ValueKind)] = [
        (ObjectIdentifier(String.self), .string), (ObjectIdentifier(Bool.self), .bool),
        (ObjectIdentifier(Double.self), .double), (ObjectIdentifier(Float.self), .float),
        (ObjectIdentifier(Int.self), .int), (ObjectIdentifier(Int8.self), .int8),
        (ObjectIdentifier(Int16.self), .int16), (ObjectIdentifier(Int32.self), .int32),
        (ObjectIdentifier(Int64.self), .int64), (ObjectIdentifier(UInt.self), .uint),
        (ObjectIdentifier(UInt8.self), .uint8), (ObjectIdentifier(UInt16.self), .uint16),
        (ObjectIdentifier(UInt32.self), .uint32), (ObjectIdentifier(UInt64.self), .uint64),
    ]

    /// The kinds found so far, by type. Models have few types, so a short list searched from the
    /// start beats hashing; the dynamic casts it saves (`as? DecodableArray.Type`) cost a
    /// conformance lookup each.
    @exclusivity(unchecked) private var kinds: [(type: ObjectIdentifier, kind: ValueKind)] = []
    private static let remembered = 32

    /// The kind of `T`, found once per session.
    @inline(__always)
    func kind<T: Decodable>(of type: T.Type) -> ValueKind {
        let id = ObjectIdentifier(T.self)
        for entry in kinds where entry.type == id { return entry.kind }
        return learn(T.self)
    }

    @inline(never)
    private func learn<T: Decodable>(_ type: T.Type) -> ValueKind {
        let id = ObjectIdentifier(T.self)
        let kind: ValueKind
        if let scalar = Self.scalarKinds.first(where: { $0.type == id }) {
            kind = scalar.kind
        } else if T.self == Date.self {
            kind = .date
        } else if T.self == Data.self {
            kind = .data
        } else if T.self == URL.self {
            kind = .url
        } else if T.self == Decimal.self {
            kind = .decimal
        } else if T.self == Int128.self {
            kind = .int128
        } else if T.self == UInt128.self {
            kind = .uint128
        } else if let array = T.self as? any DecodableArray.Type {
            kind = .array(array)
        } else if let dictionary = T.self as? any StringKeyedDictionary.Type {
            kind = .stringKeyedDictionary(dictionary)
        } else {
            kind = .model
        }
        if kinds.count < Self.remembered { kinds.append((id, kind)) }
        return kind
    }
}
