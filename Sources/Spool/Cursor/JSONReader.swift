#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A pull cursor over JSON text: hands out one token at a time, reading input as it goes.
///
/// ```swift
/// let reader = JSONReader(.file("bands.json"))
/// while let token = try reader.next() {
///     if token == .key && reader.textEquals("name") {
///         _ = try reader.next()
///         print(reader.path, reader.text ?? "")   // objects[0].name Beatles
///     }
/// }
/// ```
///
/// yajl parses a chunk at a time onto a compact token tape; the reader pulls tokens off it and
/// drops them once passed, so memory stays bounded by the chunk size (plus the longest token),
/// whatever the size of the input. For a file, descriptor or memory larger than four chunks,
/// reading and yajl run on a background thread at most three batches of two chunks ahead of
/// the reader, and the reader's thread turns yajl's events into tokens
/// (``JSONParsingOptions/parsesInBackground``); the tokens, errors and memory bound are the
/// same either way. (``JSONStream`` and `decodeValue`, whose own work is heavier, leave all of
/// parsing to the background thread.) Every token has its logical ``path`` and source
/// ``location``. Key and string text is compared without allocating (``textEquals(_:)``,
/// ``withUTF8(_:)``); a `String` is made only when ``text`` is asked for.
///
/// Errors: ``ParseError`` for bad JSON (with location, path and excerpt) and ``InputError``
/// when the input cannot be read. After an error, every call throws it again.
///
/// A reader is a single-threaded object: use it from one task or thread at a time.
public final class JSONReader {
    /// What a reader is built for, fixed at construction: it decides (with the input and the
    /// options) how the reader's bytes become tokens (``PipelineFactory``).
    enum Work {
        /// Tokens for a cursor: the reader's own work is light, so only yajl may go to a
        /// background thread (``BackgroundPipeline``), and the tape writer stays here.
        case tokens
        /// Models for a stream or whole-document decoding: the reader's own work is heavy, so
        /// all of parsing may go to a background thread (``BackgroundPipeline``).
        case models
    }

    /// What the reader is built for.
    let work: Work

    /// Whether a whole-document decode reads the whole document before decoding it
    /// (``PipelineFactory/parsesBeforeDecoding(work:source:options:)``).
    var parsesBeforeDecoding: Bool { PipelineFactory.parsesBeforeDecoding(work: work, source: source, options: options) }

    /// Makes room on the tape for every token of a document that ``parsesBeforeDecoding``
    /// (``TokenTape/reserve(forInputOf:)``).
    func reserveTapeForWholeDocument() {
        if let size = source.totalSize { tape.reserve(forInputOf: size) }
    }

    /// Runs `body`, which reads input on this thread, with the input window reading the
    /// source's bytes in place when the source holds them whole in memory and nothing has been
    /// read yet (``InputWindow/readingInPlace(_:from:_:)``): a document parsed before it is
    /// decoded is then never copied.
    ///
    /// (The error is carried out by hand, not in a `Result`: the metadata of
    /// `Result<_, any Error>` is found by its mangled name, which costs a scan of every
    /// conformance record the first time in a process.)
    func readingInPlace(_ body: () throws -> Void) throws {
        let window = builder.window
        let source = self.source
        var failure: (any Error)?
        let lent: Void? = source.withWholeInput { input in
            do {
                try window.readingInPlace(input, from: source, body)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        if lent == nil { try body() }
    }
    /// The tape writer on the reader's thread. Its tape is the reader's tape, whichever
    /// pipeline fills it.
    let builder: TapeBuilder
    /// The tape tokens are pulled from.
    let tape: TokenTape
    private let source: any ByteSource
    /// How bytes become tokens: chosen once, when the reader first needs input
    /// (``startPipeline(for:)``); nil until then.
    @exclusivity(unchecked) private(set) var pipeline: (any Pipeline)?

    /// Absolute tape index of the next token to hand out.
    @exclusivity(unchecked) var position = 0
    /// Absolute tape index of the current token (the last one handed out), or -1.
    @exclusivity(unchecked) var current = -1
    /// Tokens at or above this index stay on the tape (used by decoders that need a whole value).
    @exclusivity(unchecked) var pinnedFrom: Int?
    /// Whether every token stays on the tape as reading goes on (none is discarded): for the
    /// streams of ``ParallelJSONElements``, which hand out a batch's elements after reading
    /// them all, so that an element that is a view of its tokens (an ``Extractor``) stays
    /// valid. Memory then holds the tokens of everything the reader reads.
    var holdsTokens = false
    @exclusivity(unchecked) private var cursorPath = CursorPath()
    /// Called on the reader's thread with ``bytesRead`` each time a chunk of input has been
    /// taken in: a cheap hook for a progress bar (see also ``totalBytes``).
    public var onProgress: ((_ bytesRead: Int) -> Void)?

    /// The error that stopped the feed; thrown again once the tape runs dry.
    @exclusivity(unchecked) private var feedError: (any Error)?

    /// The options this reader parses with.
    public let options: JSONParsingOptions

    /// A reader of `source` (``PushedBytes``: input is appended, see ``incremental(options:)``)
    /// for `work`.
    init(source: any ByteSource, options: JSONParsingOptions, work: Work = .tokens) {
        self.source = source
        self.options = options
        self.work = work
        builder = TapeBuilder(options: options, readingAheadFrom: source)
        tape = builder.tape
        if isIncremental { startPipeline(for: .tokens) }
    }

    deinit {
        pipeline?.cancel()
        cursorPath.deallocate()
    }

    /// Picks the pipeline, once (see ``PipelineFactory``).
    @discardableResult
    private func startPipeline(for request: PipelineFactory.Request) -> any Pipeline {
        if let pipeline { return pipeline }
        let started = PipelineFactory.make(
            for: work, request: request, builder: builder, source: source, options: options, progress: onProgress)
        pipeline = started
        return started
    }

    // MARK: - Inputs

    /// Reads `input` (a file, a descriptor, standard input, bytes in memory), a chunk at a
    /// time as tokens are asked for.
    ///
    /// A file that cannot be opened is reported by the first call that reads (``next()``,
    /// ``peek()``, ``skipValue()``) as an ``InputError``.
    public convenience init(_ input: JSONInput, options: JSONParsingOptions = .init()) {
        self.init(input, options: options, work: .tokens)
    }

    /// A reader of `input` for `work` (the streams and decoders read for `.models`).
    convenience init(_ input: JSONInput, options: JSONParsingOptions, work: Work) {
        self.init(source: input.open(), options: options, work: work)
    }

    /// A reader of `input` from `point`, where element `index` of the array at `container`
    /// starts: it reads one array, which opens just before the point, on this thread, and
    /// nothing after that array; with `limit`, nothing from that offset on (the input ends
    /// there).
    convenience init(
        _ input: JSONInput, options: JSONParsingOptions, resumingAt point: ResumePoint, in container: JSONKeyPath, index: Int,
        limit: Int? = nil
    ) {
        var options = options
        options.parsesInBackground = false
        options.allowsTrailingGarbage = true
        options.levelsAboveInput = container.count
        let source = ResumedSource(input.open(), from: point, checksBytesBefore: !options.allowsComments, limit: limit)
        self.init(source: source, options: options, work: .models)
        builder.start(at: point, in: container, index: index)
    }

    /// A reader of `input` with several top-level values (NDJSON) from `point`
    /// (``ResumePoint/init(topLevelValueAt:)``), where top-level value `index` starts: it
    /// reads on this thread to the input's end (or to `limit`), every token where it is in the
    /// input.
    convenience init(_ input: JSONInput, options: JSONParsingOptions, resumingAtValue point: ResumePoint, index: Int, limit: Int? = nil) {
        var options = options
        options.parsesInBackground = false
        self.init(source: ResumedSource(input.open(), from: point, checksBytesBefore: false, limit: limit), options: options, work: .models)
        builder.start(at: point, in: nil, index: index)
    }

    /// A reader of `input` from `point`, the `]` that closes the array at `path`
    /// (``ResumePoint/init(arrayEndAt:inside:closesObject:)``), on this thread: its first tokens are the
    /// prefix's, which open the containers of `path` and the array (two for an object, `{` and
    /// its key, one for an array), then the `]` and the rest of the input, every token where it
    /// is in the input. Only a valid rest is read as the whole input's reader reads it: an
    /// error's excerpt and path may differ.
    convenience init(
        _ input: JSONInput, options: JSONParsingOptions, resumingAt point: ResumePoint, afterArrayAt path: JSONKeyPath
    ) {
        var options = options
        options.parsesInBackground = false
        let source = ResumedSource(input.open(), from: point, checksBytesBefore: false)
        self.init(source: source, options: options, work: .models)
        builder.start(at: point, in: path, index: 0)
    }

    /// A reader that you feed yourself, for input that arrives in chunks (a socket, a callback
    /// API): call ``append(_:)`` with each chunk and ``finishInput()`` at the end. Between them,
    /// ``next()`` returns `nil` when no complete token is buffered yet; ``isAtEnd`` tells that
    /// apart from the real end.
    ///
    /// An error is reported once the input after it holds what its message and excerpt show
    /// (the rest of its line, or 48 bytes), or at ``finishInput()``; until then the reader asks
    /// for more input. So the error is the same however the input was split.
    public static func incremental(options: JSONParsingOptions = .init()) -> JSONReader {
        JSONReader(source: PushedBytes(), options: options)
    }

    /// Adds a chunk of input to an ``incremental(options:)`` reader and parses what it can.
    /// Bytes appended once the input has ended (after ``finishInput()``, or after the first
    /// value with ``JSONParsingOptions/allowsTrailingGarbage``) are ignored.
    /// - Throws: ``ParseError`` when the input so far is already invalid and the tokens before
    ///   the error have been handed out (else ``next()`` throws it after them).
    public func append(_ bytes: some Sequence<UInt8>) throws(ParseError) {
        guard let pushed = source as? PushedBytes else { return }
        let outcome =
            bytes.withContiguousStorageIfAvailable { push(UnsafeRawBufferPointer($0), through: pushed) }
            ?? Array(bytes).withUnsafeBytes { push($0, through: pushed) }
        try outcome.get()
    }

    /// Lends `bytes` to the pipeline, which reads and parses them as it reads any source.
    private func push(_ bytes: UnsafeRawBufferPointer, through pushed: PushedBytes) -> Result<Void, ParseError> {
        let pipeline = startPipeline(for: .tokens)
        let takesInput = builder.failure == nil && !builder.isFinished
        let keep = keepFrom
        cursorPath.preserveKeys(below: keep, tape: tape)
        do {
            try pushed.lend(bytes) { () throws -> Void in
                repeat {
                    guard try pipeline.fill(keepingTokensFrom: keep) else { break }
                } while pushed.hasLentBytes
            }
        } catch let error as ParseError {
            // ``next()`` throws once the tokens before the error are read, and its context is here.
            if position < tape.end || builder.failureAwaitsContext { return .success(()) }
            return .failure(error)
        } catch {
            feedError = error  // (pushed bytes are never unreadable: not reached)
        }
        if takesInput { onProgress?(bytesRead) }
        return .success(())
    }

    /// Ends the input of an ``incremental(options:)`` reader.
    /// - Throws: ``ParseError`` when the input ended inside a value, or held no value.
    public func finishInput() throws(ParseError) {
        guard let pushed = source as? PushedBytes else { return }
        pushed.end()
        let pipeline = startPipeline(for: .tokens)
        let keep = keepFrom
        cursorPath.preserveKeys(below: keep, tape: tape)
        do {
            while try pipeline.fill(keepingTokensFrom: keep) {}
        } catch let error as ParseError {
            if position < tape.end { return }  // ``next()`` throws once these tokens are read
            throw error
        } catch {
            feedError = error  // (not reached, as above)
        }
    }

    /// An ``incremental(options:)`` reader's parse error once it is final (its context has
    /// arrived, or the input has ended), whether or not the tokens before it have been handed
    /// out; nil otherwise. A stream that stops reading at the end of its container throws it
    /// from there rather than ending (see ``PushJSONStream``).
    var knownFailure: ParseError? {
        guard isIncremental, let failure = builder.failure, !builder.failureAwaitsContext else { return nil }
        return failure
    }

    /// True when the input has ended (all of it parsed), whether or not every token was handed out.
    var isInputFinished: Bool {
        feedError != nil || pipeline?.isInputFinished == true
    }

    /// True when the input has ended and every token has been handed out.
    public var isAtEnd: Bool {
        pipeline?.isFinished == true && position >= tape.end
    }

    // MARK: - Pulling tokens

    /// Moves to the next token and returns its kind, or `nil` at the end of the input (for an
    /// ``incremental(options:)`` reader: also when it needs more input first).
    public func next() throws -> JSONToken? {
        let index = position
        if index >= tape.end {
            guard try ensureToken(at: index) else { return nil }
        }
        let kind = tape[index].kind
        current = index
        position = index + 1
        cursorPath.didRead(kind, at: index)
        return kind.publicKind
    }

    /// The kind of the next token without moving to it, or `nil` at the end of the input.
    public func peek() throws -> JSONToken? {
        guard try ensureToken(at: position) else { return nil }
        return tape[position].publicKind
    }

    /// Skips the next value: a scalar, or a whole array or object (O(1) when its end has
    /// already been parsed). When the next token is a key, skips the key and its value; when it
    /// ends a container, does nothing. Afterwards the current token is the last one skipped.
    public func skipValue() throws {
        guard try ensureToken(at: position) else { return }
        var token = tape[position]
        if token.isContainerEnd { return }
        if token.kind == .key {
            _ = try next()
            guard try ensureToken(at: position) else { return }
            token = tape[position]
        }
        _ = try next()
        guard token.isContainerStart else { return }
        let startIndex = current
        let targetDepth = cursorPath.depth - 1
        while cursorPath.depth > targetDepth {
            // Jump straight to the matching end token, from the container's own level only
            // (reading the end token closes one level).
            if cursorPath.depth == targetDepth + 1, let end = tape.lastIndex(ofValueAt: startIndex), end > position {
                position = end
            }
            guard try next() != nil else { return }
        }
    }

    /// Reads the rest of the input without handing out its tokens, checking that it is valid
    /// JSON: the fastest way to validate, in constant memory. Afterwards the reader is at the end.
    /// For an ``incremental(options:)`` reader, this consumes what has been appended so far.
    ///
    /// On a file or in-memory input not yet read from, a valid input is checked by yajl's
    /// grammar and a scan of its raw bytes alone, close to yajl's own speed; if that finds
    /// anything to doubt, the input is read again from its start with the full engine, which
    /// reports the error exactly as without this shortcut. Comments, several top-level values,
    /// trailing garbage and chunks under 4 KiB always take the full engine.
    /// - Returns: The number of top-level values in the whole input (more than 1 only with
    ///   ``JSONParsingOptions/allowsMultipleValues``).
    /// - Throws: ``ParseError`` at the first problem, ``InputError`` if the input cannot be read.
    @discardableResult
    public func skipToEnd() throws -> Int {
        let pipeline = startPipeline(for: .validation)
        pipeline.skipTokens(true)
        defer { pipeline.skipTokens(false) }
        while true {
            position = tape.end
            current = position
            if !(try ensureToken(at: position)) { break }
        }
        position = tape.end
        return pipeline.topLevelCount
    }

    /// Whether the value starting at `index` is wholly on the tape (a scalar, or a container
    /// whose end has been parsed).
    func valueIsComplete(at index: Int) -> Bool {
        tape.lastIndex(ofValueAt: index) != nil
    }

    /// Reads until the value starting at `index` is wholly on the tape: its last token's index,
    /// or nil when the input ends first.
    func readToEnd(ofValueAt index: Int) throws -> Int? {
        while true {
            if let last = tape.lastIndex(ofValueAt: index) { return last }
            guard try ensureToken(at: tape.end) else { return nil }
        }
    }

    /// Reads until the value starting at `start` (the next token) is complete on the tape, then
    /// moves past it without walking its tokens. Used with `pinnedFrom` by whole-value decoding.
    func readWholeValue(at start: Int) throws {
        guard try ensureToken(at: start) else {
            _ = try next()  // at the end: lets the reader report why (e.g. an empty input)
            return
        }
        let end = try readToEnd(ofValueAt: start) ?? start
        // The cursor steps over the value as one: the path tracker sees its first token only.
        cursorPath.didRead(tape[start].kind, at: start)
        if tape[start].isContainerStart { cursorPath.didRead(tape[end].kind, at: end) }
        current = end
        position = end + 1
    }

    // MARK: - The current token

    /// The number of arrays and objects open after the current token (1 after the top-level
    /// `{`, 0 after its `}`).
    public var depth: Int { cursorPath.depth }

    /// The logical path of the current token from the document root, e.g.
    /// `objects[12].members[3].name`. For a key, the path ends with that key.
    public var path: JSONKeyPath { cursorPath.path(tape: tape) }

    /// Where the current token starts in the input, or `nil` before the first token.
    public var location: SourceLocation? {
        guard current >= 0, tape.contains(current) else { return nil }
        return tape.location(at: current)
    }

    /// The text of the current key or string (decoded) or number (exactly as written);
    /// `nil` for other tokens. Allocates a `String`; see ``textEquals(_:)`` and ``withUTF8(_:)``.
    public var text: String? {
        guard let token = currentToken, token.hasText else { return nil }
        return tape.text(of: token)
    }

    /// Whether the current key, string or number has exactly this text. Does not allocate.
    public func textEquals(_ other: String) -> Bool {
        guard let token = currentToken, token.hasText else { return false }
        let bytes = tape.bytes(of: token)
        var other = other
        return other.withUTF8 { $0.count == bytes.count && $0.elementsEqual(bytes) }
    }

    /// Calls `body` with the UTF-8 bytes of the current key, string or number (empty for other
    /// tokens), without copying them.
    public func withUTF8<Result>(_ body: (Span<UInt8>) throws -> Result) rethrows -> Result {
        guard let token = currentToken, token.hasText else {
            return try body(UnsafeBufferPointer<UInt8>(start: nil, count: 0).span)
        }
        return try body(tape.bytes(of: token).span)
    }

    /// Bytes read from the input so far (with background parsing: parsed and handed to the reader).
    public var bytesRead: Int { pipeline?.bytesRead ?? builder.bytesReceived }

    /// Whether parsing has moved to a background thread (see ``JSONParsingOptions/parsesInBackground``).
    public var isParsingInBackground: Bool { pipeline?.isInBackground ?? false }

    /// The input's total size in bytes when known in advance (regular files, memory).
    public var totalBytes: Int? { source.totalSize }

    /// Whether input is appended to this reader (``incremental(options:)``) rather than read
    /// by it: then ``next()`` returns `nil` also when it needs more input.
    var isIncremental: Bool { source is PushedBytes }

    var currentToken: RawToken? {
        let index = current
        guard index >= 0, tape.contains(index) else { return nil }
        return tape[index]
    }

    // MARK: - Feeding

    private var keepFrom: Int {
        var keep = min(current < 0 ? position : current, position)
        if let pinnedFrom { keep = min(keep, pinnedFrom) }
        return holdsTokens ? min(keep, tape.base) : keep
    }

    /// Makes sure the tape holds the token at absolute `index`, reading and parsing as needed.
    /// Returns false at the end of the input (or, incremental, when more input is needed).
    func ensureToken(at index: Int) throws -> Bool {
        while index >= tape.end {
            if let feedError { throw feedError }
            let keep = keepFrom
            cursorPath.preserveKeys(below: keep, tape: tape)
            // Tokens parsed before an error are still handed out; the error comes when the
            // cursor reaches it, so the token stream does not depend on the chunk size.
            do {
                guard try fill(keepingTokensFrom: keep) else { return false }
                onProgress?(bytesRead)
            } catch {
                feedError = error
                if index < tape.end { return true }
                throw error
            }
        }
        return true
    }

    /// Adds tokens to the tape. Returns false when none can come now (the input has ended, or
    /// an incremental reader needs more input).
    private func fill(keepingTokensFrom keep: Int) throws -> Bool {
        try startPipeline(for: .tokens).fill(keepingTokensFrom: keep)
    }
}
