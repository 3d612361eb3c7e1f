/// The input side of parsing: the ``InputWindow`` it owns, and the decision of each call to
/// yajl over it (a ``YajlEventRecorder``, whose events go where its owner sent them).
///
/// Input is written into the window (``freeSpace(minimum:)`` then ``commit(_:)``,
/// ``append(_:)``, or ``read(from:upTo:)``); ``makeCalls(force:_:)`` decides how far each call
/// goes, and its owner makes the call (``call(to:_:)``) and says after it where the token that
/// yajl left unfinished starts (``pendingStart``). Two owners: a ``TapeBuilder``, whose writer
/// gets the events, and an ``EventLogger`` on a background thread, which logs them for a tape
/// builder on the reader's thread. Both decide their calls here, by the same rules:
///
/// **Long strings go to yajl whole.** yajl copies a token that spans `yajl_parse` calls into a
/// buffer of its own (and keeps it), and re-lexes it from its first byte on every call. So a
/// call ends before a string whose closing quote has not arrived yet (``StringHoldBack``), and
/// yajl later takes the string straight from the window, once: a long string is held twice
/// (window and tape), not three times, and never re-lexed.
///
/// **Linear time for other long tokens.** While a token is unfinished in yajl all the same (a
/// comment, a string with bytes yajl may reject, which go over as they arrive), the feed holds
/// input back until the new bytes are at least as many as the pending token's, so the chunks
/// yajl sees grow geometrically and the total re-lexing stays linear.
///
/// **Form feeds and vertical tabs** are whitespace to yajl and errors to Spool (outside
/// comments): a call ends at the first one, so that yajl first parses what comes before it and
/// an earlier error still wins, whatever the chunking.
final class YajlFeed {
    /// The input bytes. The feed alone changes it; the tape writer reads it.
    let window: InputWindow
    /// yajl, and where its events go.
    let recorder: YajlEventRecorder
    let options: JSONParsingOptions
    /// How many bytes one read asks for (``JSONParsingOptions/chunkSize``).
    let chunkSize: Int

    /// Absolute offset up to which bytes have been given to yajl.
    @exclusivity(unchecked) private(set) var parsedEnd = 0
    /// Start of a token yajl has begun but not finished, after the last call: its owner's
    /// finding (the writer's scan, or the logger's).
    @exclusivity(unchecked) var pendingStart: Int?
    /// Where calls to yajl end so that it takes strings whole (see ``StringHoldBack``).
    @exclusivity(unchecked) private var holdBack = StringHoldBack()
    /// Bytes below this offset were looked at for form feeds and vertical tabs (while held back).
    @exclusivity(unchecked) private var whitespaceCheckedTo = 0
    /// Whether the start of the input has been looked at for a byte order mark.
    @exclusivity(unchecked) private var startChecked = false
    /// Bytes of unfinished tokens that yajl had to re-lex, summed over all calls: the
    /// quadratic cost that holding input back keeps linear. For tests.
    @exclusivity(unchecked) private(set) var relexedBytes = 0
    /// Number of `yajl_parse` calls made. For tests.
    @exclusivity(unchecked) private(set) var parseCalls = 0

    /// The longest input one reader takes (just under 1 TiB), so that arena offsets and token
    /// indices always fit a ``RawToken``.
    static let maxInputLength = RawToken.maxPayload - 1024

    /// A feed whose calls go to `recorder`, over a window made for `options`' chunk size.
    init(options: JSONParsingOptions, window: InputWindow, recorder: YajlEventRecorder) {
        self.options = options
        self.window = window
        self.recorder = recorder
        chunkSize = options.effectiveChunkSize
    }

    /// A window for `options`: a chunk and a little more.
    static func makeWindow(options: JSONParsingOptions) -> InputWindow {
        InputWindow(capacity: options.effectiveChunkSize + 256)
    }

    // MARK: - Input

    /// Total bytes of input received so far.
    var bytesReceived: Int { window.end }

    /// Free space in the window for at least `minimum` bytes of new input.
    func freeSpace(minimum: Int) -> UnsafeMutableRawBufferPointer {
        window.freeSpace(minimum: minimum)
    }

    /// Records that `count` bytes were written into the space from ``freeSpace(minimum:)``.
    func commit(_ count: Int) {
        window.commit(count)
    }

    /// Copies bytes into the window.
    func append(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0, let source = bytes.baseAddress else { return }
        let space = freeSpace(minimum: bytes.count)
        space.baseAddress?.copyMemory(from: source, byteCount: bytes.count)
        commit(bytes.count)
    }

    /// Reads up to one chunk from `source` into the window; 0 at the end of the input.
    func read(from source: any ByteSource) throws(InputError) -> Int {
        try window.read(from: source, upTo: chunkSize)
    }

    /// Calls `body` with the input bytes from `start` to `end`, which the window still holds
    /// after the read that brought them.
    func withBytes(from start: Int, to end: Int, _ body: (UnsafeRawBufferPointer) -> Void) {
        body(UnsafeRawBufferPointer(start: window.pointer(at: start), count: end - start))
    }

    /// Makes the input start at `offset`, before any byte arrives (a resumed reader's): no
    /// byte order mark is looked for there.
    func start(at offset: Int) {
        window.start(at: offset)
        parsedEnd = offset
        whitespaceCheckedTo = offset
        startChecked = true
    }

    /// Forgets the input below `offset` (the owner has taken what it needs from it), returning
    /// to a chunk's capacity after a long token.
    func discard(below offset: Int) {
        window.discard(below: offset, preferredCapacity: chunkSize + 256)
    }

    // MARK: - The calls

    /// What the start of the input says, before the first call.
    enum Start {
        /// Fewer than three bytes have arrived, and they could begin a byte order mark.
        case waiting
        case ready
        /// A byte order mark was skipped: the JSON text starts at this offset.
        case skippedMark(to: Int)
    }

    /// The UTF-8 byte order mark, which ``JSONParsingOptions/allowsByteOrderMark`` skips.
    private static let byteOrderMark: (UInt8, UInt8, UInt8) = (0xEF, 0xBB, 0xBF)

    /// Looks at the start of the input once, moving past a byte order mark when the options
    /// allow one (`inputEnded`: no more bytes will come).
    func checkStart(inputEnded: Bool) -> Start {
        if startChecked { return .ready }
        guard options.allowsByteOrderMark, parsedEnd == 0, window.base == 0 else {
            startChecked = true
            return .ready
        }
        let mark = YajlFeed.byteOrderMark
        let available = window.end
        let matches = (available < 1 || window[0] == mark.0) && (available < 2 || window[1] == mark.1)
            && (available < 3 || window[2] == mark.2)
        if available < 3 && matches && !inputEnded { return .waiting }
        startChecked = true
        guard matches && available >= 3 else { return .ready }
        skip(to: 3)
        return .skippedMark(to: 3)
    }

    /// Moves past bytes that are not JSON text (a byte order mark), unparsed.
    func skip(to offset: Int) {
        guard parsedEnd < offset else { return }
        parsedEnd = offset
        whitespaceCheckedTo = max(whitespaceCheckedTo, offset)
    }

    /// Whether a call is due now: bytes are waiting and (unless `force`, at the end of the
    /// input) not held back: while a token is unfinished in yajl, new bytes wait until they are
    /// at least as many as the pending token's (see the type's note on linear time).
    func hasCallDue(force: Bool) -> Bool {
        let available = window.end - parsedEnd
        guard available > 0 else { return false }
        guard !force, let pendingStart else { return true }
        return available >= min(parsedEnd - pendingStart, 1 << 30)
    }

    /// Decides the calls over the bytes received and not parsed, and has `call` make each (to
    /// its end, cut short at a form feed or vertical tab when `badWhitespace` is set); `call`
    /// returns false to stop. With `force` (the input has ended), a string held back goes too,
    /// unfinished.
    func makeCalls<Failure: Error>(
        force: Bool, _ call: (_ end: Int, _ badWhitespace: Int?) throws(Failure) -> Bool
    ) throws(Failure) {
        let end = window.end
        let badWhitespace =
            options.allowsComments ? nil : window.firstBadWhitespace(from: max(parsedEnd, whitespaceCheckedTo), to: end)
        if badWhitespace == nil {
            whitespaceCheckedTo = end
            // Strings go to yajl whole: a call ends before one whose end has not arrived.
            while parsedEnd < end {
                let callEnd = holdBack.callEnd(
                    in: window, parsedEnd: parsedEnd, end: end, pending: StringHoldBack.Pending(start: pendingStart, in: window),
                    maxStringLength: options.effectiveMaxStringLength)
                if callEnd == parsedEnd { break }
                guard try call(callEnd, nil) else { return }
            }
            guard force && parsedEnd < end else { return }
        }
        _ = try call(badWhitespace ?? end, badWhitespace)
    }

    /// One call over the bytes from ``parsedEnd`` to `end`: `run` gets them and their absolute
    /// offset (yajl itself through ``recorder``, or a logged call replayed) and says how it
    /// ended. Nil when there were no bytes.
    @inline(__always)
    func call(to end: Int, _ run: (UnsafePointer<UInt8>, Int, Int) -> YajlStatus) -> YajlStatus? {
        let start = parsedEnd
        if let pendingStart { relexedBytes += start - pendingStart }
        parseCalls += 1
        guard end > start else { return nil }
        let status = run(UnsafePointer(window.pointer(at: start)), end - start, start)
        parsedEnd = end
        return status
    }
}
