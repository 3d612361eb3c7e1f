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
    /// count is up to `target` (clamped to the chunk): 8 bytes at a time, each line feed found
    /// by exact byte arithmetic (a byte loop cost 5 instructions a byte, as much as the scan).
    mutating func advance(to target: Int, in chunk: UnsafeRawBufferPointer, base: Int) {
        let end = min(max(target - base, 0), chunk.count)
        var index = max(offset - base, 0)
        guard index < end, let bytes = chunk.baseAddress else { return }
        while index &+ 8 <= end {
            let word = UInt64(littleEndian: (bytes + index).loadUnaligned(as: UInt64.self))
            // The high bit of each byte that is a line feed: `x` is zero there, and adding
            // 0x7F to its low seven bits sets the high bit of every other byte, with no carry
            // from one byte into the next.
            let x = word ^ 0x0A0A_0A0A_0A0A_0A0A
            let feeds = ~(((x & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | x) & 0x8080_8080_8080_8080
            if feeds != 0 {
                line &+= feeds.nonzeroBitCount
                lineStart = base &+ index &+ (63 &- feeds.leadingZeroBitCount) >> 3 &+ 1
            }
            index &+= 8
        }
        while index < end {
            if bytes.load(fromByteOffset: index, as: UInt8.self) == 0x0A {
                line &+= 1
                lineStart = base &+ index &+ 1
            }
            index &+= 1
        }
        offset = base + end
    }
}
