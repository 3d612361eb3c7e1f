/// The one consumer of yajl's events (``ParseEvent``), whichever thread ran yajl: turns each
/// into a ``RawToken`` on the tape.
///
/// yajl reports where a token *ends* (`yajl_get_bytes_consumed`) but not where it starts, nor
/// any line numbers. The writer derives each start from the token itself: a container is one
/// byte, a number or literal is exactly its text, and a string whose decoded length plus its
/// quotes reaches back to an unescaped `"` had no escapes (a `"` inside a string is always
/// escaped); only strings with escapes are searched backwards. Lines come from a `memchr` over
/// each chunk, advanced as tokens pass (JSON has newlines only between tokens). With comments
/// allowed, a scanner walks the bytes between tokens instead.
///
/// Each event also goes through what yajl does not enforce: the depth, string and number
/// limits, strict UTF-8, and valid surrogate escapes. A failing handler stores a
/// ``PendingError`` and returns `false`, which cancels the parse; nothing throws through C.
///
/// Its state is four values of one concern each, which change only through their own methods
/// and this class's: ``TokenPositions`` (the current call's buffer, lines), ``GrammarState``
/// (open containers, the last event, the bytes between tokens, top-level values),
/// ``StrictnessChecks`` (limits) and ``ErrorContext`` (the error found). Other types call
/// methods; they set nothing.
final class TapeWriter {
    /// The tape tokens go to. A background tape builder ships its contents by swapping storage.
    let tape: TokenTape
    let checks: StrictnessChecks
    private let allowsMultipleValues: Bool
    /// Whether the tape goes to a reader on another thread (``BackgroundPipeline``): then a
    /// container that closes after its start token has gone is recorded as a patch.
    private let recordsLatePatches: Bool

    /// The input: the bytes of unfinished tokens and a little context before them. The
    /// ``YajlFeed`` owns and changes it; the writer only reads it.
    let window: InputWindow
    @exclusivity(unchecked) private(set) var positions: TokenPositions
    @exclusivity(unchecked) private(set) var grammar = GrammarState()
    @exclusivity(unchecked) private(set) var errors = ErrorContext()
    /// When false, only what error messages need is kept, no tokens: for validating fast.
    @exclusivity(unchecked) private(set) var recordsValues = true
    /// Ends of containers whose start tokens were shipped already (see `recordsLatePatches`).
    @exclusivity(unchecked) private var latePatches: [ContainerPatch] = []

    #if DEBUG
    /// The last token's start, for the assertion that they increase.
    @exclusivity(unchecked) private var lastTokenStart = -1
    #endif

    /// A writer of the tokens whose bytes arrive in `window`.
    init(options: JSONParsingOptions, window: InputWindow, recordsLatePatches: Bool = false) {
        checks = StrictnessChecks(options: options)
        allowsMultipleValues = options.allowsMultipleValues
        self.recordsLatePatches = recordsLatePatches
        tape = TokenTape()
        tape.textIsValidUTF8 = options.validatesUTF8
        self.window = window
        positions = TokenPositions(window: window)
    }

    deinit {
        grammar.deallocate()
    }

    // MARK: - What others read

    /// The first problem found, not yet rendered.
    var pendingError: PendingError? { errors.pending }
    var topLevelCount: Int { grammar.topLevelCount }
    /// Open arrays and objects.
    var depth: Int { grammar.depth }
    /// The innermost open container, if any.
    var innermost: OpenContainer? { grammar.innermost }

    /// How an error names the innermost open container: `the array opened at 1:6`; for the
    /// array a resumed reader stands in for (opened before the input it reads), its path and
    /// the point resumed at.
    func describeOpening(_ open: OpenContainer) -> String {
        if let resumed, let path = resumed.container, open.location.byteOffset < resumed.textStart.byteOffset {
            let container = path.isEmpty ? "at the root" : "at \(path)"
            return "the \(resumed.inObject ? "object" : "array") \(container), resumed in at \(resumed.textStart),"
        }
        // (Lines counted on demand: the location noted when it opened has no line yet.)
        let location = positions.linesOnDemand?.location(of: open.location.byteOffset) ?? open.location
        return "the \(open.name) opened at \(location)"
    }
    /// Where the bytes after the last token have been looked at up to.
    var scanPos: Int { grammar.scanPos }
    var isInBlockComment: Bool { grammar.inBlockComment }
    var afterKey: Bool { grammar.afterKey }

    // MARK: - Modes and calls

    /// Validating keeps no tokens, only what error messages need, and handles events with the
    /// least work (``consume(_:text:)``).
    func skipValues(_ skipping: Bool) {
        recordsValues = !skipping
    }

    /// Whether events go to the lean validating handlers: when validating without comments.
    /// With comments allowed, the full handlers run (recording nothing): only they scan the
    /// bytes between tokens, where a form feed or vertical tab is found (the per-chunk scan
    /// that finds them otherwise cannot tell them from a comment's text).
    var usesLeanHandlers: Bool { !recordsValues && !checks.allowsComments }

    /// Notes that yajl is about to be given the window's bytes from `start` to `end`.
    /// Starts the input at `offset`: the bytes before it (a byte order mark) are not JSON text.
    func skipPrefix(to offset: Int) {
        grammar.skipPrefix(to: offset)
    }

    /// For a resumed reader (``ResumePoint``): where the input's own bytes start (excerpts
    /// show none of the prefix before them), and the path of the array resumed in with the
    /// index of its first element read, which errors' paths start from; no path for a reader
    /// resumed at a top-level value (NDJSON), whose errors' paths are the serial reader's.
    private var resumed: (textStart: SourceLocation, container: JSONKeyPath?, index: Int, inObject: Bool)?

    /// Starts at `offset`, on `line`, which starts at `lineStart` (a resumed reader's, whose
    /// own bytes start at `textStart`, inside the array at `container`, at element `index`;
    /// with no container, at a top-level value; `inObject`: inside the object at `container`,
    /// at member `index`).
    func start(
        at offset: Int, line: Int, lineStart: Int, textStart: SourceLocation, container: JSONKeyPath?, index: Int, inObject: Bool = false
    ) {
        grammar.skipPrefix(to: offset)
        positions.start(at: offset, line: line, lineStart: lineStart)
        resumed = (textStart, container, index, inObject)
    }

    /// Counts lines only when a location is asked for, in `lines`, on this writer and its tape
    /// (input held whole in memory, before any byte is given to yajl).
    func countLines(on lines: LinesOnDemand) {
        positions.countLines(on: lines)
        tape.linesOnDemand = lines
    }

    func beginChunk(from start: Int, to end: Int) {
        positions.beginChunk(from: start, to: end, in: window, scanned: checks.allowsComments)
    }

    /// Notes that the `yajl_parse` call has returned: pointers no longer point into its buffer.
    func endChunk() {
        positions.endChunk()
    }

    /// Notes that yajl is finishing the input; a token it completes then starts at `tokenStart`.
    func beginCompletion(tokenStart: Int) {
        positions.beginCompletion(tokenStart: tokenStart)
    }

    func endCompletion() {
        positions.endCompletion()
    }

    /// The ends of containers whose start tokens were shipped before, exchanged for `patches`
    /// (emptied, for reuse).
    func swapLatePatches(with patches: inout [ContainerPatch]) {
        swap(&patches, &latePatches)
    }

    /// Where yajl's `bytes` lie in the current chunk, if they point into it.
    @inline(__always)
    func chunkOffset(of bytes: UnsafeRawPointer?) -> Int? {
        positions.chunkOffset(of: bytes)
    }

    // MARK: - Events

    /// Consumes one event whose text (key, string, number) is at `text`, whether yajl reported
    /// it a moment ago on this thread (``YajlEventRecorder``'s callbacks hand it over at once) or
    /// on another thread that logged it (``BackgroundPipeline``). Returns false, with
    /// ``pendingError`` set, when the input breaks a rule: a live callback then cancels the
    /// parse, a logged call stops there.
    @inline(__always)
    func consume(_ event: ParseEvent, text: UnsafeRawPointer?) -> Bool {
        usesLeanHandlers ? consumeValidating(event, text: text) : consumeRecording(event, text: text)
    }

    /// ``consume(_:text:)`` while recording values.
    @inline(__always)
    func consumeRecording(_ event: ParseEvent, text: UnsafeRawPointer?) -> Bool {
        switch event.kind {
        case .null: return didParseLiteral(.null, consumed: event.consumed)
        case .true: return didParseLiteral(.true, consumed: event.consumed)
        case .false: return didParseLiteral(.false, consumed: event.consumed)
        case .number: return didParseNumber(event, text: text)
        case .string: return recordString(event, text: text)
        case .key: return recordKey(event, text: text)
        case .startMap: return didStartContainer(isObject: true, consumed: event.consumed)
        case .endMap: return didEndContainer(isObject: true, consumed: event.consumed)
        case .startArray: return didStartContainer(isObject: false, consumed: event.consumed)
        case .endArray: return didEndContainer(isObject: false, consumed: event.consumed)
        }
    }

    /// ``consume(_:text:)`` while validating: the lean handlers.
    @inline(__always)
    func consumeValidating(_ event: ParseEvent, text: UnsafeRawPointer?) -> Bool {
        switch event.kind {
        case .null: return validateLiteral(.null, consumed: event.consumed)
        case .true: return validateLiteral(.true, consumed: event.consumed)
        case .false: return validateLiteral(.false, consumed: event.consumed)
        case .number: return validateNumber(event, text: text)
        case .string: return validateString(event, text: text)
        case .key: return validateKey(event, text: text)
        case .startMap: return validateContainerStart(isObject: true, consumed: event.consumed)
        case .endMap: return validateContainerEnd(isObject: true, consumed: event.consumed)
        case .startArray: return validateContainerStart(isObject: false, consumed: event.consumed)
        case .endArray: return validateContainerEnd(isObject: false, consumed: event.consumed)
        }
    }

    /// Consumes logged events, whose in-chunk text lies in the current chunk
    /// (``beginChunk(from:to:)``) and whose other text lies in `side`. Returns false where one
    /// was rejected.
    func consume(_ events: UnsafeBufferPointer<ParseEvent>, side: UnsafeRawPointer?) -> Bool {
        usesLeanHandlers ? consumeValidating(events, side: side) : consumeRecording(events, side: side)
    }

    // One function per loop: with both loops in one, the optimizer called the handlers out of
    // line, once per event (callgrind, 10 MB catalog, the cursor in the background: 630.3M ->
    // 602.4M instructions).

    @inline(never)
    private func consumeRecording(_ events: UnsafeBufferPointer<ParseEvent>, side: UnsafeRawPointer?) -> Bool {
        for event in events where !consumeRecording(event, text: text(of: event, side: side)) { return false }
        return true
    }

    @inline(never)
    private func consumeValidating(_ events: UnsafeBufferPointer<ParseEvent>, side: UnsafeRawPointer?) -> Bool {
        for event in events where !consumeValidating(event, text: text(of: event, side: side)) { return false }
        return true
    }

    @inline(__always)
    private func text(of event: ParseEvent, side: UnsafeRawPointer?) -> UnsafeRawPointer? {
        event.inChunk ? positions.chunkPointer + event.text : side.map { $0 + event.text }
    }

    /// Stores the first problem found; false, for a handler to return.
    @inline(never)
    private func fail(_ error: PendingError) -> Bool {
        errors.pending = error
        return false
    }

    /// ``fail(_:)`` for a handler that returns an optional.
    private func failed<T>(_ error: PendingError) -> T? {
        _ = fail(error)
        return nil
    }

    // MARK: - Token starts

    @inline(__always)
    private func tokenEnd(_ consumed: Int) -> Int {
        // (The window's end is read only while finishing.)
        positions.finishing ? window.end : positions.chunkBase &+ consumed
    }

    /// Moves the line count past every newline before `offset`: one comparison, unless a
    /// newline lies before it (then the window is read, out of line).
    @inline(__always)
    private func passLines(to offset: Int) {
        if offset > positions.nextNewline { advanceLines(to: offset) }
    }

    @inline(never)
    private func advanceLines(to offset: Int) {
        positions.advanceLines(to: offset, in: window)
    }

    /// The start of a token of `length` bytes ending at `end` (containers, numbers, literals).
    @inline(__always)
    private func fixedStart(end: Int, length: Int) -> Int? {
        if checks.allowsComments { return scannedStart(end: end) }
        return positions.finishing ? positions.finishingTokenStart : end &- length
    }

    /// The start of a string or key ending at `end` whose decoded text has `decodedCount`
    /// bytes, and whether its source has escapes.
    @inline(__always)
    private func stringStart(end: Int, decodedCount: Int) -> (start: Int, hasEscapes: Bool)? {
        if checks.allowsComments {
            guard let start = scannedStart(end: end) else { return nil }
            return (start, end &- start &- 2 != decodedCount)
        }
        let quote = end &- decodedCount &- 2
        if quote >= grammar.scanPos && quote >= window.base && window[quote] == UInt8(ascii: "\"")
            && (quote == window.base || window[quote - 1] != UInt8(ascii: "\\"))
        {
            return (quote, false)
        }
        return (escapedStringStart(end: end), true)
    }

    /// The opening quote of a string with escapes (or split across calls) ending at `end`.
    /// Only whitespace and a separator lie between the token before (where the scan stands)
    /// and it, so the first quote after the scan opens it.
    @inline(never)
    private func escapedStringStart(end: Int) -> Int {
        let opening = window.firstQuote(from: grammar.scanPos, to: end) ?? window.openingQuote(end: end, low: grammar.scanPos)
        assert(opening == window.openingQuote(end: end, low: grammar.scanPos), "a token between the scan and the string")
        return opening
    }

    /// A string's or key's start (its opening quote), end (past its closing quote) and whether
    /// its source has escapes; nil (with the error stored) when its source is longer than
    /// `maxStringLength`, checked before its text is copied or checked.
    @inline(__always)
    private func stringBounds(_ event: ParseEvent) -> (start: Int, end: Int, hasEscapes: Bool)? {
        if event.inChunk {
            // Verbatim in the chunk: the source between the quotes is exactly the text.
            let content = positions.chunkBase &+ event.text
            if event.count > checks.maxStringLength { return failed(checks.stringTooLong(at: content &- 1, in: window)) }
            return (content &- 1, content &+ event.count &+ 1, false)
        }
        return stringBoundsFromEnd(decodedCount: event.count, consumed: event.consumed)
    }

    /// ``stringBounds(_:)`` for a string that yajl decoded (it had escapes) or took from its
    /// own buffer (it spanned chunks): found back from where the string ends.
    @inline(never)
    private func stringBoundsFromEnd(decodedCount count: Int, consumed: Int) -> (start: Int, end: Int, hasEscapes: Bool)? {
        let end = tokenEnd(consumed)
        guard let (start, hasEscapes) = stringStart(end: end, decodedCount: count) else { return nil }
        if end &- start &- 2 > checks.maxStringLength { return failed(checks.stringTooLong(at: start, in: window)) }
        return (start, end, hasEscapes)
    }

    /// A number's start and end.
    @inline(__always)
    private func numberBounds(_ event: ParseEvent) -> (start: Int, end: Int)? {
        if event.inChunk {
            let start = positions.chunkBase &+ event.text
            return (start, start &+ event.count)
        }
        return numberBoundsFromEnd(count: event.count, consumed: event.consumed)
    }

    @inline(never)
    private func numberBoundsFromEnd(count: Int, consumed: Int) -> (start: Int, end: Int)? {
        guard let start = fixedStart(end: tokenEnd(consumed), length: count) else { return nil }
        return (start, start &+ count)
    }

    @inline(never)
    private func scannedStart(end: Int) -> Int? {
        if grammar.skipToToken(limit: end, in: window, checks: checks, error: &errors.pending) { return grammar.scanPos }
        return errors.pending == nil ? max(grammar.scanPos, end &- 1) : nil
    }

    /// Where text that lies verbatim in the current chunk starts (past its opening quote), for
    /// a key or string inside a container and within the length limit: the common case the
    /// lean and the recording handlers take. Nil when a full handler must look at it.
    @inline(__always)
    private func plainTextContent(_ event: ParseEvent) -> Int? {
        guard event.inChunk, grammar.depth > 0, event.count <= checks.maxStringLength else { return nil }
        return positions.chunkBase &+ event.text
    }

    /// Checks a string's raw source text (see ``StrictnessChecks``); false, with the error
    /// stored, when it breaks a rule.
    @inline(never)
    private func checkRawText(start: Int, end: Int, count: Int) -> Bool {
        var unchecked = false
        let passed = checks.checkRawText(start: start, end: end, in: window, error: &errors.pending, unchecked: &unchecked)
        // Text the window no longer held was not checked, nor was it if its source is shorter
        // than the text itself (escapes only ever make the source longer), so not where it was
        // looked for: the tape no longer vouches for its text (``TokenTape/textIsValidUTF8``),
        // and strings made from it are checked.
        if unchecked || end &- start &- 2 < count { tape.textIsValidUTF8 = false }
        return passed
    }

    // MARK: - Recording

    @inline(__always)
    @discardableResult
    private func record(_ kind: RawToken.Kind, at start: Int, payload: Int, length: Int) -> Int {
        #if DEBUG
        assert(start > lastTokenStart, "token starts must increase")
        lastTokenStart = start
        #endif
        passLines(to: start)
        tape.noteLine(positions.line, startingAt: positions.lineStart)
        return tape.append(RawToken(offset: start, payload: payload, length: UInt32(truncatingIfNeeded: length), kind: kind))
    }

    /// Counts a value starting at `start` in its container, or checks a top-level value's
    /// separation from the one before; false (error stored) when two bare top-level values touch.
    @inline(__always)
    private func beginValue(at start: Int) -> Bool {
        grammar.beginValue(at: start) || fail(.expected("whitespace between top-level values", at: start))
    }

    // MARK: - The full handlers

    @inline(__always)
    private func didStartContainer(isObject: Bool, consumed: Int) -> Bool {
        let end = tokenEnd(consumed)
        guard let start = fixedStart(end: end, length: 1) else { return false }
        if grammar.depth >= checks.maxDepth { return fail(checks.depthExceeded(at: start)) }
        guard beginValue(at: start) else { return false }
        var index = -1
        if recordsValues {
            index = record(isObject ? .objectStart : .arrayStart, at: start, payload: -1, length: 0)
        } else {
            passLines(to: start)
        }
        grammar.enter(OpenContainer(tokenIndex: index, isObject: isObject, location: positions.locationOnLine(start)), end: start &+ 1)
        return true
    }

    @inline(__always)
    private func didEndContainer(isObject: Bool, consumed: Int) -> Bool {
        let end = tokenEnd(consumed)
        guard let start = fixedStart(end: end, length: 1), grammar.depth > 0 else { return false }
        let (tokenIndex, children) = grammar.leave()
        if recordsValues {
            let index = record(isObject ? .objectEnd : .arrayEnd, at: start, payload: tokenIndex, length: children)
            if !tape.close(tokenIndex, end: index, children: children) && recordsLatePatches && tokenIndex >= 0 {
                latePatches.append(ContainerPatch(start: tokenIndex, end: index, children: children))
            }
        }
        grammar.completeValue(end: start &+ 1, bare: false)
        return true
    }

    @inline(__always)
    private func didParseKey(_ event: ParseEvent, text bytes: UnsafeRawPointer?) -> Bool {
        let count = event.count
        guard let (start, end, hasEscapes) = stringBounds(event) else { return false }
        var index = -1
        if recordsValues {
            let (payload, isASCII) = tape.appendText(bytes, count: count)
            if checks.needsRawCheck(bytes, count: count, hasEscapes: hasEscapes, isASCII: isASCII) {
                guard checkRawText(start: start, end: end, count: count) else { return false }
            }
            index = record(.key, at: start, payload: payload, length: count)
        } else if checks.needsRawCheck(bytes, count: count, hasEscapes: hasEscapes, isASCII: nil) {
            guard checkRawText(start: start, end: end, count: count) else { return false }
        }
        grammar.noteKey(token: index, sourceLow: start, end: end)
        return true
    }

    @inline(__always)
    private func didParseString(_ event: ParseEvent, text bytes: UnsafeRawPointer?) -> Bool {
        let count = event.count
        guard let (start, end, hasEscapes) = stringBounds(event) else { return false }
        if recordsValues {
            let (payload, isASCII) = tape.appendText(bytes, count: count)
            if checks.needsRawCheck(bytes, count: count, hasEscapes: hasEscapes, isASCII: isASCII) {
                guard checkRawText(start: start, end: end, count: count) else { return false }
            }
            guard beginValue(at: start) else { return false }
            record(.string, at: start, payload: payload, length: count)
        } else {
            if checks.needsRawCheck(bytes, count: count, hasEscapes: hasEscapes, isASCII: nil) {
                guard checkRawText(start: start, end: end, count: count) else { return false }
            }
            guard beginValue(at: start) else { return false }
        }
        grammar.completeValue(end: end, bare: false)
        return true
    }

    @inline(__always)
    private func didParseNumber(_ event: ParseEvent, text bytes: UnsafeRawPointer?) -> Bool {
        let count = event.count
        guard let (start, _) = numberBounds(event) else { return false }
        if count > checks.maxNumberLength { return fail(checks.numberTooLong(at: start)) }
        guard beginValue(at: start) else { return false }
        if recordsValues {
            let payload = tape.appendBytes(bytes, count: count)
            record(.number, at: start, payload: payload, length: count)
        }
        grammar.completeValue(end: start &+ count, bare: true)
        return true
    }

    @inline(__always)
    private func didParseLiteral(_ kind: RawToken.Kind, consumed: Int) -> Bool {
        let end = tokenEnd(consumed)
        guard let start = fixedStart(end: end, length: kind == .false ? 5 : 4), beginValue(at: start) else {
            return false
        }
        if recordsValues { record(kind, at: start, payload: 0, length: 0) }
        grammar.completeValue(end: end, bare: true)
        return true
    }

    // For the common-case handlers below: calling the full handlers out of line keeps the
    // common case small, so it saves few registers.

    @inline(never)
    private func fullString(_ event: ParseEvent, text: UnsafeRawPointer?) -> Bool { didParseString(event, text: text) }

    @inline(never)
    private func fullKey(_ event: ParseEvent, text: UnsafeRawPointer?) -> Bool { didParseKey(event, text: text) }

    @inline(never)
    private func fullNumber(_ event: ParseEvent, text: UnsafeRawPointer?) -> Bool { didParseNumber(event, text: text) }

    @inline(never)
    private func fullLiteral(_ kind: RawToken.Kind, consumed: Int) -> Bool { didParseLiteral(kind, consumed: consumed) }

    @inline(never)
    private func fullContainerStart(isObject: Bool, consumed: Int) -> Bool {
        didStartContainer(isObject: isObject, consumed: consumed)
    }

    @inline(never)
    private func fullContainerEnd(isObject: Bool, consumed: Int) -> Bool {
        didEndContainer(isObject: isObject, consumed: consumed)
    }

    // MARK: - Recording: the common case

    // A key or string verbatim in the current chunk (yajl hands such text as a pointer into it,
    // so it had no escapes) inside a container, within the length limit: its text is copied,
    // checked only when it is not ASCII, and the token appended. Everything else (escapes, text
    // split across chunks, top-level values, limits, comments) goes to the full handlers.

    /// Copies plain text to the arena and checks it: its arena offset, or nil on an error.
    @inline(__always)
    private func appendPlainText(_ bytes: UnsafeRawPointer?, count: Int, start: Int) -> Int? {
        let (payload, isASCII) = tape.appendText(bytes, count: count)
        if !isASCII && checks.validatesUTF8 && !checkRawText(start: start, end: start &+ count &+ 2, count: count) { return nil }
        return payload
    }

    @inline(__always)
    private func recordKey(_ event: ParseEvent, text bytes: UnsafeRawPointer?) -> Bool {
        let count = event.count
        guard let content = plainTextContent(event) else { return fullKey(event, text: bytes) }
        let start = content &- 1
        guard let payload = appendPlainText(bytes, count: count, start: start) else { return false }
        let index = record(.key, at: start, payload: payload, length: count)
        grammar.noteKey(token: index, sourceLow: start, end: start &+ count &+ 2)
        return true
    }

    @inline(__always)
    private func recordString(_ event: ParseEvent, text bytes: UnsafeRawPointer?) -> Bool {
        let count = event.count
        guard let content = plainTextContent(event) else { return fullString(event, text: bytes) }
        let start = content &- 1
        guard let payload = appendPlainText(bytes, count: count, start: start) else { return false }
        record(.string, at: start, payload: payload, length: count)
        grammar.containedValueDone(end: start &+ count &+ 2)
        return true
    }

    // MARK: - Validating: the common case

    // An event inside a container whose text is plain ASCII, verbatim in the current chunk and
    // within the limits: only what an error message would need is updated (element counts,
    // the current key's position, open containers). Everything else goes to the full handlers:
    // top-level values, the depth limit, long text, escaped or non-ASCII text, text split
    // across chunks. Not used when comments are allowed (no text is then "in the chunk").

    /// The end of a string or key that needs no checks beyond yajl's, or nil when the full
    /// handler must look at it.
    @inline(__always)
    private func leanStringEnd(_ event: ParseEvent, text bytes: UnsafeRawPointer?) -> Int? {
        let count = event.count
        guard let bytes, let content = plainTextContent(event) else { return nil }
        if checks.validatesUTF8
            && !StringChecks.isASCII(UnsafeBufferPointer(start: bytes.assumingMemoryBound(to: UInt8.self), count: count))
        {
            return nil
        }
        return content &+ count &+ 1
    }

    @inline(__always)
    private func validateString(_ event: ParseEvent, text bytes: UnsafeRawPointer?) -> Bool {
        guard let end = leanStringEnd(event, text: bytes) else { return fullString(event, text: bytes) }
        grammar.containedValueDone(end: end)
        return true
    }

    @inline(__always)
    private func validateKey(_ event: ParseEvent, text bytes: UnsafeRawPointer?) -> Bool {
        guard let end = leanStringEnd(event, text: bytes) else { return fullKey(event, text: bytes) }
        grammar.noteKey(token: -1, sourceLow: grammar.scanPos, end: end)
        return true
    }

    @inline(__always)
    private func validateNumber(_ event: ParseEvent, text bytes: UnsafeRawPointer?) -> Bool {
        if grammar.depth == 0 || positions.finishing || event.count > checks.maxNumberLength {
            return fullNumber(event, text: bytes)
        }
        guard let (_, end) = numberBounds(event) else { return false }
        grammar.containedValueDone(end: end)
        return true
    }

    @inline(__always)
    private func validateLiteral(_ kind: RawToken.Kind, consumed: Int) -> Bool {
        if grammar.depth == 0 || positions.finishing { return fullLiteral(kind, consumed: consumed) }
        grammar.containedValueDone(end: positions.chunkBase &+ consumed)
        return true
    }

    @inline(__always)
    private func validateContainerStart(isObject: Bool, consumed: Int) -> Bool {
        if grammar.depth == 0 || grammar.depth >= checks.maxDepth || positions.finishing {
            return fullContainerStart(isObject: isObject, consumed: consumed)
        }
        let end = positions.chunkBase &+ consumed
        let start = end &- 1
        passLines(to: start)
        grammar.enterContained(OpenContainer(tokenIndex: -1, isObject: isObject, location: positions.locationOnLine(start)), end: end)
        return true
    }

    @inline(__always)
    private func validateContainerEnd(isObject: Bool, consumed: Int) -> Bool {
        if grammar.depth <= 1 || positions.finishing { return fullContainerEnd(isObject: isObject, consumed: consumed) }
        grammar.leaveContained(end: positions.chunkBase &+ consumed)
        return true
    }
}

// MARK: - For the tape builder

extension TapeWriter {
    // Input.

    /// Before the feed drops the input below `offset`: counts the lines in it and copies the
    /// keys of open objects that lie in it.
    func willDropInput(below offset: Int) {
        let offset = max(offset, window.base)
        positions.pass(to: offset, in: window)
        grammar.preserveSourceKeys(below: offset, window: window)
    }

    /// Copies the keys of open objects whose key tokens are about to leave the tape.
    func preserveKeys(below index: Int) {
        grammar.preserveKeys(below: index, tape: tape)
    }

    // The bytes between tokens (see GrammarState's scanner); a problem found is stored.

    /// Skips to the next token before `limit`: true when one starts at ``scanPos``.
    func skipToToken(limit: Int) -> Bool {
        grammar.skipToToken(limit: limit, in: window, checks: checks, error: &errors.pending)
    }

    /// Skips to the token yajl rejected (past at most one allowed separator): true when one
    /// starts at ``scanPos`` before `limit`.
    func skipToRejectedToken(limit: Int) -> Bool {
        grammar.skipToRejectedToken(limit: limit, in: window, checks: checks, error: &errors.pending)
    }

    /// After a call to yajl that ended at `limit`: the start of a token it began and did not
    /// finish, if any.
    func scanTail(limit: Int) -> Int? {
        grammar.scanTail(
            limit: limit, in: window, checks: checks, allowsMultipleValues: allowsMultipleValues, error: &errors.pending)
    }

    /// The error for a form feed or vertical tab at `offset`, once yajl has parsed everything before it.
    func badWhitespaceError(at offset: Int) -> PendingError {
        grammar.badWhitespaceError(at: offset, in: window, checks: checks, error: &errors.pending)
    }

    /// The syntax error for a token at `start` that the grammar does not allow there, if any.
    func grammarError(at start: Int, isString: Bool) -> PendingError? {
        grammar.grammarError(at: start, isString: isString, allowsMultipleValues: allowsMultipleValues)
    }

    // Errors.

    /// The location of an absolute offset in the bytes given to yajl.
    func location(of offset: Int) -> SourceLocation {
        positions.location(of: offset, in: window)
    }

    /// Renders an error against what the window holds now: location, path, excerpt, message.
    func makeError(_ pending: PendingError) -> ParseError {
        let location = location(of: pending.offset)
        var lineStart = positions.lineStart(of: pending.offset, in: window)
        var path = grammar.currentPath(tape: tape, window: window)
        if let resumed {
            lineStart = max(lineStart, min(resumed.textStart.byteOffset, pending.offset))
            if let container = resumed.container {
                var components = path.components
                if case .index(let index)? = components.first { components[0] = .index(resumed.index + index) }
                path = container + JSONKeyPath(components)
            }
        }
        let (excerpt, caret) = ErrorContext.excerpt(around: pending.offset, lineStart: lineStart, in: window)
        return ParseError(
            kind: pending.kind, message: pending.message(window), location: location,
            path: path, excerpt: excerpt, excerptCaret: caret)
    }
}
