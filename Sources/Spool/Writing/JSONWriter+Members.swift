#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Keys written twice, without a tree. `JSONEncoder` keeps an object's members in a dictionary:
// a key encoded again replaces the earlier value, and a nested container asked again for a key
// continues the earlier one. An object the encoder writes here (`checksKeys`) records each
// member as it is written: where its bytes start and where its key's bytes are. A new key is
// looked for among the earlier ones (a 64-bit filter of the keys' hashes skips the search for
// most new keys; an object of more than `indexThreshold` members gets a hash index), and when
// it is found:
//
// - a value replaces the earlier member: the new member is written at the end, and the earlier
//   one taken out of the buffer once the new one is complete (so a value that fails leaves the
//   earlier one in place);
// - a container continues the earlier member's container of its kind: the earlier member's
//   bytes move to the end without their closing bracket, and the container is open again;
// - either fails when the earlier member's bytes were flushed already (a streaming writer), or,
//   for a container, when the earlier member is not a container of its kind.
//
// While a member waits to replace an earlier one, nothing is flushed. Keys are compared in
// their written (escaped) form, in the buffer; before the buffer is flushed, the keys of open
// objects are copied to `flushedKeys`, so keys written long ago are still recognised.

/// One member of an open object that records its members.
struct MemberRecord {
    /// The offset in the output (flushed bytes included) of the key's opening quote.
    var start: Int
    /// Where the member ends (an offset in the output), before the next one's separator: kept
    /// for a sorted object, set when the next member begins or the object ends; -1 until known.
    var end: Int
    /// Where the key's written bytes (between its quotes) are: an offset in the output while
    /// they are in the buffer, else an offset in ``JSONWriter/flushedKeys`` at the object's depth.
    var keyOffset: Int
    /// The length of the key's written form.
    var keyLength: Int
    /// Whether the key was copied out of the buffer (see `keyOffset`).
    var keyFlushed = false
    /// Whether the written key has escapes: its unescaped bytes, by which a sorted object
    /// orders its members, differ from the written ones.
    var keyEscaped = false
}

extension JSONWriter {
    /// What follows a key the encoder writes.
    enum MemberValue {
        /// A value, written next.
        case value
        /// An object, sorted by key or not: opened by ``memberKey(_:then:)``.
        case object(sorted: Bool)
        /// An array: opened by ``memberKey(_:then:)``.
        case array
    }

    /// Why a key written again could not be: nothing was written.
    enum KeyConflict {
        /// The earlier member's bytes were flushed already.
        case flushed
        /// A container was asked for a key whose earlier member is not a container of its kind:
        /// an object, an array, or (nil) a scalar.
        case notAContainer(found: Frame.Kind?)
    }

    /// Objects of more members than this get a hash index of their keys.
    static let indexThreshold = 16

    /// Writes `key` in the object on top, then opens the container `value` asks for (for
    /// ``MemberValue/value``, the value is due next). In an object that checks its keys, a key
    /// written before replaces the earlier member (a value) or continues its container (a
    /// container of the same kind).
    /// - Returns: nil, or why the key could not be written (nothing was).
    func memberKey(_ key: String, then value: MemberValue) throws(WriteError) -> KeyConflict? {
        guard current.checksKeys else {
            try self.key(key)
            try openMemberValue(value)
            return nil
        }
        if let blocked { throw blocked }
        guard current.kind == .object, !current.awaitingValue else { throw keyNotDue() }
        if current.sorted || current.replacedMember >= 0 { endLastMember() }
        let separatorStart = bytesFlushed &+ count
        try writeSeparator()
        current.count &+= 1
        let start = try writeQuotedKey(key)
        let written = count &- start &- 2
        recordKey(start: start, escaped: current.sorted && written != key.utf8.count)
        let earlier = findEarlierMember(buffer + (start &+ 1), count: written)
        if earlier < 0 {
            try writeColon()
            try openMemberValue(value)
            return nil
        }
        return try resolveRepeatedKey(earlier: earlier, separatorStart: separatorStart, then: value)
    }

    /// Writes `key` in quotes, escaped, with room for the colon after it made first: a key is
    /// never split by a flush, so its bytes are whole in the buffer when it is recorded.
    /// - Returns: the buffer position of its opening quote.
    @inline(__always)
    func writeQuotedKey(_ key: String) throws(WriteError) -> Int {
        var key = key
        var start = 0
        let failure: WriteError? = key.withUTF8 { text in
            do throws(WriteError) {
                try reserve(text.count &* 6 &+ 5)
                start = count
                try writeQuoted(text)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
        return start
    }

    /// Opens the container `value` asks for, as the value due now.
    @inline(__always)
    func openMemberValue(_ value: MemberValue) throws(WriteError) {
        switch value {
        case .value: break
        case .object(let sorted): try openContainer(.object, sorted: sorted, checksKeys: true)
        case .array: try openContainer(.array, sorted: false)
        }
    }

    // MARK: - Records

    /// Notes the key just written (its opening quote at buffer position `start`) as a new
    /// member of the object on top; `escaped` when its written form has escapes.
    @inline(__always)
    func recordKey(start: Int, escaped: Bool) {
        let offset = bytesFlushed &+ start
        members.push(
            MemberRecord(start: offset, end: -1, keyOffset: offset &+ 1, keyLength: count &- start &- 2, keyEscaped: escaped))
    }

    /// The member before the one beginning now is complete: a sorted object notes where it
    /// ends, and the member it replaces is taken out.
    @inline(__always)
    func endLastMember() {
        if current.replacedMember >= 0 { removeReplacedMember() }
        if current.sorted && current.count > 0 { members[members.count &- 1].end = bytesFlushed &+ count }
    }

    /// The object on top ends: its last member is complete, a sorted object's members are put
    /// in order, and its records are forgotten. (An object with none of that to do only
    /// forgets its records: `closeContainer` does that itself.)
    @inline(never)
    func endMembers() throws(WriteError) {
        if current.replacedMember >= 0 { removeReplacedMember() }
        if current.sorted {
            try sortMembers()
            flushHolds &-= 1
        }
        members.removeSubrange(current.memberBase...)
        keysInBufferFrom = min(keysInBufferFrom, members.count)
        let depth = outer.count
        if current.keysFlushed { flushedKeys[depth].removeAll(keepingCapacity: true) }
        if current.indexed { keyIndexes[depth] = KeyIndex() }
    }

    // MARK: - Finding a key written before

    /// The record of an earlier member of the object on top whose key is the one just recorded
    /// (the last record; its written bytes at `key`), or -1.
    @inline(__always)
    func findEarlierMember(_ key: UnsafePointer<UInt8>, count length: Int) -> Int {
        let last = members.count &- 1
        if current.indexed { return indexedEarlierMember(last) }
        let bit = Self.keyBit(key, count: length)
        var earlier = -1
        if current.keyBloom & bit == 0 {
            current.keyBloom |= bit
        } else {
            earlier = scanForEarlierMember(last)
        }
        if earlier < 0 && current.count > Self.indexThreshold { rebuildKeyIndex() }
        return earlier
    }

    /// One bit of 64 for a key's written bytes, from its length and its first and last bytes.
    @inline(__always)
    static func keyBit(_ key: UnsafePointer<UInt8>, count: Int) -> UInt64 {
        var seed = UInt64(truncatingIfNeeded: count) &<< 16
        if count > 0 { seed |= UInt64(key[0]) &<< 8 | UInt64(key[count &- 1]) }
        return 1 &<< ((seed &* 0x9E37_79B9_7F4A_7C15) &>> 58)
    }

    /// Compares the key of record `last` with every earlier key of the object on top.
    @inline(never)
    func scanForEarlierMember(_ last: Int) -> Int {
        let record = members[last]
        let key = buffer + (record.keyOffset - bytesFlushed)
        let length = record.keyLength
        var index = current.memberBase
        while index < last {
            let earlier = members[index]
            if earlier.keyLength == length {
                if earlier.keyFlushed {
                    if keyEquals(earlier, UnsafeBufferPointer(start: key, count: length), depth: outer.count) { return index }
                } else if length == 0 || memcmp(buffer + (earlier.keyOffset - bytesFlushed), key, length) == 0 {
                    return index
                }
            }
            index += 1
        }
        return -1
    }

    /// Whether `record`'s key (of the object at `depth`) is `key`.
    func keyEquals(_ record: MemberRecord, _ key: UnsafeBufferPointer<UInt8>, depth: Int) -> Bool {
        guard record.keyLength == key.count else { return false }
        guard let bytes = key.baseAddress, key.count > 0 else { return true }
        if !record.keyFlushed { return memcmp(buffer + (record.keyOffset - bytesFlushed), bytes, key.count) == 0 }
        return flushedKeys[depth].withUnsafeBufferPointer { arena in
            guard let base = arena.baseAddress else { return false }
            return memcmp(base + record.keyOffset, bytes, key.count) == 0
        }
    }

    /// Runs `body` on the written key of `record` (of the object at `depth`).
    func withKey<Result>(of record: MemberRecord, depth: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if !record.keyFlushed {
            return body(UnsafeBufferPointer(start: buffer + (record.keyOffset - bytesFlushed), count: record.keyLength))
        }
        return flushedKeys[depth].withUnsafeBufferPointer { arena in
            body(UnsafeBufferPointer(rebasing: arena[record.keyOffset..<(record.keyOffset + record.keyLength)]))
        }
    }

    // MARK: - Flushing

    /// Copies the keys of open objects' members out of the buffer, which is about to be
    /// flushed, so a key written again is still recognised.
    @inline(never)
    func moveKeysOutOfBuffer() {
        let depths = outer.count + 1
        for depth in 0..<depths {
            var frame = depth < outer.count ? outer[depth] : current
            guard frame.checksKeys, frame.memberBase >= 0 else { continue }
            var end = members.count
            for deeper in (depth + 1)..<depths {
                let base = deeper < outer.count ? outer[deeper].memberBase : current.memberBase
                if base >= 0 {
                    end = base
                    break
                }
            }
            let from = max(frame.memberBase, keysInBufferFrom)
            guard from < end else { continue }
            while flushedKeys.count <= depth { flushedKeys.append([]) }
            for index in from..<end where !members[index].keyFlushed {
                let record = members[index]
                let offset = flushedKeys[depth].count
                flushedKeys[depth].append(
                    contentsOf: UnsafeBufferPointer(start: buffer + (record.keyOffset - bytesFlushed), count: record.keyLength))
                members[index].keyOffset = offset
                members[index].keyFlushed = true
            }
            frame.keysFlushed = true
            if depth < outer.count { outer[depth] = frame } else { current = frame }
        }
        keysInBufferFrom = members.count
    }
}
