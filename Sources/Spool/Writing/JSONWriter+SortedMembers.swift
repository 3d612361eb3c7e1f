#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// `.sortedKeys` (and `Format.sortsKeys`) without a tree: an object's members are written as
// they come, each one's byte range recorded (JSONWriter+Members.swift); when the object ends,
// the ranges are sorted by key (their unescaped UTF-8 bytes: code point order, as `JSONEncoder`
// sorts on Linux with Swift 6.3 and `jq -S` sorts) and the object's bytes rewritten in that
// order. Nested sorted objects were already reordered when they ended, so each object sorts
// only its own members. Nothing is flushed while a sorted object is open. A key an encoder
// writes twice was dealt with as it came, so each key is there once; keys the writer is given
// twice (`copy(from:)` of an object with a duplicate key) both stay, in the order they came
// (the sort is stable).

extension JSONWriter {
    /// Begins an object whose members are sorted by key when it ends.
    func beginSortedObject() throws(WriteError) {
        try openContainer(.object, sorted: true)
    }

    /// Reorders the members of the sorted object ending now (all in the buffer).
    func sortMembers() throws(WriteError) {
        let base = current.memberBase
        let memberCount = members.count - base
        guard memberCount >= 2 else { return }
        members[members.count - 1].end = bytesFlushed + count

        let order = sortedOrder(base: base, memberCount: memberCount)
        if order.indices.allSatisfy({ order[$0] == $0 }) { return }

        // Copy the members out, then write them back in order.
        let regionStart = members[base].start - bytesFlushed
        let regionLength = count - regionStart
        guard let scratch = malloc(regionLength)?.assumingMemoryBound(to: UInt8.self) else {
            let error = WriteError(code: .output, errno: ENOMEM, message: "cannot allocate \(regionLength) bytes to sort an object's keys")
            blocked = error
            throw error
        }
        defer { free(scratch) }
        scratch.update(from: buffer + regionStart, count: regionLength)
        count = regionStart
        let indent = indentation(atLevel: baseLevel + outer.count)
        for (position, index) in order.enumerated() {
            let member = members[base + index]
            if position > 0 {
                append(UInt8(ascii: ","))
                if pretty {
                    append(0x0A)
                    appendSpaces(indent)
                }
            }
            let length = member.end - member.start
            (buffer + count).update(from: scratch + (member.start - bytesFlushed - regionStart), count: length)
            count += length
        }
    }

    /// Member indices (relative to `base`) in the order of their unescaped keys.
    private func sortedOrder(base: Int, memberCount: Int) -> [Int] {
        // Keys with escapes are compared unescaped: those bytes go to `unescaped`, at `ranges`.
        var unescaped: [UInt8] = []
        var ranges: [Range<Int>?] = []
        for index in 0..<memberCount {
            let member = members[base + index]
            guard member.keyEscaped else {
                if !ranges.isEmpty { ranges.append(nil) }
                continue
            }
            if ranges.isEmpty { ranges = Array(repeating: nil, count: index) }
            let start = unescaped.count
            Self.unescape(UnsafeBufferPointer(start: buffer + (member.keyOffset - bytesFlushed), count: member.keyLength), into: &unescaped)
            ranges.append(start..<unescaped.count)
        }
        sortScratch.removeAll(keepingCapacity: true)
        sortScratch.append(contentsOf: 0..<memberCount)
        let buffer = self.buffer
        let flushed = bytesFlushed
        let members = self.members
        return unescaped.withUnsafeBufferPointer { raw -> [Int] in
            func key(_ index: Int) -> UnsafeBufferPointer<UInt8> {
                if !ranges.isEmpty, let range = ranges[index], let start = raw.baseAddress {
                    return UnsafeBufferPointer(start: start + range.lowerBound, count: range.count)
                }
                let member = members[base + index]
                return UnsafeBufferPointer(start: buffer + (member.keyOffset - flushed), count: member.keyLength)
            }
            func compare(_ a: Int, _ b: Int) -> Int32 {
                let left = key(a)
                let right = key(b)
                let common = min(left.count, right.count)
                if common > 0, let l = left.baseAddress, let r = right.baseAddress {
                    let result = memcmp(l, r, common)
                    if result != 0 { return result }
                }
                return left.count == right.count ? 0 : (left.count < right.count ? -1 : 1)
            }
            var sorted = sortScratch
            sorted.sort { a, b in
                let result = compare(a, b)
                return result != 0 ? result < 0 : a < b
            }
            return sorted
        }
    }

    /// Appends the bytes a written (escaped) string stands for: the reverse of `writeQuoted`.
    static func unescape(_ written: UnsafeBufferPointer<UInt8>, into bytes: inout [UInt8]) {
        var index = 0
        while index < written.count {
            let byte = written[index]
            index += 1
            guard byte == UInt8(ascii: "\\"), index < written.count else {
                bytes.append(byte)
                continue
            }
            let escape = written[index]
            index += 1
            switch escape {
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "u"):
                // Only control characters (and, in jq's layout, U+007F) are written as `\u00xx`.
                var value: UInt32 = 0
                var digits = 0
                while digits < 4 && index < written.count, let digit = hexDigit(written[index]) {
                    value = value << 4 | digit
                    index += 1
                    digits += 1
                }
                if let scalar = Unicode.Scalar(value) { bytes.append(contentsOf: String(Character(scalar)).utf8) }
            default: bytes.append(escape)  // `\"`, `\\`, `\/`
            }
        }
    }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }
}
