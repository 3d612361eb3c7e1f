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
    var usesDefaultKeys: Bool { keyTranslation == nil }

    /// The parser of the `.iso8601` or `.pattern` date strategy, made once (a pattern is
    /// compiled then).
    let dateParser: DateParser?

    /// The converted keys of a key strategy other than `.useDefaultKeys`, kept for the whole
    /// session; nil for `.useDefaultKeys`. The session holds the one reference (released in
    /// `deinit`), so that the lookups of every field read it without retaining it.
    let keyTranslation: Unmanaged<KeyTranslation>?

    /// The URLs parsed last, by their text.
    @exclusivity(unchecked) var recentURLs = RecentURLs()

    /// The text of the coding keys looked up so far (freed in `deinit`).
    @exclusivity(unchecked) var keyNames = KeyNames()

    /// Keyed containers for reuse, parked or let go of at the end of each decode.
    @exclusivity(unchecked) var reusableContainers = ReusableContainers()

    /// Runs `body`, one decode (or one streamed element), then parks the containers kept for
    /// reuse, which hold its decoder meanwhile, and lets the key conversions go if there are
    /// too many to keep (``KeyTranslation/endDecode()``).
    @inline(__always)
    func decode<T>(_ body: () throws -> T) rethrows -> T {
        reusableContainers.decodes &+= 1
        defer {
            reusableContainers.decodes &-= 1
            if reusableContainers.decodes == 0 {
                reusableContainers.endDecode()
                keyTranslation?._withUnsafeGuaranteedRef { $0.endDecode() }
            }
        }
        return try body()
    }

    /// A session with `configuration`, its date pattern compiled.
    /// - Throws: ``UsageError`` when the `.pattern` date strategy's pattern has a field
    ///   Spool does not read: before the decode or stream reads anything.
    convenience init(_ configuration: StreamingJSONDecoder.Configuration) throws(UsageError) {
        let dateParser: DateParser?
        switch configuration.dateDecodingStrategy {
        case .iso8601: dateParser = .iso8601
        case .pattern(let pattern): dateParser = try .pattern(pattern)
        default: dateParser = nil
        }
        self.init(configuration, dateParser: dateParser)
    }

    /// A session with `configuration` and the parser of its date strategy.
    init(_ configuration: StreamingJSONDecoder.Configuration, dateParser: DateParser?) {
        self.configuration = configuration
        self.dateParser = dateParser
        switch configuration.keyDecodingStrategy {
        case .useDefaultKeys: keyTranslation = nil
        case .convertFromSnakeCase: keyTranslation = Unmanaged.passRetained(KeyTranslation(.snakeCase))
        case .custom(let convert): keyTranslation = Unmanaged.passRetained(KeyTranslation(.custom(convert)))
        }
    }

    deinit {
        keyTranslation?.release()
        keyNames.deallocate()
        KnownArrays.add(arraysFound)
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

    /// The kinds found so far, by type. Models of real documents meet dozens of types
    /// (twitter.json's, with their arrays, about forty); every miss costs a ``learn(_:)``, so
    /// every type is remembered.
    @exclusivity(unchecked) private var kinds = TypeKinds(capacity: 128)
    /// The array kinds this session found, for ``KnownArrays`` when it ends.
    @exclusivity(unchecked) private var arraysFound: [(id: ObjectIdentifier, kind: ValueKind)] = []

    /// The kind of `T`, found once per session.
    @inline(__always)
    func kind<T: Decodable>(of type: T.Type) -> ValueKind {
        if let kind = kinds.kind(of: ObjectIdentifier(T.self)) { return kind }
        return learn(T.self)
    }

    // The first time a process asks whether a type conforms to a protocol, the runtime scans
    // every conformance record of every loaded image (about 300,000 instructions). A model
    // type, which conforms to neither ``DecodableArray`` nor ``StringKeyedDictionary``, paid
    // two such scans: 10M of the 71M instructions of a first decode of twitter.json. Only an
    // `Array` can conform to the first and only a `Dictionary` to the second, told apart by
    // their type descriptor; an array's conformance is then found without a scan
    // (``KnownArrays``), a dictionary's by the cast.

    /// The address of the type descriptor of a struct's metadata (the Swift ABI's value
    /// metadata: its kind, then its descriptor), or nil for any other kind of type.
    private static func structDescription(_ type: Any.Type) -> UInt? {
        let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
        guard metadata.load(as: UInt.self) == 0x200 else { return nil }  // MetadataKind.struct
        return metadata.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt.self)
    }

    private static let arrayDescription = structDescription([Int].self)
    private static let dictionaryDescription = structDescription(dictionaryType(String.self, Int.self))

    /// `[Key: Value]`, made from the conformance at hand: the metadata of a dictionary type
    /// named in code is found by its mangled name, and the runtime checks `Key: Hashable` by
    /// the scan the descriptors are there to avoid.
    @_semantics("optimize.sil.specialize.generic.never")
    @inline(never)
    private static func dictionaryType<Key: Hashable, Value>(_: Key.Type, _: Value.Type) -> Any.Type {
        [Key: Value].self
    }

    /// Whether `type` is a struct with the type descriptor `description` (any specialization
    /// of the same generic struct), or nil when `description` is unknown.
    private static func isStruct(_ type: Any.Type, described description: UInt?) -> Bool? {
        guard let description else { return nil }
        return structDescription(type) == description
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
        } else if let isArray = Self.isStruct(T.self, described: Self.arrayDescription) {
            kind = isArray ? learnArray(T.self) : learnDictionary(T.self)
        } else if let array = Self.cast(T.self) {  // (descriptors unknown: the casts decide)
            kind = array
        } else {
            kind = learnDictionary(T.self)
        }
        kinds.set(id, kind)
        noteArray(of: T.self)
        return kind
    }

    /// Notes `[T]` as an array, from `T`'s own conformance: in this session's table (in place
    /// of a model if it was met first) and for ``KnownArrays`` when the session ends.
    private func noteArray<T: Decodable>(of type: T.Type) {
        let id = ObjectIdentifier([T].self)
        if case .array? = kinds.kind(of: id) { return }
        let kind = ValueKind.array([T].self)
        kinds.set(id, kind)
        arraysFound.append((id, kind))
    }

    /// `T` as a ``DecodableArray``, by the cast (a conformance scan the first time).
    private static func cast<T>(_ type: T.Type) -> ValueKind? {
        (T.self as? any DecodableArray.Type).map { .array($0) }
    }

    /// The kind of `T`, an array type (``KnownArrays``): an array if its element type was
    /// met; the first time the process meets it otherwise, a model, which `Array`'s own
    /// `init(from:)` reads, meeting the element type; else found by the cast.
    private func learnArray<T: Decodable>(_ type: T.Type) -> ValueKind {
        let id = ObjectIdentifier(T.self)
        switch KnownArrays.meet(id) {
        case nil: return .model
        case .array(let array)?: return .array(array)
        default:
            guard let array = Self.cast(T.self) else { return .model }
            arraysFound.append((id, array))
            return array
        }
    }

    /// The kind of `T`, not an array: a dictionary keyed by strings, or a model.
    private func learnDictionary<T: Decodable>(_ type: T.Type) -> ValueKind {
        guard Self.isStruct(T.self, described: Self.dictionaryDescription) != false,
            let dictionary = T.self as? any StringKeyedDictionary.Type
        else { return .model }
        return .stringKeyedDictionary(dictionary)
    }
}
