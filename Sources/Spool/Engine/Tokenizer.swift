/// Drives yajl over an ``InputWindow`` and keeps the token tape filled.
///
/// Input is written into the window (``freeSpace(minimum:)`` then ``commit(_:)``, or
/// ``append(_:)``), ``parseAvailable()`` hands it to yajl, and ``finish()`` ends the input.
///
/// **Long strings go to yajl whole.** yajl copies a token that spans `yajl_parse` calls into a
/// buffer of its own (and keeps it), and re-lexes it from its first byte on every call. So a
/// call ends before a string whose closing quote has not arrived yet (``StringHoldBack``), and
/// yajl later takes the string straight from the window, once: a long string is held twice
/// (window and tape), not three times, and never re-lexed.
///
/// **Linear time for other long tokens.** While a token is unfinished in yajl all the same (a
/// comment, a string with bytes yajl may reject, which go over as they arrive), the tokenizer
/// holds input back until the new bytes are at least as many as the pending token's, so the
/// chunks yajl sees grow geometrically and the total re-lexing stays linear.
///
/// **Errors.** Whatever the chunk size, the same input gives the same ``ParseError``: the
/// earliest problem wins, located at the offending token by Spool's own scanner rather than at
/// yajl's offset (which points past the token, or into a private buffer at end of input).
///
/// **Where the events go** is fixed at construction: to this tokenizer's writer, as yajl
/// reports them; or (``logsEvents``, for ``BackgroundPipeline``'s thread) to a log of yajl's
/// calls, which the tokenizer of the reader's thread consumes (``consume(_:of:)``) through
/// the same checks as its own calls. A logging tokenizer decides its calls by the same rules;
/// it stops calling yajl at the first error or form feed, and goes on reading for the error's
/// context.
final class Tokenizer {
    let writer: TapeWriter
    /// yajl, its events consumed by `writer` as they come, or logged.
    private let recorder: YajlEventRecorder
    /// Whether yajl's events are logged for another tokenizer rather than written here.
    let logsEvents: Bool
    let options: JSONParsingOptions
    /// How many bytes one read asks for (``JSONParsingOptions/chunkSize``).
    let chunkSize: Int

    /// Absolute offset up to which bytes have been given to yajl.
    @exclusivity(unchecked) private(set) var parsedEnd = 0
    /// Start of a token yajl has begun but not finished, after the last parse.
    @exclusivity(unchecked) private var pendingStart: Int?
    /// Where calls to yajl end so that it takes strings whole (see ``StringHoldBack``).
    @exclusivity(unchecked) private var holdBack = StringHoldBack()
    /// Bytes below this offset were looked at for form feeds and vertical tabs (while held back).
    @exclusivity(unchecked) private var whitespaceCheckedTo = 0
    /// Bytes of unfinished tokens that yajl had to re-lex, summed over all parse calls: the
    /// quadratic cost that holding input back keeps linear. For tests.
    @exclusivity(unchecked) private(set) var relexedBytes = 0
    /// Number of `yajl_parse` calls made. For tests.
    @exclusivity(unchecked) private(set) var parseCalls = 0
    /// Whether ``finish()`` has run successfully.
    @exclusivity(unchecked) private(set) var isFinished = false
    /// The error that stopped parsing; every later call throws it again.
    @exclusivity(unchecked) private(set) var failure: ParseError?
    /// What ``failure`` was made from, to remake it when more context arrives.
    @exclusivity(unchecked) private var failedWith: PendingError?
    /// Whether ``finish()`` has been called (the input has ended, with or without an error).
    @exclusivity(unchecked) private var inputEnded = false
    /// While logging: whether calls to yajl have stopped (an error, a form feed, the end).
    @exclusivity(unchecked) private var stoppedLogging = false
    /// While logging: how far the bytes after the last event were looked at for an unfinished token.
    @exclusivity(unchecked) private var tailScanned = 0
    /// Whether the start of the input has been looked at for a byte order mark.
    @exclusivity(unchecked) private var startChecked = false

    /// The longest input one tokenizer takes (just under 1 TiB), so that arena offsets and token
    /// indices always fit a ``RawToken``.
    static let maxInputLength = RawToken.maxPayload - 1024

    /// A tokenizer whose writer gets yajl's events, or (`logsEvents`) that logs them to
    /// ``eventLog``; `shipsTokens`: its tape goes to another thread's reader (``shipTape(into:)``).
    init(options: JSONParsingOptions, logsEvents: Bool = false, shipsTokens: Bool = false) {
        self.options = options
        self.logsEvents = logsEvents
        chunkSize = options.effectiveChunkSize
        writer = TapeWriter(options: options, recordsLatePatches: shipsTokens)
        recorder = YajlEventRecorder(options: options, writer: logsEvents ? nil : writer)
    }

    /// Where a logging tokenizer's calls and events go (a batch's log).
    var eventLog: YajlEventLog {
        get { recorder.state.log }
        set { recorder.state.log = newValue }
    }

    /// Calls `body` with the input bytes from `start` to `end`, which the window still holds
    /// after the read that brought them.
    func withBytes(from start: Int, to end: Int, _ body: (UnsafeRawBufferPointer) -> Void) {
        body(UnsafeRawBufferPointer(start: writer.window.pointer(at: start), count: end - start))
    }

    /// A tokenizer that, on an error, reads a few bytes past it from `source` for context.
    convenience init(options: JSONParsingOptions, readingAheadFrom source: any ByteSource, shipsTokens: Bool = false) {
        self.init(options: options, shipsTokens: shipsTokens)
        readAheadForContext = { buffer in (try? source.read(into: buffer)) ?? 0 }
    }

    var tape: TokenTape { writer.tape }

    /// Validating records no tokens (only what error messages need) and, without comments,
    /// handles events with the least work.
    func setValidating(_ validating: Bool) {
        writer.skipValues(validating)
    }

    /// Total bytes of input received so far.
    var bytesReceived: Int { writer.window.end }

    // MARK: - Input

    /// Free space in the window for at least `minimum` bytes of new input.
    func freeSpace(minimum: Int) -> UnsafeMutableRawBufferPointer {
        writer.freeSpace(minimum: minimum)
    }

    /// Records that `count` bytes were written into the space from ``freeSpace(minimum:)``.
    func commit(_ count: Int) {
        writer.commit(count)
    }

    /// Reads up to one chunk from `source` into the window and parses it; at the end of the
    /// input, finishes instead. Returns false once the input has ended.
    func readChunk(from source: any ByteSource) throws -> Bool {
        if try writer.readInput(from: source, upTo: chunkSize) == 0 {
            try finish()
            return false
        }
        try parseAvailable()
        return true
    }

    /// Copies bytes into the window.
    func append(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0, let source = bytes.baseAddress else { return }
        let space = freeSpace(minimum: bytes.count)
        space.baseAddress?.copyMemory(from: source, byteCount: bytes.count)
        commit(bytes.count)
    }

    /// Whether yajl should be given the unparsed bytes now, or wait for more (see the type's
    /// note on linear time). Always true once the input has ended.
    var shouldParse: Bool {
        Tokenizer.shouldParse(available: writer.window.end - parsedEnd, parsedEnd: parsedEnd, pendingStart: pendingStart)
    }

    /// The rule behind ``shouldParse`` (also a logging tokenizer's): parse `available` new bytes
    /// unless a token that began at `pendingStart` is unfinished and they are fewer than its own.
    static func shouldParse(available: Int, parsedEnd: Int, pendingStart: Int?) -> Bool {
        guard available > 0 else { return false }
        guard let pendingStart else { return true }
        return available >= min(parsedEnd - pendingStart, 1 << 30)
    }

    /// Gives yajl the bytes received but not yet parsed, unless they are being held back.
    func parseAvailable(force: Bool = false) throws(ParseError) {
        if let failure { throw failure }
        if isFinished || stoppedLogging { return }  // (after the first value, with trailing garbage allowed)
        if !startChecked && !skipByteOrderMark(inputEnded: force) { return }
        guard force ? writer.window.end > parsedEnd : shouldParse else { return }
        let end = writer.window.end
        if end > Tokenizer.maxInputLength && !logsEvents { throw fail(Tokenizer.inputTooLong) }
        // A form feed or vertical tab is an error wherever it is (outside comments): yajl rejects
        // them inside strings, Spool between tokens. yajl first parses what comes before it, so
        // an earlier error still wins, whatever the chunking.
        let badWhitespace =
            options.allowsComments ? nil : writer.window.firstBadWhitespace(from: max(parsedEnd, whitespaceCheckedTo), to: end)
        if badWhitespace == nil {
            whitespaceCheckedTo = end
            // Strings go to yajl whole: a call ends before one whose end has not arrived.
            while parsedEnd < end {
                let callEnd = holdBack.callEnd(
                    in: writer.window, parsedEnd: parsedEnd, end: end,
                    pending: StringHoldBack.Pending(start: pendingStart, in: writer.window),
                    maxStringLength: options.effectiveMaxStringLength)
                if callEnd == parsedEnd { break }
                try call(to: callEnd, badWhitespace: nil)
                if isFinished || stoppedLogging { return }
            }
            // At the end of the input, a string held back goes too, unfinished.
            guard force && parsedEnd < end else { return }
        }
        try call(to: badWhitespace ?? end, badWhitespace: badWhitespace)
    }

    /// The UTF-8 byte order mark, which ``JSONParsingOptions/allowsByteOrderMark`` skips.
    private static let byteOrderMark: (UInt8, UInt8, UInt8) = (0xEF, 0xBB, 0xBF)

    /// Moves past a byte order mark at the start of the input, when the options allow one;
    /// false while fewer than its three bytes have arrived and those could begin one.
    private func skipByteOrderMark(inputEnded: Bool) -> Bool {
        let window = writer.window
        guard options.allowsByteOrderMark, parsedEnd == 0, window.base == 0 else {
            startChecked = true
            return true
        }
        let mark = Tokenizer.byteOrderMark
        let available = window.end
        let matches = (available < 1 || window[0] == mark.0) && (available < 2 || window[1] == mark.1)
            && (available < 3 || window[2] == mark.2)
        if available < 3 && matches && !inputEnded { return false }
        startChecked = true
        if matches && available >= 3 {
            parsedEnd = 3
            whitespaceCheckedTo = 3
            writer.skipPrefix(to: 3)
        }
        return true
    }

    /// Calls yajl over the bytes from `parsedEnd` to `end`: its events go to the writer, which
    /// is checked after the call, or to the log.
    private func call(to end: Int, badWhitespace: Int?) throws(ParseError) {
        guard !logsEvents else { return logCall(to: end, badWhitespace: badWhitespace) }
        try parse(to: end, badWhitespace: badWhitespace) { chunk, count, base in
            recorder.parse(chunk, count: count, base: base)
        }
    }

    /// A logged call: yajl's events and status go to the log for the reader's tokenizer to
    /// consume and check. The unfinished token, for the next call's rules, is the first byte
    /// after the last event that cannot come between tokens (a comment counts as a token here).
    private func logCall(to end: Int, badWhitespace: Int?) {
        let start = parsedEnd
        if let pendingStart { relexedBytes += start - pendingStart }
        parseCalls += 1
        let log = recorder.state.log
        let before = log.count
        let status = recorder.parse(UnsafePointer(writer.window.pointer(at: start)), count: end - start, base: start)
        log.calls.append(
            YajlCall(
                start: start, end: end, badWhitespace: badWhitespace, isCompletion: false, events: before..<log.count,
                status: status))
        parsedEnd = end
        if case .ok = status {} else { stoppedLogging = true }
        if badWhitespace != nil || end > Tokenizer.maxInputLength { stoppedLogging = true }
        if log.count > before {
            pendingStart = nil
            tailScanned = max(recorder.state.lastEventEnd, start)
        }
        guard pendingStart == nil else { return }
        var p = max(tailScanned, writer.window.base)
        while p < end {
            switch writer.window[p] {
            case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ","), UInt8(ascii: ":"): p += 1
            default:
                pendingStart = p
                tailScanned = p
                return
            }
        }
        tailScanned = p
    }

    static var inputTooLong: PendingError {
        PendingError(
            .limitExceeded, "the input is longer than \(Tokenizer.maxInputLength) bytes, the most one reader takes",
            at: Tokenizer.maxInputLength)
    }

    /// Consumes a call to yajl made on another thread (logged by a ``YajlEventRecorder``) over
    /// bytes already in the window, with everything that follows a live call: the same tokens
    /// and errors.
    func consume(_ call: YajlCall, of log: YajlEventLog) throws(ParseError) {
        if let failure { throw failure }
        let writer = self.writer
        let status = { () -> YajlStatus in
            let events = UnsafeBufferPointer(start: log.events + call.events.lowerBound, count: call.events.count)
            let accepted = log.side.withUnsafeBytes { writer.consume(events, side: $0.baseAddress) }
            return accepted ? call.status : .cancelled
        }
        if call.isCompletion {
            try complete { status() }
        } else {
            if call.end > Tokenizer.maxInputLength { throw fail(Tokenizer.inputTooLong) }
            if parsedEnd < call.start {  // (past a byte order mark the logging side skipped)
                parsedEnd = call.start
                writer.skipPrefix(to: call.start)
            }
            try parse(to: call.end, badWhitespace: call.badWhitespace) { _, _, _ in status() }
        }
    }

    /// One call to yajl (`run`: yajl itself, or a logged call) over the bytes from `parsedEnd`
    /// to `end` (`run` gets them and their absolute offset), and the checks that follow it.
    private func parse(
        to end: Int, badWhitespace: Int?, run: (UnsafePointer<UInt8>, Int, Int) -> YajlStatus
    ) throws(ParseError) {
        let start = parsedEnd
        if let pendingStart { relexedBytes += start - pendingStart }
        parseCalls += 1
        writer.beginChunk(from: start, to: end)
        if end > start {
            let chunk = UnsafePointer(writer.window.pointer(at: start))
            defer { writer.endChunk() }
            let status = run(chunk, end - start, start)
            parsedEnd = end
            switch status {
            case .ok:
                break
            case .cancelled:
                throw fail(writer.pendingError ?? PendingError(.syntax, "parse cancelled", at: writer.scanPos))
            case .failed(let yajlError, let consumed):
                throw fail(mapYajlError(yajlError, at: start + consumed))
            }
            if options.stopsAfterFirstValue && writer.topLevelCount > 0 && writer.depth == 0 {
                // The value is complete; what follows is neither parsed nor checked.
                pendingStart = nil
                isFinished = true
                return
            }
        }
        pendingStart = writer.scanTail(limit: end)
        // An unfinished token already over its limit comes before the form feed after it.
        if badWhitespace != nil, let error = writer.pendingError { throw fail(error) }
        if let badWhitespace, options.stopsAfterFirstValue && writer.depth == 0 && writer.topLevelCount == 0,
            let start = pendingStart, start < badWhitespace,
            JSONWriter.isJSONNumber(UnsafeBufferPointer(start: writer.window.pointer(at: start), count: badWhitespace - start))
        {
            // A top-level number that the form feed ends (`1\f`): finish it; the rest is garbage.
            // Inside a string (`"\f"`), an unfinished literal or number (`t\f`, `-\f`), the form
            // feed is an error, reported below at its own place (completing would report the end
            // of whatever input has arrived, which depends on the chunking).
            // (Only on the reader's own thread: this option parses nothing in the background.)
            try complete { recorder.complete() }
            return
        }
        if let badWhitespace { throw fail(writer.badWhitespaceError(at: badWhitespace)) }
        if let error = writer.pendingError { throw fail(error) }
    }

    /// Ends the input: parses what is held back, then lets yajl finish.
    func finish() throws(ParseError) {
        inputEnded = true
        if let failure { throw failure }
        if isFinished { return }
        try parseAvailable(force: true)
        if isFinished { return }  // the first value ended it (trailing garbage allowed)
        guard logsEvents else { return try complete { recorder.complete() } }
        if !stoppedLogging {
            let log = recorder.state.log
            let before = log.count
            let status = recorder.complete()
            log.calls.append(
                YajlCall(start: 0, end: 0, badWhitespace: nil, isCompletion: true, events: before..<log.count, status: status))
        }
        stoppedLogging = true
        isFinished = true
    }

    /// `yajl_complete_parse` (`run`: yajl itself, or a logged call) and the checks that follow it.
    private func complete(_ run: () -> YajlStatus) throws(ParseError) {
        writer.beginCompletion(tokenStart: pendingStart ?? writer.window.end)
        let status = run()
        writer.endCompletion()
        switch status {
        case .ok:
            // After the value: only whitespace and finished comments (unless trailing garbage
            // is allowed: then nothing after it is looked at).
            if !options.stopsAfterFirstValue
                && (writer.skipToToken(limit: writer.window.end) || writer.pendingError != nil || writer.isInBlockComment)
            {
                throw fail(writer.pendingError ?? endOfInputError())
            }
            isFinished = true
        case .cancelled:
            throw fail(writer.pendingError ?? endOfInputError())
        case .failed(let yajlError, _):
            if let start = pendingStart, writer.scanPos > start { pendingStart = nil }
            if options.allowsMultipleValues && writer.depth == 0 && pendingStart == nil
                && !writer.skipToToken(limit: writer.window.end) && writer.pendingError == nil
            {
                // An empty NDJSON stream, or only whitespace after the last value: zero values, fine.
                isFinished = true
                return
            }
            if let error = writer.pendingError { throw fail(error) }
            if let start = pendingStart, !options.allowsComments, writer.window[start] == UInt8(ascii: "/") {
                throw fail(.commentsNotAllowed(at: start))
            }
            if yajlError == .trailingGarbage, let start = pendingStart {
                throw fail(.afterTopLevelValue(at: start))
            }
            throw fail(endOfInputError())
        }
    }

    /// In pull mode, reads a few bytes past an error (without parsing them) so its message and
    /// excerpt show the whole offending token and the rest of its line.
    @exclusivity(unchecked) var readAheadForContext: ((UnsafeMutableRawBufferPointer) -> Int)?

    /// Whether the window holds what an error at `offset` shows of the input after it: the rest
    /// of its line, or 48 bytes (its message looks at most 16 bytes ahead, its excerpt 35).
    private func hasContext(after offset: Int) -> Bool {
        if writer.window.end >= offset + 48 { return true }
        var p = max(offset, writer.window.base)
        while p < writer.window.end {
            if writer.window[p] == 0x0A { return true }
            p += 1
        }
        return false
    }

    private func fail(_ pending: PendingError) -> ParseError {
        if let readAhead = readAheadForContext {
            while !hasContext(after: pending.offset) {
                let space = writer.freeSpace(minimum: 64)
                let count = readAhead(UnsafeMutableRawBufferPointer(rebasing: space.prefix(64)))
                if count <= 0 { break }
                writer.commit(count)
            }
        }
        let error = writer.makeError(pending)
        failure = error
        failedWith = pending
        return error
    }

    /// In push mode (no source to read ahead from), whether ``failure`` still waits for the
    /// input after it, to show the same token and excerpt as a pull reader would: the reader
    /// then asks for more input instead of throwing, and ``finish()`` or enough appended bytes
    /// (``remakeFailure()``) release the error.
    var failureAwaitsContext: Bool {
        guard readAheadForContext == nil, !inputEnded, let failedWith else { return false }
        return !hasContext(after: failedWith.offset)
    }

    /// Push mode, after bytes were appended to a failed input as context (nothing more is
    /// parsed): remakes the error with them.
    func remakeFailure() {
        if let failedWith { failure = writer.makeError(failedWith) }
    }

    // MARK: - Memory

    /// Hands the tape's tokens over for shipping to another thread: moves them into `batch`
    /// (whose storage the tape takes, emptied) and numbers on from where they ended. Keys of
    /// open objects that were on the tape are copied first, for error paths.
    func shipTape(into batch: TokenTape) {
        let tape = writer.tape
        writer.preserveKeys(below: tape.end)
        let (end, arenaEnd) = (tape.end, tape.arenaEnd)
        tape.swapStorage(with: batch)
        tape.reset(base: end, arenaBase: arenaEnd)
    }

    /// Drops input bytes nobody needs any more.
    func compactWindow() {
        if logsEvents {
            // Only the unfinished token's bytes, for the rules of the next calls.
            writer.dropInput(
                below: stoppedLogging ? writer.window.end : min(parsedEnd, pendingStart ?? parsedEnd),
                preferredCapacity: chunkSize + 256)
            return
        }
        // Keep a little context before the unfinished token, for error excerpts.
        writer.dropInput(
            below: min(writer.scanPos, pendingStart ?? writer.scanPos, parsedEnd) - 64, preferredCapacity: chunkSize + 256)
    }

    /// Drops tokens below `index` from the tape and input bytes nobody needs any more.
    func compact(keepingTokensFrom index: Int) {
        if index > tape.base {
            writer.preserveKeys(below: index)
            tape.discard(below: index)
        }
        tape.shrinkIfOversized()
        // Keep the unfinished token, and a little context before it for error excerpts.
        compactWindow()
    }

    // MARK: - Errors

    private func endOfInputError() -> PendingError {
        let end = writer.window.end
        var message = "unexpected end of input"
        if let start = pendingStart ?? (writer.scanPos < end ? writer.scanPos : nil) {
            let what: String
            switch writer.window[start] {
            case UInt8(ascii: "\""): what = "string"
            case UInt8(ascii: "/"): what = "comment"
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): what = "number"
            default: what = "literal"
            }
            let location = writer.location(of: start)
            message += " in the \(what) that starts at \(location)"
        } else if writer.isInBlockComment {
            message += " in a comment"
        }
        if let open = writer.innermost {
            message += "; the \(open.name) opened at \(open.location) is not closed"
        } else if writer.topLevelCount == 0 && pendingStart == nil {
            message += ": the input holds no JSON value"
        }
        return PendingError(.unexpectedEndOfInput, message, at: end)
    }

    /// yajl's "invalid bytes in UTF8 string" points past the string, wherever it spans chunks;
    /// Spool's own check, run from the string's start, finds the offending bytes themselves.
    private func invalidUTF8Error(inStringAt start: Int, before reported: Int) -> PendingError {
        let end = min(reported, writer.window.end)
        if start >= writer.window.base, start + 1 < end, writer.window[start] == UInt8(ascii: "\"") {
            let raw = UnsafeBufferPointer(start: writer.window.pointer(at: start + 1), count: end - start - 1)
            if let failure = StringChecks.check(raw, validateUTF8: true) {
                return PendingError(.invalidString, failure.message, at: start + 1 + failure.index)
            }
        }
        return PendingError(.invalidString, "invalid UTF-8 in string", at: reported)
    }

    /// Turns yajl's error into Spool's: the earliest problem, at the offending token.
    private func mapYajlError(_ yajlError: YajlError, at reported: Int) -> PendingError {
        let errorOffset = min(max(reported, writer.scanPos), writer.window.end)
        // A byte before yajl's error that Spool rejects (form feed) is the earlier problem.
        let foundToken = writer.skipToRejectedToken(limit: min(max(errorOffset, writer.scanPos + 1), writer.window.end))
        if let error = writer.pendingError { return error }
        let at = foundToken ? writer.scanPos : errorOffset

        // An over-long string or number fails as it does when found unfinished at a chunk's end
        // (TapeWriter.scanTail), whatever else follows: on the grammar where it may not stand,
        // else on its length.
        if at < writer.window.end {
            let first = writer.window[at]
            let isString = first == UInt8(ascii: "\"")
            let isNumber = first == UInt8(ascii: "-") || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9"))
            let overLong =
                isString ? errorOffset - at - 1 > options.effectiveMaxStringLength : isNumber && errorOffset - at > options.maxNumberLength
            if overLong {
                if let grammar = writer.grammarError(at: at, isString: isString) { return grammar }
                return isString ? writer.checks.stringTooLong(at: at) : writer.checks.numberTooLong(at: at)
            }
        }

        if !options.allowsComments && at < writer.window.end && writer.window[at] == UInt8(ascii: "/") {
            return .commentsNotAllowed(at: at)
        }
        func error(_ offset: Int, _ message: @escaping (_ found: String) -> String) -> PendingError {
            PendingError(.syntax, at: offset) { window in message(ErrorContext.describeToken(at: offset, in: window)) }
        }
        switch yajlError {
        case .invalidUTF8:
            return invalidUTF8Error(inStringAt: at, before: errorOffset)
        case .unescapedControlCharacter:
            return error(errorOffset) { "invalid character in string: \($0) must be escaped" }
        case .nonHexUnicodeEscape:
            return PendingError(.syntax, "invalid \\u escape: expected 4 hexadecimal digits", at: errorOffset)
        case .invalidEscape:
            return PendingError(.syntax, "invalid escape sequence in string", at: errorOffset)
        case .malformedNumber(let missing):
            // A malformed number where the grammar wants no value (`[1 2.]`): the missing
            // separator is the first problem.
            if let grammar = writer.grammarError(at: at, isString: false) { return grammar }
            let detail: String
            switch missing {
            case .afterDecimalPoint: detail = "a digit is required after the decimal point"
            case .afterExponent: detail = "a digit is required after the exponent"
            case .afterMinusSign: detail = "a digit is required after the minus sign"
            }
            return PendingError(.syntax, "invalid number: \(detail)", at: at)
        case .commentsNotEnabled:
            return .commentsNotAllowed(at: at)
        case .invalidLiteral:
            // Likewise a malformed literal where no value may stand (`[1 tru]`).
            if let grammar = writer.grammarError(at: at, isString: false) { return grammar }
            return error(at) { "invalid literal \($0): expected true, false or null" }
        case .otherLexical:
            if at < writer.window.end && writer.window[at] == 0xEF && writer.window.base == 0 && at == 0 {
                return PendingError(.syntax, "unexpected byte order mark: JSON text must not start with one", at: at)
            }
            // A byte that starts no token: say what the grammar wanted there (after a value, a
            // separator or the container's end).
            return writer.grammarError(at: at, isString: false) ?? .expected("a value", at: at)
        case .afterArrayElement:
            return .expected("',' or ']' after array element", at: at)
        case .afterObjectMember:
            return .expected("',' or '}' after object member", at: at)
        case .invalidObjectKey:
            return .expected("a string key", at: at)
        case .missingColon:
            return .expected("':' after object key", at: at)
        case .trailingGarbage:
            return .afterTopLevelValue(at: at)
        case .unallowedToken:
            let inObject = writer.innermost?.isObject == true
            let expected = inObject && !writer.afterKey ? "a string key" : "a value"
            return .expected(expected, at: at)
        case .prematureEndOfInput:
            return endOfInputError()
        case .unknown(let message):
            return PendingError(.syntax, "syntax error (\(message.trimmingTrailingNewlines))", at: at)
        }
    }
}

extension String {
    fileprivate var trimmingTrailingNewlines: String {
        var text = self
        while let last = text.last, last.isNewline { text.removeLast() }
        return text
    }
}
