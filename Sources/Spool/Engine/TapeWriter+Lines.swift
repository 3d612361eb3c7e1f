#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Line tracking: `memchr` finds the next `\n` among the bytes yajl has been given, and the
/// line count moves past it only when a token (or an error) lies beyond it. In the common case
/// a token costs one comparison; each newline costs one `memchr` call.
extension TapeWriter {
    /// Records that yajl is about to be given the bytes up to `limit`.
    func extendParseLimit(to limit: Int) {
        parseLimit = max(parseLimit, limit)
        if nextNewline == Int.max { nextNewline = findNewline(from: lineStart) }
    }

    /// Moves the line count past every newline before `offset`.
    @inline(never)
    func advanceLines(to offset: Int) {
        while nextNewline < offset {
            line += 1
            lineStart = nextNewline + 1
            nextNewline = findNewline(from: lineStart)
        }
    }

    private func findNewline(from offset: Int) -> Int {
        let from = max(offset, newlineSearchedTo, window.base)
        let limit = min(parseLimit, window.end)
        guard from < limit else { return Int.max }
        if let found = memchr(window.pointer(at: from), 0x0A, limit - from) {
            return from + (UnsafeRawPointer(found) - UnsafeRawPointer(window.pointer(at: from)))
        }
        newlineSearchedTo = limit
        return Int.max
    }

    /// The location of an absolute offset in the bytes given to yajl.
    func location(of offset: Int) -> SourceLocation {
        if offset > nextNewline { advanceLines(to: offset) }
        if offset >= lineStart {
            return SourceLocation(byteOffset: offset, line: line, column: offset - lineStart + 1)
        }
        // Behind the current line (rare): count back through what the window still holds.
        var line = self.line
        var p = lineStart - 1
        while p >= max(offset, window.base) {
            if window[p] == 0x0A { line -= 1 }
            p -= 1
        }
        return SourceLocation(byteOffset: offset, line: max(1, line), column: offset - lineStart(of: offset) + 1)
    }

    /// The offset where the line holding `offset` starts, as far as the window goes back.
    func lineStart(of offset: Int) -> Int {
        if offset >= lineStart { return lineStart }
        var start = offset
        while start > window.base && window[start - 1] != 0x0A { start -= 1 }
        return start
    }
}
