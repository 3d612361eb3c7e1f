#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Extractor {
    /// The index of the value of member `key` in the object at `object`, or nil. With
    /// duplicate keys, the first member counts (as in `JSONDecoder` and for streamed paths),
    /// whatever the order of lookups. The scan ends at the member it finds, so it reads no
    /// further into the object than that.
    ///
    /// Models usually ask for fields in document order, so a lookup starts after the member the
    /// previous lookup in the same object found. A member found that way is the first with its
    /// key unless an earlier member had the same key: the context keeps a filter of the keys
    /// passed in the object (``DecodingContext/KeysPassed``) to rule that out without looking
    /// back, and looks back only when the filter cannot. A key not found by the end of the
    /// object is looked for among the members before the start the same way, so that lookups
    /// in any order stay linear in a wide object.
    @inline(__always)
    func member(_ key: String, ofObjectAt object: Int) throws -> Int? {
        var key = key
        return try key.withUTF8 { try member(utf8: $0, ofObjectAt: object) }
    }

    /// ``member(_:ofObjectAt:)`` for a key given as its UTF-8 bytes.
    @inline(__always)
    func member(utf8 wanted: UnsafeBufferPointer<UInt8>, ofObjectAt object: Int) throws -> Int? {
        try member(utf8: wanted, ofObjectAt: object, keys: KeysAsWritten())
    }

    /// ``member(_:ofObjectAt:)`` for a key given as its UTF-8 bytes, compared with each
    /// member's key as `keys` sees it (converted by a key decoding strategy).
    func member<Keys: MemberKeys>(utf8 wanted: UnsafeBufferPointer<UInt8>, ofObjectAt object: Int, keys: Keys) throws -> Int? {
        let context = self.context
        // Where the previous lookup in this object ended, when the keys it passed are still
        // the ones noted (a lookup in another object, even one that found nothing, notes that
        // object's keys instead; keys seen another way are noted apart): else from the first
        // member.
        let continuing = context.hintObject == object && context.hintValue > object
            && context.keysPassed.object == object && context.keysPassed.converted == Keys.converts
        if !continuing { context.keysPassed.reset(for: object, converted: Keys.converts) }
        if let span = tape.closedSpan(ofContainerAt: object) {
            switch try member(wanted, inClosedObject: object, span: span, continuing: continuing, keys: keys) {
            case .found(let value): return value
            case .missing: return nil
            case .unsure: break
            }
        }
        return try memberWhileReading(wanted, ofObjectAt: object, continuing: continuing, keys: keys)
    }

    /// The lookup in an object that is whole on the tape and held in one piece (most objects,
    /// since the parser runs ahead): its tokens are read straight from memory, with no check
    /// for tokens not parsed yet or released. `.unsure` when a token does not fit the
    /// object's shape, for the general lookup to answer.
    @inline(__always)
    private func member<Keys: MemberKeys>(
        _ wanted: UnsafeBufferPointer<UInt8>, inClosedObject object: Int, span: TokenTape.Span, continuing: Bool, keys: Keys
    ) throws -> SpanLookup {
        let context = self.context
        let tape = self.tape
        let tokens = span.tokens  // tokens[0] is the object's start token
        let end = span.end &- object  // the object's end token, counted from its start
        // Where the member after `key` starts, or nil for a broken shape.
        @inline(__always) func next(after key: Int) -> Int? {
            let value = tokens[key &+ 1]
            guard value.isContainerStart else { return key &+ 2 }
            let last = value.payload &- object
            return last > key &+ 1 && last < end ? last &+ 1 : nil
        }
        var start = 1
        if continuing {
            let hint = context.hintValue &- object
            guard hint < end else { return .unsure }
            let token = tokens[hint]
            if token.isContainerStart {
                let last = token.payload &- object
                guard last > hint && last < end else { return .unsure }
                start = last &+ 1
            } else {
                start = hint &+ 1
            }
        }
        let mayBeEarlier = start > 1 && context.keysPassed.mayContain(wanted)
        var child = start
        while child < end {
            let bytes = keys.key(tape.bytes(of: tokens[child]))
            context.keysPassed.insert(bytes, at: object &+ child)
            if Self.matches(bytes, wanted) {
                let value = object &+ child &+ 1
                var found = value
                // A member found after the hint, when an earlier one may have the same key:
                // the earlier one counts.
                if mayBeEarlier, let earlier = try firstMember(wanted, ofObjectAt: object, before: object &+ start, keys: keys) {
                    found = earlier
                }
                context.hintObject = object
                context.hintValue = max(found, value)
                return .found(found)
            }
            guard let following = next(after: child) else { return .unsure }
            child = following
        }
        // Wrapped around: the first member with the key among those before the hint, which
        // were all passed (``DecodingContext/KeysPassed``). The hint stays: the next lookup
        // goes on from there, so no member is scanned twice (lookups in reverse order stay
        // linear).
        guard start > 1, let value = try firstMember(wanted, ofObjectAt: object, before: object &+ start, keys: keys) else {
            return .missing
        }
        return .found(value)
    }

    /// The lookup in an object still arriving, or not held in one piece: every step checks
    /// that its token is on the tape, reading on as the document arrives.
    private func memberWhileReading<Keys: MemberKeys>(
        _ wanted: UnsafeBufferPointer<UInt8>, ofObjectAt object: Int, continuing: Bool, keys: Keys
    ) throws -> Int? {
        let context = self.context
        let tape = context.tape
        var start = object + 1
        if continuing { start = try context.lastIndex(ofValueAt: context.hintValue) + 1 }
        let mayBeEarlier = start > object + 1 && context.keysPassed.mayContain(wanted)
        var child = start
        while true {
            try context.ensure(child)
            let keyToken = tape[child]
            if keyToken.kind == .objectEnd {
                // Wrapped around: the first member with the key among those before the hint,
                // which were all passed.
                guard start > object + 1, let value = try firstMember(wanted, ofObjectAt: object, before: start, keys: keys) else {
                    return nil
                }
                return value
            }
            let value = child + 1
            let bytes = keys.key(tape.bytes(of: keyToken))
            context.keysPassed.insert(bytes, at: child)
            if Self.matches(bytes, wanted) {
                // A member found after the hint, when an earlier one may have the same key:
                // the earlier one counts.
                var found = value
                if mayBeEarlier, let earlier = try firstMember(wanted, ofObjectAt: object, before: start, keys: keys) {
                    found = earlier
                }
                // The value is not read to its end here, so a large array can be decoded
                // while the rest of it is still being parsed.
                try context.ensure(found)
                context.hintObject = object
                context.hintValue = max(found, value)
                return found
            }
            child = try context.lastIndex(ofValueAt: value) + 1
        }
    }

    /// The value of the first member with key `wanted` among those the lookups in the object
    /// at `object` have passed before the tape index `limit`, or nil.
    @inline(never)
    private func firstMember<Keys: MemberKeys>(
        _ wanted: UnsafeBufferPointer<UInt8>, ofObjectAt object: Int, before limit: Int, keys: Keys
    ) throws -> Int? {
        guard let key = try context.keysPassed.first(wanted, ofObjectAt: object, before: limit, in: context, keys: keys) else {
            return nil
        }
        return key + 1
    }

    /// Whether a member's key is the key wanted: the same bytes or, as `JSONDecoder` compares
    /// keys as `String`s, the same characters in another Unicode form (`"cafe\u0301"` is
    /// `"café"`). Only keys with a non-ASCII byte can differ that way.
    ///
    /// An ASCII key is its own normal form, so a key the same as an ASCII `wanted` in another
    /// form holds a non-ASCII character standing for an ASCII one (U+212A KELVIN SIGN for `K`),
    /// which takes more bytes: a shorter key cannot match.
    @inline(__always)
    static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
        if equal(bytes, wanted) { return true }
        if bytes.count < wanted.count && StringChecks.isASCII(wanted) { return false }
        if StringChecks.isASCII(bytes) && StringChecks.isASCII(wanted) { return false }
        return canonicallyEqual(bytes, wanted)
    }

    @inline(never)
    static func canonicallyEqual(_ bytes: UnsafeBufferPointer<UInt8>, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
        String(decoding: bytes, as: UTF8.self) == String(decoding: wanted, as: UTF8.self)
    }

    /// Whether two keys are the same bytes. Keys are short: up to 16 bytes they are compared
    /// as two overlapping words (or half-words) read from each end, which reads nothing
    /// outside either key; longer ones through `memcmp`.
    @inline(__always)
    static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = wanted.count
        guard bytes.count == count else { return false }
        guard count > 0, let have = bytes.baseAddress, let want = wanted.baseAddress else { return true }
        let a = UnsafeRawPointer(have)
        let b = UnsafeRawPointer(want)
        switch count {
        case 8...16:
            return a.loadUnaligned(as: UInt64.self) == b.loadUnaligned(as: UInt64.self)
                && a.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
                    == b.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        case 4..<8:
            return a.loadUnaligned(as: UInt32.self) == b.loadUnaligned(as: UInt32.self)
                && a.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
                    == b.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
        case 1..<4:
            return have[0] == want[0] && have[count &- 1] == want[count &- 1] && have[count / 2] == want[count / 2]
        default:
            return memcmp(have, want, count) == 0
        }
    }
}

/// How a member lookup sees the keys of an object: as written, or converted by a key
/// decoding strategy.
protocol MemberKeys {
    /// Whether keys are converted (lookups that see keys differently keep apart notes).
    static var converts: Bool { get }
    /// The key to compare, for a key token's text `raw`.
    func key(_ raw: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>
}

/// The keys as they are written in the JSON.
struct KeysAsWritten: MemberKeys {
    static var converts: Bool { false }
    @inline(__always)
    func key(_ raw: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> { raw }
}

/// What a lookup in an object held in one piece found.
private enum SpanLookup {
    case found(Int)
    case missing
    /// The tokens do not have an object's shape: the general lookup decides.
    case unsure
}
