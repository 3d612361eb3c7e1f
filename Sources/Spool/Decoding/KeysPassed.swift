#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension UInt64 {
    /// The word rotated by 29 bits (so that two loads of the same bytes do not cancel out).
    fileprivate var rotated: UInt64 { self << 29 | self >> 35 }
}

extension DecodingContext {
    /// The keys the lookups in one object have passed: its members from the first up to the
    /// last one noted, in document order.
    ///
    /// A 512-bit filter of a cheap hash of each key (its length and its first and last eight
    /// bytes; two bits a key) answers "maybe passed" in constant time, and noting a key costs a
    /// few instructions, with no storage. (With one bit in 256, a 40-key object such as a
    /// Twitter user answered "maybe" to about one key in six it had not passed, each answer a
    /// scan of the members passed: 750 scans, 2.1M instructions, per decode of twitter.json.)
    /// An exact answer walks the members again on the tape: a
    /// scan, and, in an object of more than 32 keys that has needed a few scans already, an
    /// index from each key's hash to its first member (``DecodingContext/KeyIndex``, one per
    /// context, for the last object that needed one), built once as the lookups go, so that
    /// wide objects stay linear. (Building the index costs a hash and an insertion per key: a
    /// wide object with one optional key missing is cheaper scanned once.)
    struct KeysPassed {
        /// The object whose keys these are (its start token), or -1.
        private(set) var object = -1
        /// Whether the keys noted are converted ones (``MemberKeys/converts``).
        private(set) var converted = false
        private var filter: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        /// The last key token noted, or -1.
        private var last = -1
        /// How many keys were noted.
        private var count = 0
        /// Exact answers asked in this object, before an index is built.
        private var scans = 0
        /// Whether a key noted has a non-ASCII byte: then the same key may have been passed in
        /// another Unicode form (``KeyComparison/matches(_:_:)``), which the filter and the index,
        /// made from bytes, cannot tell, and only a scan answers.
        private var hasNonASCII = false
        private static let wide = 32
        private static let scansBeforeIndex = 2

        /// Starts over, for the object at `object`.
        mutating func reset(for object: Int, converted: Bool = false) {
            self.object = object
            self.converted = converted
            filter = (0, 0, 0, 0, 0, 0, 0, 0)
            last = -1
            count = 0
            scans = 0
            hasNonASCII = false
        }

        /// The filter bits of `key`: two of 0 to 511, from its length and its first and last
        /// eight bytes (keys often share a prefix, `profile_link_color` and
        /// `profile_text_color`).
        @inline(__always)
        static func filterBits(_ key: UnsafeBufferPointer<UInt8>) -> (Int, Int) {
            guard let base = key.baseAddress else { return (0, 0) }
            let count = key.count
            let bytes = UnsafeRawPointer(base)
            var mix = UInt64(truncatingIfNeeded: count)
            if count >= 8 {
                mix ^= bytes.loadUnaligned(as: UInt64.self) ^ bytes.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self).rotated
            } else if count >= 4 {
                mix ^= UInt64(bytes.loadUnaligned(as: UInt32.self)) << 8 ^ UInt64(bytes.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)) << 32
            } else if count > 0 {
                mix ^= UInt64(base[0]) << 8 | UInt64(base[count &- 1]) << 16
            }
            let hash = mix &* 0x9E37_79B9_7F4A_7C15
            return (Int(truncatingIfNeeded: hash >> 55), Int(truncatingIfNeeded: hash >> 46) & 511)
        }

        /// What noting members changes, saved by ``mark`` and put back by ``restore(_:)``.
        struct Mark {
            fileprivate let filter: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
            fileprivate let last: Int
            fileprivate let count: Int
            fileprivate let hasNonASCII: Bool
        }

        /// The keys noted so far, for a lookup that may find nothing: the members it passes
        /// after the hint are then forgotten again (``restore(_:)``), so that the lookups
        /// after it, which find those members in order, still get exact answers from the
        /// filter instead of a scan of the whole object. (A Twitter status without
        /// `possibly_sensitive`, or a user without `profile_banner_url`, made every lookup
        /// after the missing key scan all the members before it.)
        @inline(__always)
        var mark: Mark { Mark(filter: filter, last: last, count: count, hasNonASCII: hasNonASCII) }

        /// Forgets the members noted since `mark` was taken.
        @inline(__always)
        mutating func restore(_ mark: Mark) {
            filter = mark.filter
            last = mark.last
            count = mark.count
            hasNonASCII = mark.hasNonASCII
        }

        /// Notes the member whose key token, with text `key`, is at `index` (once: a member
        /// up to the last one noted is already in).
        @inline(__always)
        mutating func insert(_ key: UnsafeBufferPointer<UInt8>, at index: Int) {
            if index <= last { return }
            if !hasNonASCII && !StringChecks.isASCII(key) { hasNonASCII = true }
            _ = markFilter(Self.filterBits(key), setting: true)
            last = index
            count &+= 1
        }

        /// Notes the member whose key token, with the text of `key`, is at `index` (once: a
        /// member up to the last one noted is already in), with the bits worked out for `key`.
        @inline(__always)
        mutating func insert(_ key: WantedKey, at index: Int) {
            if index <= last { return }
            if !key.isASCII { hasNonASCII = true }
            _ = markFilter(key.filterBits, setting: true)
            last = index
            count &+= 1
        }

        /// Notes the member whose key token, with the text of `key`, is at `index`, after the
        /// members noted so far, and tells whether one of those may have the same key (true
        /// also when that member was noted already): ``mayContain(_:)`` and
        /// ``insert(_:at:)`` at once, for a lookup that found its key at the first member it
        /// read.
        @inline(__always)
        mutating func noteFound(_ key: WantedKey, at index: Int) -> Bool {
            if index <= last { return true }
            let decides = key.isASCII && !hasNonASCII
            let maybe = markFilter(key.filterBits, setting: true)
            if !key.isASCII { hasNonASCII = true }
            last = index
            count &+= 1
            return !decides || maybe
        }

        /// False when no member passed has key `key`; true when one may have.
        ///
        /// (Mutating only to read the filter in place: `withUnsafeBytes(of: filter)` copies its
        /// 64 bytes to the stack, which also made the lookup's frame take a stack protector.)
        @inline(__always)
        mutating func mayContain(_ key: WantedKey) -> Bool {
            if !bytesDecide(key) { return true }
            return markFilter(key.filterBits, setting: false)
        }

        /// Whether both of a key's filter bits were set, reading the filter in place; with
        /// `setting`, sets them. (The one place the filter is read or written.)
        @inline(__always)
        private mutating func markFilter(_ bits: (Int, Int), setting: Bool) -> Bool {
            let (first, second) = bits
            let firstBit: UInt64 = 1 << UInt64(first & 63)
            let secondBit: UInt64 = 1 << UInt64(second & 63)
            return withUnsafeMutableBytes(of: &filter) { words in
                guard let words = words.baseAddress?.assumingMemoryBound(to: UInt64.self) else { return true }
                let wasSet = words[first >> 6] & firstBit != 0 && words[second >> 6] & secondBit != 0
                if setting {
                    words[first >> 6] |= firstBit
                    words[second >> 6] |= secondBit
                }
                return wasSet
            }
        }

        /// Whether `key` and the keys noted are all ASCII, so that keys equal as strings are
        /// equal as bytes and the filter and the index can answer.
        @inline(__always)
        private func bytesDecide(_ key: WantedKey) -> Bool {
            !hasNonASCII && key.isASCII
        }

        /// The key token of the first member with key `key` of the object at `object`, among
        /// the members passed before the tape index `limit` (a member's key token), if any.
        ///
        /// It reads only members before `limit`, which are whole on the tape: never the value
        /// a lookup has just found, which may still be arriving (a large array decoded while
        /// it is parsed).
        mutating func first<Keys: MemberKeys>(
            _ wanted: WantedKey, ofObjectAt object: Int, before limit: Int, in context: DecodingContext, keys: Keys
        ) throws -> Int? {
            guard mayContain(wanted) else { return nil }
            let key = wanted.utf8
            let end = min(limit, last &+ 1)
            let indexed = context.keyIndex.object == object && context.keyIndex.converted == converted
            guard bytesDecide(wanted), count > Self.wide, indexed || scans >= Self.scansBeforeIndex else {
                scans &+= 1
                return try Self.scan(for: key, from: object &+ 1, before: end, in: context, keys: keys)
            }
            if !indexed { context.keyIndex.reset(for: object, converted: converted) }
            while context.keyIndex.end < end {
                let member = context.keyIndex.end
                context.keyIndex.note(Self.hash(keys.key(context.tape.bytes(of: context.tape[member]))), at: member)
                context.keyIndex.end = try context.lastIndex(ofValueAt: member &+ 1) &+ 1
            }
            guard let candidate = context.keyIndex.first(withHash: Self.hash(key)) else { return nil }
            if Self.equal(context.tape, candidate, key, keys: keys) { return candidate < end ? candidate : nil }
            // A hash collision with another key: look properly (rare).
            return try Self.scan(for: key, from: object &+ 1, before: end, in: context, keys: keys)
        }

        /// The first key token with text `key` (as `keys` sees it) among the members from the
        /// key token at `start` up to the tape index `end`.
        private static func scan<Keys: MemberKeys>(
            for key: UnsafeBufferPointer<UInt8>, from start: Int, before end: Int, in context: DecodingContext, keys: Keys
        ) throws -> Int? {
            var child = start
            while child < end {
                if equal(context.tape, child, key, keys: keys) { return child }
                child = try context.lastIndex(ofValueAt: child &+ 1) &+ 1
            }
            return nil
        }

        private static func equal<Keys: MemberKeys>(
            _ tape: TokenTape, _ index: Int, _ key: UnsafeBufferPointer<UInt8>, keys: Keys
        ) -> Bool {
            KeyComparison.matches(keys.key(tape.bytes(of: tape[index])), key)
        }

        private static func hash(_ key: UnsafeBufferPointer<UInt8>) -> Int {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
            for byte in key {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
            return Int(truncatingIfNeeded: hash)
        }
    }
}
