/// Builds the token tape from the input: a ``YajlFeed`` decides yajl's calls over the input
/// window, yajl's events go to a ``TapeWriter`` (at once, through ``LiveEventTables``, or
/// logged on another thread and consumed here call by call, ``consume(_:of:)``), and the
/// checks that follow each call turn what went wrong into one ``ParseError``.
///
/// Input is written into the feed (``YajlFeed/freeSpace(minimum:)`` then
/// ``YajlFeed/commit(_:)``, or ``YajlFeed/append(_:)``), ``parseAvailable(force:)`` hands it
/// to yajl, and ``finish()`` ends the input.
///
/// **Errors.** Whatever the chunk size, the same input gives the same ``ParseError``: the
/// earliest problem wins, located at the offending token by Spool's own scanner rather than at
/// yajl's offset (which points past the token, or into a private buffer at end of input).
final class TapeBuilder {
    let feed: YajlFeed
    let writer: TapeWriter
    let options: JSONParsingOptions
    /// The live table yajl calls now (see ``LiveEventTables``): the lean validating one or not.
    @exclusivity(unchecked) private var installedLean = false

    /// Whether ``finish()`` has run successfully.
    @exclusivity(unchecked) private(set) var isFinished = false
    /// The error that stopped parsing; every later call throws it again.
    @exclusivity(unchecked) private(set) var failure: ParseError?
    /// What ``failure`` was made from, to remake it when more context arrives.
    @exclusivity(unchecked) private var failedWith: PendingError?
    /// Whether ``finish()`` has been called (the input has ended, with or without an error).
    @exclusivity(unchecked) private var inputEnded = false

    /// A builder whose writer gets yajl's events as yajl reports them; `shipsTokens`: its
    /// tape goes to another thread's reader (``shipTape(into:)``).
    init(options: JSONParsingOptions, shipsTokens: Bool = false) {
        self.options = options
        let window = YajlFeed.makeWindow(options: options)
        writer = TapeWriter(options: options, window: window, recordsLatePatches: shipsTokens)
        let recorder = YajlEventRecorder(options: options, table: LiveEventTables.recording, consumer: writer)
        feed = YajlFeed(options: options, window: window, recorder: recorder)
    }

    /// A builder that, on an error, reads a few bytes past it from `source` for context.
    convenience init(options: JSONParsingOptions, readingAheadFrom source: any ByteSource, shipsTokens: Bool = false) {
        self.init(options: options, shipsTokens: shipsTokens)
        readAheadForContext = { buffer in (try? source.read(into: buffer)) ?? 0 }
        contextMayArrive = { source.awaitsInput }
    }

    var tape: TokenTape { writer.tape }
    var window: InputWindow { feed.window }
    var chunkSize: Int { feed.chunkSize }

    /// Starts the input at a resumed reader's point (before any byte arrives): the window, the
    /// feed's calls and the line count begin where the point's prefix lies in the input. No
    /// `container`: the point is a top-level value's (NDJSON), inside no array.
    func start(at point: ResumePoint, in container: JSONKeyPath?, index: Int) {
        let first = point.firstLine
        feed.start(at: point.windowBase)
        writer.start(
            at: point.windowBase, line: first.line, lineStart: first.start, textStart: point.location,
            container: container, index: index, inObject: point.opensObject)
    }

    /// Counts lines from `source` only when a location is asked for, if it holds its input
    /// whole in memory (``LinesOnDemand``); before any byte is read, on the one-thread pipeline.
    func countLinesOnDemand(in source: any ByteSource) {
        if let lines = LinesOnDemand(source) { writer.countLines(on: lines) }
    }

    /// Validating records no tokens (only what error messages need) and, without comments,
    /// handles events with the least work.
    func setValidating(_ validating: Bool) {
        writer.skipValues(validating)
    }

    /// Total bytes of input received so far.
    var bytesReceived: Int { feed.bytesReceived }
    /// For tests: see ``YajlFeed/relexedBytes`` and ``YajlFeed/parseCalls``.
    var relexedBytes: Int { feed.relexedBytes }
    var parseCalls: Int { feed.parseCalls }

    // MARK: - Input

    /// Reads up to one chunk from `source` into the window and parses it; at the end of the
    /// input, finishes instead. Returns false once the input has ended.
    /// For pushed input (``ByteSource/awaitsInput``), also false when nothing has arrived yet.
    func readChunk(from source: any ByteSource) throws -> Bool {
        if try feed.read(from: source) == 0 {
            if source.awaitsInput { return false }
            try finish()
            return false
        }
        try parseAvailable()
        return true
    }

    /// Gives yajl the bytes received but not yet parsed, unless they are being held back
    /// (`force`: the input has ended, nothing is held back).
    func parseAvailable(force: Bool = false) throws(ParseError) {
        if let failure { throw failure }
        if isFinished { return }  // (after the first value, with trailing garbage allowed)
        switch feed.checkStart(inputEnded: force) {
        case .waiting: return
        case .ready: break
        case .skippedMark(let offset): writer.skipPrefix(to: offset)
        }
        guard feed.hasCallDue(force: force) else { return }
        if feed.window.end > YajlFeed.maxInputLength { throw fail(TapeBuilder.inputTooLong) }
        try feed.makeCalls(force: force) { end, badWhitespace throws(ParseError) in
            try call(to: end, badWhitespace: badWhitespace)
            return !isFinished
        }
    }

    static var inputTooLong: PendingError {
        PendingError(
            .limitExceeded, "the input is longer than \(YajlFeed.maxInputLength) bytes, the most one reader takes",
            at: YajlFeed.maxInputLength)
    }

    /// Calls yajl over the bytes from the feed's `parsedEnd` to `end`, its events going to the
    /// writer, and checks what it did.
    private func call(to end: Int, badWhitespace: Int?) throws(ParseError) {
        installTable()
        let recorder = feed.recorder
        try parse(to: end, badWhitespace: badWhitespace) { chunk, count, base in
            recorder.parse(chunk, count: count, base: base)
        }
    }

    /// Before a call: the live table for the handlers the writer uses now.
    @inline(__always)
    private func installTable() {
        let lean = writer.usesLeanHandlers
        if lean != installedLean {
            installedLean = lean
            feed.recorder.install(lean ? LiveEventTables.validating : LiveEventTables.recording)
        }
    }

    /// Consumes a call to yajl made on another thread (logged by an ``EventLogger``) over
    /// bytes already in the window, with everything that follows a live call: the same tokens
    /// and errors.
    func consume(_ call: ParseCall, of log: ParseEventLog) throws(ParseError) {
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
            if call.end > YajlFeed.maxInputLength { throw fail(TapeBuilder.inputTooLong) }
            if feed.parsedEnd < call.start {  // (past a byte order mark the logging side skipped)
                feed.skip(to: call.start)
                writer.skipPrefix(to: call.start)
            }
            try parse(to: call.end, badWhitespace: call.badWhitespace) { _, _, _ in status() }
        }
    }

    /// One call to yajl (`run`: yajl itself, or a logged call) over the bytes from the feed's
    /// `parsedEnd` to `end` (`run` gets them and their absolute offset), and the checks that
    /// follow it.
    private func parse(
        to end: Int, badWhitespace: Int?, run: (UnsafePointer<UInt8>, Int, Int) -> YajlStatus
    ) throws(ParseError) {
        let start = feed.parsedEnd
        writer.beginChunk(from: start, to: end)
        let ran: YajlStatus?
        do {
            defer { writer.endChunk() }
            ran = feed.call(to: end, run)
        }
        if let status = ran {
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
                feed.pendingStart = nil
                isFinished = true
                return
            }
        }
        feed.pendingStart = writer.scanTail(limit: end)
        // An unfinished token already over its limit comes before the form feed after it.
        if badWhitespace != nil, let error = writer.pendingError { throw fail(error) }
        if let badWhitespace, options.stopsAfterFirstValue && writer.depth == 0 && writer.topLevelCount == 0,
            let start = feed.pendingStart, start < badWhitespace,
            JSONWriter.isJSONNumber(UnsafeBufferPointer(start: window.pointer(at: start), count: badWhitespace - start))
        {
            // A top-level number that the form feed ends (`1\f`): finish it; the rest is garbage.
            // Inside a string (`"\f"`), an unfinished literal or number (`t\f`, `-\f`), the form
            // feed is an error, reported below at its own place (completing would report the end
            // of whatever input has arrived, which depends on the chunking).
            // (Only on the reader's own thread: this option parses nothing in the background.)
            let recorder = feed.recorder
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
        installTable()
        let recorder = feed.recorder
        try complete { recorder.complete() }
    }

    /// `yajl_complete_parse` (`run`: yajl itself, or a logged call) and the checks that follow it.
    private func complete(_ run: () -> YajlStatus) throws(ParseError) {
        writer.beginCompletion(tokenStart: feed.pendingStart ?? window.end)
        let status = run()
        writer.endCompletion()
        switch status {
        case .ok:
            // After the value: only whitespace and finished comments (unless trailing garbage
            // is allowed: then nothing after it is looked at).
            if !options.stopsAfterFirstValue
                && (writer.skipToToken(limit: window.end) || writer.pendingError != nil || writer.isInBlockComment)
            {
                throw fail(writer.pendingError ?? endOfInputError())
            }
            isFinished = true
        case .cancelled:
            throw fail(writer.pendingError ?? endOfInputError())
        case .failed(let yajlError, _):
            if let start = feed.pendingStart, writer.scanPos > start { feed.pendingStart = nil }
            if options.allowsMultipleValues && writer.depth == 0 && feed.pendingStart == nil
                && !writer.skipToToken(limit: window.end) && writer.pendingError == nil
            {
                // An empty NDJSON stream, or only whitespace after the last value: zero values, fine.
                isFinished = true
                return
            }
            if let error = writer.pendingError { throw fail(error) }
            if let start = feed.pendingStart, !options.allowsComments, window[start] == UInt8(ascii: "/") {
                throw fail(.commentsNotAllowed(at: start))
            }
            if yajlError == .trailingGarbage, let start = feed.pendingStart {
                throw fail(.afterTopLevelValue(at: start))
            }
            throw fail(endOfInputError())
        }
    }

    /// Reads a few bytes past an error (without parsing them) so its message and excerpt show
    /// the whole offending token and the rest of its line.
    @exclusivity(unchecked) var readAheadForContext: ((UnsafeMutableRawBufferPointer) -> Int)?
    /// Whether more input may still arrive for an error's context when a read ahead finds
    /// none (pushed input, before its end).
    @exclusivity(unchecked) private var contextMayArrive: () -> Bool = { false }

    /// Whether the window holds what an error at `offset` shows of the input after it: the rest
    /// of its line, or 48 bytes (its message looks at most 16 bytes ahead, its excerpt 35).
    private func hasContext(after offset: Int) -> Bool {
        if window.end >= offset + 48 { return true }
        var p = max(offset, window.base)
        while p < window.end {
            if window[p] == 0x0A { return true }
            p += 1
        }
        return false
    }

    /// Reads ahead until the window holds the context of an error at `offset`, or nothing more comes.
    private func readContext(after offset: Int) {
        guard let readAhead = readAheadForContext else { return }
        while !hasContext(after: offset) {
            let space = feed.freeSpace(minimum: 64)
            let count = readAhead(UnsafeMutableRawBufferPointer(rebasing: space.prefix(64)))
            if count <= 0 { break }
            feed.commit(count)
        }
    }

    private func fail(_ pending: PendingError) -> ParseError {
        readContext(after: pending.offset)
        let error = writer.makeError(pending)
        failure = error
        failedWith = pending
        return error
    }

    /// For pushed input, whether ``failure`` still waits for the input after it, to show the
    /// same token and excerpt as a pull reader would: the reader then asks for more input
    /// instead of throwing, and ``finish()`` or enough pushed bytes (``readMoreContext()``)
    /// release the error.
    var failureAwaitsContext: Bool {
        guard !inputEnded, let failedWith, contextMayArrive() else { return false }
        return !hasContext(after: failedWith.offset)
    }

    /// For pushed input, once more has arrived after an error (nothing more is parsed): reads
    /// it as the error's context and remakes the error with it.
    func readMoreContext() {
        guard let failedWith else { return }
        readContext(after: failedWith.offset)
        failure = writer.makeError(failedWith)
    }

    // MARK: - Memory

    /// Hands the tape's tokens over for shipping to another thread: moves them into `batch`
    /// (whose storage the tape takes, emptied) and numbers on from where they ended. Keys of
    /// open objects that were on the tape are copied first, for error paths.
    func shipTape(into batch: TokenTape) {
        let tape = writer.tape
        writer.preserveKeys(below: tape.end)
        let (end, arenaEnd) = (tape.end, tape.arenaEnd)
        batch.textIsValidUTF8 = tape.textIsValidUTF8
        tape.swapStorage(with: batch)
        tape.reset(base: end, arenaBase: arenaEnd)
    }

    /// Drops input bytes nobody needs any more: it keeps the unfinished token, and a little
    /// context before it for error excerpts.
    func compactWindow() {
        let offset = min(writer.scanPos, feed.pendingStart ?? writer.scanPos, feed.parsedEnd) - 64
        writer.willDropInput(below: offset)
        feed.discard(below: offset)
    }

    /// Drops tokens below `index` from the tape and input bytes nobody needs any more.
    func compact(keepingTokensFrom index: Int) {
        if index > tape.base {
            writer.preserveKeys(below: index)
            tape.discard(below: index)
        }
        tape.shrinkIfOversized()
        compactWindow()
    }
}
