/// A hash index of the keys of one open object with many members: open addressing over the
/// records of ``JSONWriter/members``, so finding a key written before stays O(1) per member.
struct KeyIndex {
    /// A power of two of slots, each 0 (empty) or a record's index in `members` plus 1.
    var slots: [Int] = []
    /// Slots in use.
    var used = 0
}

extension JSONWriter {
    /// Looks the key of record `last` up in the index of the object on top, adding it when it
    /// is new.
    /// - Returns: the record of the earlier member with that key, or -1.
    func indexedEarlierMember(_ last: Int) -> Int {
        let depth = outer.count
        let record = members[last]
        let key = UnsafeBufferPointer(start: buffer + (record.keyOffset &- bytesFlushed), count: record.keyLength)
        let mask = keyIndexes[depth].slots.count &- 1
        var slot = Int(truncatingIfNeeded: Self.keyHash(key)) & mask
        while true {
            let entry = keyIndexes[depth].slots[slot]
            if entry == 0 { break }
            if keyEquals(members[entry &- 1], key, depth: depth) { return entry &- 1 }
            slot = (slot &+ 1) & mask
        }
        keyIndexes[depth].slots[slot] = last &+ 1
        keyIndexes[depth].used &+= 1
        if keyIndexes[depth].used &* 2 > keyIndexes[depth].slots.count { rebuildKeyIndex() }
        return -1
    }

    /// Makes the index of the object on top anew from its records: when it first grows past
    /// ``indexThreshold`` members, when the index fills, and when records move.
    func rebuildKeyIndex() {
        let depth = outer.count
        let base = current.memberBase
        let memberCount = members.count - base
        var size = 64
        while size < memberCount * 4 { size *= 2 }
        var index = KeyIndex(slots: Array(repeating: 0, count: size), used: 0)
        let mask = size - 1
        for position in base..<members.count {
            let hash = withKey(of: members[position], depth: depth) { Self.keyHash($0) }
            var slot = Int(truncatingIfNeeded: hash) & mask
            while index.slots[slot] != 0 { slot = (slot + 1) & mask }
            index.slots[slot] = position + 1
            index.used += 1
        }
        while keyIndexes.count <= depth { keyIndexes.append(KeyIndex()) }
        keyIndexes[depth] = index
        current.indexed = true
    }

    /// FNV-1a of a key's written bytes.
    static func keyHash(_ key: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in key {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash ^ (hash &>> 29)
    }
}
