#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The keys of a key decoding strategy other than `.useDefaultKeys`, converted once per
/// distinct key for a whole decode or stream, not once per object.
///
/// A member lookup compares the converted form of each JSON key it passes with the key the
/// model asks for (as `JSONDecoder` compares them). The converted forms live here, keyed by
/// the JSON key's bytes: an open-addressed table of entries whose bytes are copied into an
/// arena of chunks that never move, so a converted key is read in place as long as the
/// session lives. Under `.convertFromSnakeCase`, a key without an underscore is its own
/// conversion and is not even looked up.
///
/// The table is bounded: a stream whose objects keep bringing new keys (keys that hold ids,
/// or keys a model passes over looking for one that is absent: every key a lookup passes is
/// converted) would otherwise grow it with the input. At the end of a decode or streamed
/// element that leaves it past ``maximumKeys`` keys or ``maximumBytes`` bytes of arena, it
/// starts again empty (``endDecode()``), and later keys are converted again. Never within
/// one: the notes a lookup keeps of an object's keys (``DecodingContext/KeysPassed``) must
/// find each key converted alike, which a path-dependent custom strategy would not do once
/// the table forgot its first answer. (So an element with more distinct keys than the limit
/// keeps them all until it ends; a stream whose every element holds that many has them
/// converted once per element, as `JSONDecoder` converts every key.)
final class KeyTranslation {
    enum Rule {
        case snakeCase
        /// The strategy's function, called once per distinct key with the coding path where
        /// the key is first met (see ``StreamingJSONDecoder/KeyDecodingStrategy/custom(_:)``),
        /// and again after the table has started again.
        case custom(@Sendable ([any CodingKey]) -> any CodingKey)
    }

    let rule: Rule
    /// Whether a conversion needs the coding path where the key is met (a custom strategy's
    /// does; snake case never reads it).
    let needsPath: Bool

    /// Where a lookup for a custom strategy is looking: the container's decoder, the path of
    /// the container holding it and its key there. Set for the lookup's length only
    /// (``TranslatedKeys/with(_:origin:_:)``), so that the keys the lookup
    /// carries stay one plain reference.
    struct Origin {
        let decoder: TapeDecoder
        let parent: CodingPathNode?
        let key: CurrentKey
    }

    fileprivate var origin: Origin?

    private struct Entry {
        var hash: UInt64 = 0  // 0: empty
        var raw: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0)
        var converted: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0)
    }

    private var entries: UnsafeMutablePointer<Entry>
    private var capacity = 64
    /// The keys converted and kept.
    private(set) var used = 0
    /// The arena: chunks of key bytes, the last one being filled.
    private var chunks: [UnsafeMutableRawPointer] = []
    private var chunkFree = 0
    private var chunkNext: UnsafeMutableRawPointer?
    private static let chunkSize = 16 * 1024
    /// Bytes of the arena's chunks.
    private(set) var storedBytes = 0

    /// The most keys kept from one decode or element to the next: far more than the distinct
    /// keys of any model's objects (twitter.json has 75).
    static let maximumKeys = 4096
    /// The most bytes of arena kept from one decode or element to the next.
    static let maximumBytes = 1 << 20

    init(_ rule: Rule) {
        self.rule = rule
        if case .custom = rule { needsPath = true } else { needsPath = false }
        entries = .allocate(capacity: capacity)
        entries.initialize(repeating: Entry(), count: capacity)
    }

    deinit {
        entries.deinitialize(count: capacity)
        entries.deallocate()
        for chunk in chunks { chunk.deallocate() }
    }

    /// The converted form of the JSON key `raw` (its unescaped UTF-8), valid while this
    /// translation lives. A custom strategy meeting the key for the first time is given the
    /// coding path of the object it is in (``origin``).
    @inline(__always)
    func converted(_ raw: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        if !needsPath, !Self.hasUnderscore(raw) { return raw }  // snake case
        let hash = Self.hash(raw)
        let mask = capacity &- 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = entries[slot]
            if entry.hash == 0 { return learn(raw, hash: hash) }
            if entry.hash == hash && KeyComparison.equal(entry.raw, raw) { return entry.converted }
            slot = (slot &+ 1) & mask
        }
    }

    /// (Keys are short: a loop over the bytes costs less than a call to `memchr`, measured
    /// 0.6M instructions of a snake-case decode of twitter.json.)
    @inline(__always)
    private static func hasUnderscore(_ raw: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in raw where byte == UInt8(ascii: "_") { return true }
        return false
    }

    /// A 64-bit hash of the key's bytes, never 0.
    @inline(__always)
    private static func hash(_ raw: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: raw.count)
        guard let base = raw.baseAddress else { return hash | 1 }
        let bytes = UnsafeRawPointer(base)
        var offset = 0
        while offset &+ 8 <= raw.count {
            hash = (hash ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
            hash ^= hash >> 29
            offset &+= 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while offset < raw.count {
            tail |= UInt64(base[offset]) << shift
            shift &+= 8
            offset &+= 1
        }
        hash = (hash ^ tail) &* 0xC4CE_B9FE_1A85_EC53
        hash ^= hash >> 32
        return hash == 0 ? 1 : hash
    }

    @inline(never)
    private func learn(_ raw: UnsafeBufferPointer<UInt8>, hash: UInt64) -> UnsafeBufferPointer<UInt8> {
        let key = String(decoding: raw, as: UTF8.self)
        var converted: String
        switch rule {
        case .snakeCase:
            converted = StreamingJSONDecoder.KeyDecodingStrategy.camelCase(fromSnakeCase: key)
        case .custom(let convert):
            let path = origin.map { $0.decoder.path($0.parent, $0.key.codingKey) } ?? []
            converted = convert(path + [JSONCodingKey(stringValue: key)]).stringValue
        }
        let entry = converted.withUTF8 { Entry(hash: hash, raw: store(raw), converted: store($0)) }
        insert(entry)
        return entry.converted
    }

    private func insert(_ entry: Entry) {
        if (used &+ 1) &* 2 > capacity { grow() }
        let mask = capacity &- 1
        var slot = Int(truncatingIfNeeded: entry.hash) & mask
        while entries[slot].hash != 0 { slot = (slot &+ 1) & mask }
        entries[slot] = entry
        used &+= 1
    }

    private func grow() {
        let old = entries
        let oldCapacity = capacity
        capacity &*= 2
        entries = .allocate(capacity: capacity)
        entries.initialize(repeating: Entry(), count: capacity)
        used = 0
        for slot in 0..<oldCapacity where old[slot].hash != 0 { insert(old[slot]) }
        old.deinitialize(count: oldCapacity)
        old.deallocate()
    }

    /// At the end of a decode or streamed element (the outermost, ``DecodingSession/decode(_:)``):
    /// empties the table when it holds more than ``maximumKeys`` keys or ``maximumBytes`` of
    /// arena.
    @inline(__always)
    func endDecode() {
        if used > Self.maximumKeys || storedBytes > Self.maximumBytes { forgetAll() }
    }

    /// Empties the table and frees the arena's chunks. (Between decodes: no converted key is
    /// held past the lookup that asked for it.)
    private func forgetAll() {
        (entries + 0).update(repeating: Entry(), count: capacity)
        used = 0
        for chunk in chunks { chunk.deallocate() }
        chunks.removeAll(keepingCapacity: true)
        chunkNext = nil
        chunkFree = 0
        storedBytes = 0
    }

    /// A copy of `bytes` in the arena.
    private func store(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return UnsafeBufferPointer(start: nil, count: 0) }
        if bytes.count > chunkFree || chunkNext == nil {
            let size = max(Self.chunkSize, bytes.count)
            let chunk = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
            chunks.append(chunk)
            storedBytes &+= size
            chunkNext = chunk
            chunkFree = size
        }
        guard let target = chunkNext else { return UnsafeBufferPointer(start: nil, count: 0) }
        target.copyMemory(from: source, byteCount: bytes.count)
        chunkNext = target + bytes.count
        chunkFree &-= bytes.count
        return UnsafeBufferPointer(start: target.assumingMemoryBound(to: UInt8.self), count: bytes.count)
    }
}

/// The members' keys as a session's key strategy converts them, for the member lookup: the
/// conversions of ``KeyTranslation``. Not nested in the generic `KeyedContainer`, so that
/// using it costs no generic metadata lookup.
///
/// It is one unmanaged reference, so that copying or using it costs no retain: a lookup copies its keys
/// a few times, and when they also held the container's place (for a custom strategy's
/// path), the copies and their retains measured 7 % of a snake-case decode of twitter.json.
/// A custom strategy's lookup sets that place on the translation for its length instead
/// (``with(_:origin:_:)``).
struct TranslatedKeys: MemberKeys {
    static var converts: Bool { true }
    /// Held by the session for the lookup's length.
    let translation: Unmanaged<KeyTranslation>

    @inline(__always)
    func key(_ raw: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        translation._withUnsafeGuaranteedRef { $0.converted(raw) }
    }

    /// Runs `body` with the keys of `translation`, looking in the object of the container at
    /// `origin` (made only for a custom strategy, which is shown the coding path: snake case
    /// pays nothing for it).
    @inline(__always)
    static func with<T>(
        _ translation: KeyTranslation, origin: @autoclosure () -> KeyTranslation.Origin,
        _ body: (TranslatedKeys) throws -> T
    ) rethrows -> T {
        let keys = TranslatedKeys(translation: Unmanaged.passUnretained(translation))
        guard translation.needsPath else { return try body(keys) }
        let outer = translation.origin
        translation.origin = origin()
        defer { translation.origin = outer }
        return try body(keys)
    }
}
