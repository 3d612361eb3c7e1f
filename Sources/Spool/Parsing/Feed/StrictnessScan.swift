#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What Spool rejects and yajl lets through, looked for in the raw input bytes rather than in
/// tokens, for ``QuickValidator``: form feeds and vertical tabs, `\u` escapes that are not valid
/// UTF-16 (the rules of ``StringChecks/checkEscape(_:_:_:)``) and, with UTF-8 validation,
/// sequences that are not strict UTF-8 (``StringChecks/checkUTF8Sequence(_:_:_:)``).
///
/// It relies on yajl accepting the same input: in valid JSON, backslashes and bytes above 0x7F
/// occur only inside strings, so checking every one of them checks every string. If yajl
/// rejects the input, whatever the scan concluded does not matter.
struct StrictnessScan {
    /// The most bytes a scan leaves to the next one: an escape that may be the first half of a
    /// surrogate pair needs 12 bytes in view.
    static let maxCarry = 12

    let validatesUTF8: Bool

    /// Scans `count` bytes at `bytes`. Returns nil at the first byte Spool rejects; otherwise
    /// the offset from which the bytes must be scanned again with the input that follows (an
    /// escape or a UTF-8 sequence not wholly in view; `count` when there is none). At the end
    /// of the input (`atEnd`), everything is scanned.
    func scan(_ bytes: UnsafePointer<UInt8>, count: Int, atEnd: Bool) -> Int? {
        if StrictnessScan.firstBadWhitespace(bytes, count: count) != nil { return nil }
        var resume = count
        // Escapes, from one backslash to the next.
        var i = 0
        while i < count, let hit = memchr(bytes + i, 0x5C, count - i) {
            let at = UnsafePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - bytes
            if at + StrictnessScan.maxCarry > count && !atEnd {
                resume = at
                break
            }
            i = at
            if StringChecks.checkEscape(bytes, count, &i) != nil { return nil }
        }
        guard validatesUTF8 else { return resume }
        // UTF-8, from one byte above 0x7F to the next.
        i = 0
        while true {
            while i + 16 <= count {
                let raw = UnsafeRawPointer(bytes + i)
                let word = raw.loadUnaligned(as: UInt64.self) | raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                if word & 0x8080_8080_8080_8080 != 0 { break }
                i &+= 16
            }
            while i < count && bytes[i] < 0x80 { i &+= 1 }
            guard i < count else { break }
            if i + StringChecks.sequenceLength(lead: bytes[i]) > count && !atEnd {
                resume = min(resume, i)
                break
            }
            if StringChecks.checkUTF8Sequence(bytes, count, &i) != nil { return nil }
        }
        return resume
    }

    /// Whether all `count` bytes at `bytes` are JSON whitespace (space, tab, line feed, return).
    static func isWhitespace(_ bytes: UnsafePointer<UInt8>, count: Int) -> Bool {
        var i = 0
        while i < count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i &+= 1
            default: return false
            }
        }
        return true
    }

    /// The index of the first form feed or vertical tab among `count` bytes: whitespace to yajl,
    /// an error to Spool (outside comments).
    static func firstBadWhitespace(_ bytes: UnsafePointer<UInt8>, count: Int) -> Int? {
        var limit = count
        var found: Int?
        for byte: Int32 in [0x0C, 0x0B] where limit > 0 {
            if let hit = memchr(bytes, byte, limit) {
                limit = UnsafeRawPointer(hit) - UnsafeRawPointer(bytes)
                found = limit
            }
        }
        return found
    }
}
