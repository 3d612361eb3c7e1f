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
    /// count is up to `target` (clamped to the chunk).
    mutating func advance(to target: Int, in chunk: UnsafeRawBufferPointer, base: Int) {
        let end = min(max(target - base, 0), chunk.count)
        var index = max(offset - base, 0)
        guard index < end else { return }
        while index < end {
            if chunk[index] == 0x0A {
                line += 1
                lineStart = base + index + 1
            }
            index += 1
        }
        offset = base + end
    }
}
