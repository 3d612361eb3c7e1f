/// A pull cursor over JSON that arrives as an `AsyncSequence`: of bytes (e.g.
/// `FileHandle.bytes`, `URLSession.AsyncBytes`) or of byte chunks (e.g. a network body).
///
/// ```swift
/// let reader = AsyncJSONReader(.chunks(body))       // body: some AsyncSequence of [UInt8]
/// var names = 0
/// while let token = try await reader.next() {
///     if token == .key && reader.textEquals("name") { names += 1 }
/// }
/// ```
///
/// Tokens, paths, locations and errors are exactly those a ``JSONReader`` gives for the same
/// bytes. Byte sequences are gathered into chunks of ``JSONParsingOptions/chunkSize`` before
/// parsing. Like ``JSONReader``, it is a single-task object; its `async` members run on the
/// caller's actor (see ``AsyncJSONStream``).
///
/// Cancelling the task that reads ends the reading with `CancellationError`, thrown by the
/// call that needs the next chunk (the tokens of the chunks already read come first): no
/// input is pulled once the task is cancelled, even from a sequence that ignores cancellation,
/// and a sequence that ends or throws because its task was cancelled, as
/// `AsyncThrowingStream(unfolding:)` does, gives `CancellationError`, not a ``ParseError`` for
/// a truncated document. The reader then stays cancelled.
public final class AsyncJSONReader {
    let reader: JSONReader
    private let source: any ChunkSource
    /// Set once a read has been cancelled (see ``checkCancellation()``).
    private var isCancelled = false

    /// Reads `input`, pulling from its sequence as tokens are asked for.
    public init(_ input: AsyncJSONInput, options: JSONParsingOptions = .init()) {
        reader = JSONReader.incremental(options: options)
        source = input.makeSource(options)
    }

    /// Moves to the next token, awaiting input as needed; `nil` at the end of the input.
    /// - Throws: ``ParseError``, whatever the sequence throws, or `CancellationError` when the
    ///   task is cancelled and the next token needs input.
    public func next() async throws -> JSONToken? {
        while true {
            if let token = try reader.next() { return token }
            if reader.isAtEnd { return nil }
            guard try await fill() else { return try reader.next() }
        }
    }

    /// Feeds the next chunk to the reader (or ends its input). Returns false when the input
    /// had already ended.
    ///
    /// Cancellation is checked before each pull, so a cancelled task stops reading even from a
    /// source that ignores cancellation; and again when the source answers, so that a source
    /// ending (or throwing) because its task was cancelled, as `AsyncThrowingStream(unfolding:)`
    /// does, is reported as the cancellation it is, not as a truncated document. A chunk that
    /// arrives after the cancellation is dropped, and the reader stays cancelled.
    /// - Throws: `CancellationError`, ``ParseError``, or what the source threw.
    @inline(never)  // once a chunk: kept out of the callers' async frames
    func fill() async throws -> Bool {
        if reader.isInputFinished { return false }
        try checkCancellation()
        let pulled: Bool
        do {
            pulled = try await source.pull()
        } catch {
            try checkCancellation()
            throw error
        }
        try checkCancellation()
        if pulled {
            try source.handOver(to: reader)
        } else {
            try reader.finishInput()
        }
        return true
    }

    /// Throws `CancellationError` when the task is cancelled, or was at an earlier read: once a
    /// read has been cancelled, the input is incomplete, so the reader stays cancelled.
    func checkCancellation() throws(CancellationError) {
        if isCancelled || Task.isCancelled {
            isCancelled = true
            throw CancellationError()
        }
    }

    /// Skips the next value (see ``JSONReader/skipValue()``), awaiting input as needed.
    /// Throws `CancellationError` when the task is cancelled and the value needs more input.
    public func skipValue() async throws {
        guard let token = try await peek(), token != .objectEnd, token != .arrayEnd else { return }
        if token == .key {
            _ = try await next()
            guard try await peek() != nil else { return }
        }
        guard let first = try await next(), first == .objectStart || first == .arrayStart else { return }
        // As the synchronous reader does: jump to the container's end token once it has been
        // parsed, reading (and dropping) tokens as they come until then.
        let start = reader.current
        let targetDepth = reader.depth - 1
        while reader.depth > targetDepth {
            if reader.depth == targetDepth + 1, let end = reader.tape.lastIndex(ofValueAt: start), end > reader.position {
                reader.position = end
            }
            guard try await next() != nil else { return }
        }
    }

    /// The kind of the next token without moving to it, awaiting input as needed (throws
    /// `CancellationError` as ``next()`` does).
    public func peek() async throws -> JSONToken? {
        while true {
            if let token = try reader.peek() { return token }
            if reader.isAtEnd { return nil }
            guard try await fill() else { return try reader.peek() }
        }
    }

    /// See ``JSONReader/depth``.
    public var depth: Int { reader.depth }
    /// See ``JSONReader/path``.
    public var path: JSONKeyPath { reader.path }
    /// See ``JSONReader/location``.
    public var location: SourceLocation? { reader.location }
    /// See ``JSONReader/text``.
    public var text: String? { reader.text }
    /// See ``JSONReader/textEquals(_:)``.
    public func textEquals(_ other: String) -> Bool { reader.textEquals(other) }
    /// See ``JSONReader/withUTF8(_:)``.
    public func withUTF8<Result>(_ body: (Span<UInt8>) throws -> Result) rethrows -> Result {
        try reader.withUTF8(body)
    }
    /// Bytes received from the sequence so far.
    public var bytesRead: Int { reader.bytesRead }
}
