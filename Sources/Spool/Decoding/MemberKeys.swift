#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How member lookups compare keys: byte for byte, and as `String`s (canonical equivalence)
/// where a non-ASCII byte makes that differ. Shared by the operators, `Decodable` models and
/// key translation.
enum KeyComparison {
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
