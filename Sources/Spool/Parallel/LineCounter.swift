/// Lines counted over input that goes by in chunks, for the ``SourceLocation`` of an offset:
/// lines end at `\n` (so `\r\n` counts once) and columns count UTF-8 bytes from the line's
/// start, from 1, a byte order mark included, exactly as Spool's readers count them.
///
/// The count only moves forward: each offset asked for must be at or after the last one, and
/// in the chunk being read (the ``BatchCutter`` asks in document order).
struct LineCounter {
    /// How many bytes have been counted: the offset the count has reached.
    private(set) var offset = 0
    /// The line at ``offset``, from 1.
    private(set) var line = 1
    /// The offset of the first byte of that line.
    private(set) var lineStart = 0

    /// Counts the line feeds of `chunk` (whose first byte is at offset `base`) before `target`,
    /// from where the count is; returns the location of `target`, or nil when `target` is
    /// behind the count or not in this chunk (nor one past its end).
    mutating func location(of target: Int, in chunk: UnsafeRawBufferPointer, base: Int) -> SourceLocation? {
        guard target >= offset, target >= base, target - base <= chunk.count else { return nil }
        advance(to: target, in: chunk, base: base)
        return SourceLocation(byteOffset: target, line: line, column: target - lineStart + 1)
    }

    /// Counts the line feeds of `chunk` (whose first byte is at offset `base`) from where the
    /// count is up to `target` (clamped to the chunk) with SIMD comparisons (``count(_:_:)``:
    /// about 0.3 instructions a byte, where 8 bytes at a time with exact byte arithmetic cost
    /// 1.8, and a byte loop 5, as much as the scan). The line's start is then the byte after the
    /// last line feed, found backwards 8 bytes at a time.
    mutating func advance(to target: Int, in chunk: UnsafeRawBufferPointer, base: Int) {
        let end = min(max(target - base, 0), chunk.count)
        let start = max(offset - base, 0)
        guard start < end, let bytes = chunk.baseAddress else { return }
        let feeds = Self.count(bytes + start, end &- start)
        if feeds > 0 {
            line &+= feeds
            if let last = Self.lastLineFeed(bytes, from: start, to: end) { lineStart = base &+ last &+ 1 }
        }
        offset = base + end
    }

    /// The index of the last line feed of `bytes` from `start` up to `end`, or nil.
    static func lastLineFeed(_ bytes: UnsafeRawPointer, from start: Int, to end: Int) -> Int? {
        var index = end
        while index &- start >= 8 {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index &- 8, as: UInt64.self))
            // The high bit of each byte that is a line feed, exactly: `x` is zero there, and
            // adding 0x7F to its low seven bits sets the high bit of every other byte, with no
            // carry from one byte into the next.
            let x = word ^ 0x0A0A_0A0A_0A0A_0A0A
            let feeds = ~(((x & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | x) & 0x8080_8080_8080_8080
            if feeds != 0 { return index &- 8 &+ (63 &- feeds.leadingZeroBitCount) >> 3 }
            index &-= 8
        }
        while index > start {
            index &-= 1
            if bytes.load(fromByteOffset: index, as: UInt8.self) == 0x0A { return index }
        }
        return nil
    }

    /// The number of line feeds in the `count` bytes at `bytes`: 64 bytes a step, four
    /// comparisons whose lanes (0 or -1) are subtracted from 16 byte counters, summed every 63
    /// steps (before a counter can pass 255).
    static func count(_ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        let lineFeed = SIMD16<UInt8>(repeating: 0x0A)
        @inline(__always) func feeds(at offset: Int) -> SIMD16<UInt8> {
            SIMD16<UInt8>(truncatingIfNeeded: (bytes.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self) .== lineFeed)._storage)
        }
        var total = 0
        var index = 0
        while count &- index >= 64 {
            var counters = SIMD16<UInt8>()
            var steps = 0
            repeat {
                counters &-= feeds(at: index)
                counters &-= feeds(at: index &+ 16)
                counters &-= feeds(at: index &+ 32)
                counters &-= feeds(at: index &+ 48)
                index &+= 64
                steps &+= 1
            } while steps < 63 && count &- index >= 64
            total &+= sum(counters)
        }
        while index < count {
            if bytes.load(fromByteOffset: index, as: UInt8.self) == 0x0A { total &+= 1 }
            index &+= 1
        }
        return total
    }

    /// The sum of 16 byte counters (each at most 255), with no lane loop: the bytes of each
    /// half added in pairs, fours and eights as wider integers.
    @inline(__always)
    private static func sum(_ counters: SIMD16<UInt8>) -> Int {
        let halves = unsafeBitCast(counters, to: SIMD2<UInt64>.self)
        var total = 0
        for half in [halves[0], halves[1]] {
            var x = (half & 0x00FF_00FF_00FF_00FF) &+ (half >> 8 & 0x00FF_00FF_00FF_00FF)
            x = (x & 0x0000_FFFF_0000_FFFF) &+ (x >> 16 & 0x0000_FFFF_0000_FFFF)
            x = (x & 0x0000_0000_FFFF_FFFF) &+ (x >> 32)
            total &+= Int(truncatingIfNeeded: x)
        }
        return total
    }
}
