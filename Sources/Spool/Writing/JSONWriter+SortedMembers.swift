#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// `.sortedKeys` without a tree: an object's members are written as they come, each one's byte
// range noted; when the object ends, the ranges are sorted by key (their UTF-8 bytes, as
// `JSONEncoder` sorts) and the object's bytes rewritten in that order. Nested sorted objects
// were already reordered when they ended, so each object sorts only its own members. Nothing is
// flushed while a sorted object is open.

/// One member of an open sorted object.
struct SortedMember {
    /// Where the member (its key's opening quote) starts in the buffer.
    var start: Int
    /// Where it ends (before the separator of the next one); set when the next member begins or
    /// the object ends.
    var end: Int
    /// Where the key's unescaped bytes are: in the buffer after `start`'s quote, or, for a key
    /// whose written form has escapes, in `rawKeys`.
    var keyOffset: Int
    var keyLength: Int
    var keyIsInRawKeys: Bool
}

extension JSONWriter {
    /// Begins an object whose members are sorted by key when it ends.
    func beginSortedObject() throws(WriteError) {
        try openContainer(.object, sorted: true)
    }

    /// Notes the key just written (its quote at `start`) as a new member of the sorted object.
    @inline(__always)
    func recordSortedKey(start: Int, rawLength: Int, storeRaw: () -> Void) {
        let writtenLength = count &- start &- 2
        if writtenLength == rawLength {
            members.append(SortedMember(start: start, end: -1, keyOffset: start &+ 1, keyLength: rawLength, keyIsInRawKeys: false))
        } else {
            let offset = rawKeys.count
            storeRaw()
            members.append(SortedMember(start: start, end: -1, keyOffset: offset, keyLength: rawLength, keyIsInRawKeys: true))
        }
    }

    /// The previous member ends here, where the next one's separator begins.
    @inline(__always)
    func endSortedMember() {
        let last = members.count &- 1
        if last >= current.sortedBase { members[last].end = count }
    }

    /// Reorders the members of the sorted object ending now, keeping the last of equal keys
    /// (as a dictionary would), and forgets them.
    func sortMembers() throws(WriteError) {
        let base = current.sortedBase
        defer {
            members.removeSubrange(base...)
            rawKeys.removeSubrange(current.rawKeyBase...)
        }
        let memberCount = members.count - base
        guard memberCount >= 2 else { return }
        members[members.count - 1].end = count

        let order = sortedOrder(base: base, memberCount: memberCount)
        if order.count == memberCount && order.indices.allSatisfy({ order[$0] == $0 }) { return }

        // Copy the members out, then write them back in order.
        let regionStart = members[base].start
        let regionLength = count - regionStart
        guard let scratch = malloc(regionLength)?.assumingMemoryBound(to: UInt8.self) else {
            let error = WriteError(code: .output, errno: ENOMEM, message: "cannot allocate \(regionLength) bytes to sort an object's keys")
            blocked = error
            throw error
        }
        defer { free(scratch) }
        scratch.update(from: buffer + regionStart, count: regionLength)
        count = regionStart
        let indent = (baseLevel + outer.count) * indentWidth
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
            (buffer + count).update(from: scratch + (member.start - regionStart), count: length)
            count += length
        }
    }

    /// Member indices (relative to `base`) in key order, the last of equal keys only.
    private func sortedOrder(base: Int, memberCount: Int) -> [Int] {
        sortScratch.removeAll(keepingCapacity: true)
        sortScratch.append(contentsOf: 0..<memberCount)
        let buffer = self.buffer
        let members = self.members
        let order = rawKeys.withUnsafeBufferPointer { raw -> [Int] in
            func key(_ index: Int) -> UnsafeBufferPointer<UInt8> {
                let member = members[base + index]
                let start = member.keyIsInRawKeys ? raw.baseAddress.map { UnsafePointer($0) + member.keyOffset } : UnsafePointer(buffer + member.keyOffset)
                return UnsafeBufferPointer(start: start, count: member.keyLength)
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
            // Stable: equal keys keep their order, so the last one written comes last.
            var sorted = sortScratch
            sorted.sort { a, b in
                let result = compare(a, b)
                return result != 0 ? result < 0 : a < b
            }
            var kept: [Int] = []
            kept.reserveCapacity(sorted.count)
            for (position, index) in sorted.enumerated() {
                if position + 1 < sorted.count && compare(index, sorted[position + 1]) == 0 { continue }
                kept.append(index)
            }
            return kept
        }
        return order
    }
}
