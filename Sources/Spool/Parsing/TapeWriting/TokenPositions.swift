#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where tokens lie in the input, for the ``TapeWriter``: the buffer of the current call to
/// yajl (from which a token's bounds follow) and the line count.
///
/// Lines: `memchr` finds the next `\n` among the bytes yajl has been given, and the count moves
/// past it only when a token (or an error) lies beyond it. In the common case a token costs
/// one comparison; each newline costs one `memchr` call. JSON has newlines only between
/// tokens, so a token's line is the line of its start.
///
/// Its state changes only through its methods; the window it reads is passed in.
struct TokenPositions {
    // The call.
    /// Absolute offset of the first byte of the current `yajl_parse` call, and that call's
    /// buffer: yajl hands escape-free strings and numbers as pointers into it.
    private(set) var chunkBase = 0
    private(set) var chunkPointer: UnsafeRawPointer
    /// The buffer's length; 0 between calls and when comments are allowed, so that every
    /// token's start is then found by the scanner.
    private(set) var chunkLength = 0
    /// True inside `yajl_complete_parse`, whose offsets refer to a private buffer.
    private(set) var finishing = false
    /// Where the token completed by `yajl_complete_parse` (a trailing number) starts.
    private(set) var finishingTokenStart = 0

    // Lines.
    /// Line of the last position passed (1-based), and the absolute offset where it starts.
    private(set) var line = 1
    private(set) var lineStart = 0
    /// The first `\n` at or after `lineStart` among the bytes searched so far, or `Int.max`.
    private(set) var nextNewline = Int.max
    /// Bytes before this offset have been searched for `nextNewline`.
    private var newlineSearchedTo = 0
    /// End of the bytes given to yajl so far: newline searches stop here.
    private var parseLimit = 0
    /// Set for input held whole in memory: lines are counted only when a location is asked
    /// for, and `nextNewline` stays `Int.max`, so passing a token costs one comparison and
    /// the line stays 1.
    private(set) var linesOnDemand: LinesOnDemand?

    init(window: InputWindow) {
        chunkPointer = UnsafeRawPointer(window.storage)
    }

    /// Starts the count at `offset`, on `line`, which starts at `lineStart` (a resumed
    /// reader's first byte, ``ResumePoint``).
    mutating func start(at offset: Int, line: Int, lineStart: Int) {
        chunkBase = offset
        self.line = line
        self.lineStart = lineStart
        nextNewline = Int.max
        newlineSearchedTo = offset
        parseLimit = offset
    }

    /// Counts lines only when asked, in `lines` (before any byte is given to yajl).
    mutating func countLines(on lines: LinesOnDemand) {
        linesOnDemand = lines
        nextNewline = Int.max
    }

    // MARK: - Calls

    /// Notes that yajl is about to be given the window's bytes from `start` to `end`; with
    /// `scanned`, tokens are not placed by their pointers (comments may lie between them).
    mutating func beginChunk(from start: Int, to end: Int, in window: InputWindow, scanned: Bool) {
        assert(start <= end && end <= window.end, "a call beyond the bytes received")
        chunkBase = start
        chunkPointer = UnsafeRawPointer(window.pointer(at: start))
        chunkLength = scanned ? 0 : end &- start
        parseLimit = max(parseLimit, end)
        if nextNewline == Int.max && linesOnDemand == nil { nextNewline = findNewline(from: lineStart, in: window) }
    }

    /// Notes that the `yajl_parse` call has returned: pointers no longer point into its buffer.
    mutating func endChunk() {
        chunkLength = 0
    }

    /// Notes that yajl is finishing the input (`yajl_complete_parse`); a token it completes
    /// then starts at `tokenStart`.
    mutating func beginCompletion(tokenStart: Int) {
        finishing = true
        finishingTokenStart = tokenStart
    }

    mutating func endCompletion() {
        finishing = false
    }

    /// Where yajl's `bytes` lie in the current chunk, if they point into it (then the token's
    /// text is verbatim in the input: no escapes, not split across chunks).
    @inline(__always)
    func chunkOffset(of bytes: UnsafeRawPointer?) -> Int? {
        guard let bytes else { return nil }
        let offset = bytes - chunkPointer
        return UInt(bitPattern: offset) < UInt(bitPattern: chunkLength) ? offset : nil
    }

    // MARK: - Lines

    /// Moves the line count past every newline before `offset` (one comparison when none).
    @inline(__always)
    mutating func pass(to offset: Int, in window: InputWindow) {
        if offset > nextNewline { advanceLines(to: offset, in: window) }
    }

    /// The location of `offset`, which lies on the current line (after passing the lines before it).
    @inline(__always)
    func locationOnLine(_ offset: Int) -> SourceLocation {
        assert(offset >= lineStart && offset <= nextNewline, "an offset off the current line")
        return SourceLocation(byteOffset: offset, line: line, column: offset &- lineStart &+ 1)
    }

    /// (Inlined into the writer's own out-of-line `advanceLines(to:)`, which runs once per
    /// newline passed: a second call, the window passed by value, cost 14 instructions a newline.)
    ///
    /// Each newline passed costs one `memchr` from the byte after it, with the limits read once
    /// and no overflow checks (offsets are far below `Int.max`): pretty-printed JSON passes a
    /// newline per token. (The search need not start at `newlineSearchedTo`, as
    /// ``findNewline(from:in:)``'s does: that is set only when no newline is left, and a newline
    /// found later lies past it, so the byte after any newline does too.)
    @inline(__always)
    mutating func advanceLines(to offset: Int, in window: InputWindow) {
        var newline = nextNewline
        guard newline < offset else { return }
        let limit = min(parseLimit, window.end)
        var line = self.line
        var start = lineStart
        while newline < offset {
            line &+= 1
            start = newline &+ 1
            let from = max(start, window.base)
            guard from < limit, let found = memchr(window.pointer(at: from), 0x0A, limit &- from) else {
                if from < limit { newlineSearchedTo = limit }
                newline = Int.max
                break
            }
            newline = from &+ (UnsafeRawPointer(found) - UnsafeRawPointer(window.pointer(at: from)))
        }
        self.line = line
        lineStart = start
        nextNewline = newline
        assert(lineStart <= offset || offset < 0, "lines counted past the offset")
    }

    private mutating func findNewline(from offset: Int, in window: InputWindow) -> Int {
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
    mutating func location(of offset: Int, in window: InputWindow) -> SourceLocation {
        if let linesOnDemand { return linesOnDemand.location(of: offset) }
        pass(to: offset, in: window)
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
        return SourceLocation(byteOffset: offset, line: max(1, line), column: offset - lineStart(of: offset, in: window) + 1)
    }

    /// The offset where the line holding `offset` starts, as far as the window goes back.
    func lineStart(of offset: Int, in window: InputWindow) -> Int {
        if let linesOnDemand { return max(linesOnDemand.lineStart(of: offset).offset, window.base) }
        if offset >= lineStart { return lineStart }
        var start = offset
        while start > window.base && window[start - 1] != 0x0A { start -= 1 }
        return start
    }
}
