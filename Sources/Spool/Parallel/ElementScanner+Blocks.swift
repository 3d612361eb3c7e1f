/// The block loop of ``ElementScanner/Implementation/blocks``: the fast phases
/// (``ElementScanner/Phase/skipping``, ``ElementScanner/Phase/elements``) 64 bytes at a time.
extension ElementScanner {
    /// Scans whole 64-byte blocks of the chunk from index `start` while the phase is fast.
    /// Returns the index of the first byte not scanned: where fewer than 64 bytes are left,
    /// after the byte at which the phase stopped being fast, or the chunk's end after a doubt.
    ///
    /// Per block: the masks (``BlockMasks``); the escaped bytes (odd backslash runs), so the
    /// quotes that open or close strings; the in-string bits as a prefix XOR of those quotes;
    /// then, in order, each bracket and backslash outside strings, and each comma outside
    /// strings while at the array's own level, handled as the byte loop handles it. (A comma
    /// anywhere else does nothing, and most are inside elements: 377,000 of the 10 MB band
    /// catalog's 396,000. Passing them over took the scan of the 100 MB catalog in memory from
    /// 3.53-3.57 GB/s to 4.26-4.34 GB/s, and AVX-512 masks to 4.57-4.64 GB/s.) A block left
    /// early (the phase stopped being fast at a bracket) is left outside any string and escape,
    /// which is where the byte loop goes on.
    mutating func scanBlocks(_ chunk: Chunk, from start: Int, into boundaries: inout [Range<Int>]) -> Int {
        var index = start
        var inStringCarry: UInt64 = inString ? ~0 : 0
        var escapeCarry: UInt64 = escaped ? 1 : 0
        let raw = UnsafeRawPointer(chunk.bytes)
        let path = vectorPath
        while chunk.count - index >= 64 {
            let masks = BlockMasks(raw + index, path: path)
            let escapedBytes: UInt64
            if masks.backslash == 0 {
                escapedBytes = escapeCarry
                escapeCarry = 0
            } else {
                escapedBytes = BlockMasks.escaped(masks.backslash, carry: &escapeCarry)
            }
            let inStrings = BlockMasks.prefixXOR(masks.quote & ~escapedBytes) ^ inStringCarry
            let always = (masks.bracket | masks.backslash) & ~inStrings
            let commas = masks.comma & ~inStrings
            var events = kinds.depth == arrayDepth ? always | commas : always
            while events != 0 {
                let bit = events.trailingZeroBitCount
                let at = index &+ bit
                guard handle(chunk.bytes[at], at: at, in: chunk, into: &boundaries) else {
                    inString = false
                    escaped = false
                    return doubt == nil ? at + 1 : chunk.count
                }
                // The events after this byte, its commas if the scan is at the array's level.
                // (Worked out again after every event: fewer instructions than checking
                // whether the level changed, callgrind 67.6M against 69.6M for the whole
                // process of `SpoolBench scan-simd objects` over the 10 MB catalog.)
                let after: UInt64 = bit == 63 ? 0 : ~0 << UInt64(bit &+ 1)
                events = (kinds.depth == arrayDepth ? always | commas : always) & after
            }
            inStringCarry = UInt64(bitPattern: Int64(bitPattern: inStrings) >> 63)
            index &+= 64
        }
        inString = inStringCarry != 0
        escaped = escapeCarry != 0
        return index
    }

    /// A bracket, comma or backslash outside strings in a fast phase, as `fastBytes` handles
    /// it; false when the phase is no longer fast (or a doubt).
    @inline(__always)
    private mutating func handle(_ byte: UInt8, at index: Int, in chunk: Chunk, into boundaries: inout [Range<Int>]) -> Bool {
        // Commas first: most events, and most of them inside elements, where they do nothing.
        if byte == UInt8(ascii: ",") {
            return kinds.depth != arrayDepth || separator(at: index, in: chunk, into: &boundaries)
        }
        // `[` and `{` are 0x5B and 0x7B, `]` and `}` 0x5D and 0x7D.
        switch byte | 0x20 {
        case UInt8(ascii: "{"):
            return open(isObject: byte == UInt8(ascii: "{"), at: index, in: chunk)
        case UInt8(ascii: "}"):
            return close(isObject: byte == UInt8(ascii: "}"), at: index, in: chunk, into: &boundaries)
        default:
            return stop(.strayBackslash, at: chunk.base &+ index)
        }
    }
}
