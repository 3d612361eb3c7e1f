#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// What a key written again does to the bytes (see JSONWriter+Members.swift for the records).
//
// Members and their separators, compact, pretty and in jq's layout (`I` the indentation):
//
//     {  m0  ,  m1  ,  m2  }            {\n I m0 ,\n I m1 ,\n I m2 \n I' }
//     {\n I m0 ,\n I m1 \n I' }          and, empty, {}
//
// Taking out member i that is not the last takes its bytes and the separator after it (from
// its start to the next member's start): what stays before it is the right separator for the
// member that now follows. The member taken out is never the last one: the member written
// again comes after it.

extension JSONWriter {
    /// The key just written (record `earlier` has it too; its member's separator began at
    /// `separatorStart`, an offset in the output) is handled as `value` asks.
    @inline(never)
    func resolveRepeatedKey(earlier: Int, separatorStart: Int, then value: MemberValue) throws(WriteError) -> KeyConflict? {
        guard members[earlier].start >= bytesFlushed else {
            guard separatorStart >= bytesFlushed else {
                // The separator before the key went out with the earlier member: the key can be
                // taken back, the separator not.
                blocked = WriteError(
                    code: .closed,
                    message: "the output ends after a separator: a key was written again after its earlier member "
                        + "was flushed; nothing more can be written")
                return .flushed
            }
            takeBackKey(separatorStart: separatorStart)
            return .flushed
        }
        switch value {
        case .value:
            current.replacedMember = earlier
            flushHolds &+= 1
            try writeColon()
            return nil
        case .object(let sorted):
            return try continueMember(earlier, separatorStart: separatorStart, as: .object, sorted: sorted)
        case .array:
            return try continueMember(earlier, separatorStart: separatorStart, as: .array, sorted: false)
        }
    }

    /// Takes the key just written back out: its member did not begin.
    func takeBackKey(separatorStart: Int) {
        count = separatorStart - bytesFlushed
        members.removeTop()
        current.count &-= 1
    }

    /// Takes out the member that the last one, now complete, replaces.
    func removeReplacedMember() {
        let index = current.replacedMember
        current.replacedMember = -1
        flushHolds &-= 1
        removeMember(at: index)
    }

    /// Takes member record `index` of the object on top, which is not its last member and is
    /// all in the buffer, out of the buffer and of the records.
    func removeMember(at index: Int) {
        let from = members[index].start
        let length = members[index + 1].start - from
        let position = from - bytesFlushed
        memmove(buffer + position, buffer + position + length, count - position - length)
        count -= length
        for later in (index + 1)..<members.count {
            members[later].start -= length
            if members[later].end >= 0 { members[later].end -= length }
            if !members[later].keyFlushed { members[later].keyOffset -= length }
        }
        members.remove(at: index)
        keysInBufferFrom = min(keysInBufferFrom, members.count)
        current.count -= 1
        if current.indexed { rebuildKeyIndex() }
    }

    /// The container of member `earlier`, continued: its bytes, without the closing bracket,
    /// move after the key just written, and it is open again, on top.
    func continueMember(_ earlier: Int, separatorStart: Int, as kind: Frame.Kind, sorted: Bool) throws(WriteError) -> KeyConflict? {
        let record = members[earlier]
        let indent = indentation(atLevel: baseLevel + outer.count)
        // Member `earlier` ends before the next member's separator.
        let end = members[earlier + 1].start - (pretty ? 2 + indent : 1)
        let found = Self.containerKind(closedBy: buffer[end - 1 - bytesFlushed])
        guard found == kind else {
            takeBackKey(separatorStart: separatorStart)
            return .notAContainer(found: found)
        }
        // Its value: after the key (written as the new one is) and the colon, up to the line
        // feed and indentation before the closing bracket.
        let valueStart = record.start + record.keyLength + 2 + colonWidth
        let valueEnd = end - closingLength(endingAt: end - bytesFlushed, indent: indent)
        let length = valueEnd - valueStart
        guard let saved = malloc(max(length, 1))?.assumingMemoryBound(to: UInt8.self) else {
            let error = WriteError(code: .output, errno: ENOMEM, message: "cannot allocate \(length) bytes to continue a container")
            blocked = error
            throw error
        }
        defer { free(saved) }
        saved.update(from: buffer + (valueStart - bytesFlushed), count: length)
        removeMember(at: earlier)
        // Taking the member out made room for its value again: nothing is flushed here.
        try writeColon()
        try beginValue()
        try reserve(length)
        append(UnsafeBufferPointer(start: saved, count: length))
        pushFrame(kind, sorted: sorted, checksKeys: kind == .object)
        rescanContainer(from: bytesFlushed + count - length + 1)
        return nil
    }

    /// The value just written (the last bytes, after `position` and any separator), continued
    /// as an open container of `kind`, when it is one; for an encoder's `container(keyedBy:)`
    /// or `unkeyedContainer()` after a single value.
    /// - Returns: nil, or why it cannot be (nothing changed).
    func reopenLastValue(after position: Int, as kind: Frame.Kind, sorted: Bool) throws(WriteError) -> KeyConflict? {
        if let blocked { throw blocked }
        guard position >= bytesFlushed else { return .flushed }
        var start = position - bytesFlushed
        while start < count && (buffer[start] == UInt8(ascii: ",") || buffer[start] == 0x20 || buffer[start] == 0x0A) {
            start += 1
        }
        var end = count
        if lines && current.kind == .root && end > start && buffer[end - 1] == 0x0A { end -= 1 }
        guard end > start else { return .notAContainer(found: nil) }
        let found = Self.containerKind(closedBy: buffer[end - 1])
        guard found == kind else { return .notAContainer(found: found) }
        count = end - closingLength(endingAt: end, indent: indentation(atLevel: baseLevel + outer.count))
        pushFrame(kind, sorted: sorted, checksKeys: kind == .object)
        rescanContainer(from: bytesFlushed + start + 1)
        return nil
    }

    /// The kind of container a value's last byte closes, or nil for a scalar.
    static func containerKind(closedBy byte: UInt8) -> Frame.Kind? {
        switch byte {
        case UInt8(ascii: "}"): return .object
        case UInt8(ascii: "]"): return .array
        default: return nil
        }
    }
}
