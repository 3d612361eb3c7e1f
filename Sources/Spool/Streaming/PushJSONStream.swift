/// A ``JSONStream`` you push input into, for callers that receive chunks in callbacks (a
/// SwiftNIO channel handler, a Vapor body stream): append a chunk, take the elements it
/// completed, and finish.
///
/// ```swift
/// let stream = PushJSONStream()
/// let bands = stream.elements(of: Band.self, at: "objects")
///
/// for chunk in body {                    // as each chunk arrives
///     try stream.append(chunk)
///     while let band = try bands.next() { print(band.name) }
/// }
/// try stream.finishInput()               // when the body has ended
/// while let band = try bands.next() { print(band.name) }
/// let updated = try stream.remainder().value("last_updated", .iso8601)
/// ```
///
/// `next()` returns `nil` when the next element needs input that has not been appended yet;
/// ``JSONElements/isFinished`` tells that apart from the end. Elements, members, counts, errors,
/// the remainder and memory bounds are those of ``JSONStream`` (both run the same streaming
/// loop): memory holds the largest element and the input not yet parsed, never the document.
/// An error is thrown once the rest of its line (or 48 bytes) has arrived, or at
/// ``finishInput()``, so its message is the one a file gives, however the input was split. It
/// comes from the first of ``append(_:)``, ``finishInput()`` and `next()` to find it once every
/// element before it has been handed out, in whatever order they are called: the element loop
/// never ends normally on input already known to be invalid, even after the streamed array.
///
/// A stream is a single-threaded object: use it from one thread or task at a time, one call at
/// a time. A call made while another call on it is running (from another thread, or from a
/// callback of that call: ``onProgress``, a model's decode, a skipped element's report) throws
/// a ``UsageError`` and does nothing, rather than corrupting the stream.
public final class PushJSONStream {
    let core: StreamCore
    private var counting = false

    /// A stream that reads what ``append(_:)`` gives it.
    public init(options: JSONParsingOptions = .init()) {
        core = StreamCore(reader: JSONReader.incremental(options: options), pushed: true)
    }

    private var reader: JSONReader { core.reader }
    /// Whether ``finishInput()`` has been called.
    private var inputFinished = false

    /// Adds the next chunk of input. The elements it completes come out of `next()`.
    /// - Throws: ``ParseError`` when the input so far is invalid (and the rest of the error's
    ///   line, or 48 bytes, has arrived) and every element before the error has been handed
    ///   out; else `next()` throws it after them, in place of ending, also when the error lies
    ///   after the streamed array or object. ``UsageError`` when another call on the
    ///   stream is running (the chunk is not taken).
    public func append(_ bytes: some Sequence<UInt8>) throws {
        try core.exclusive("append(_:)") { try take(bytes) }
    }

    private func take(_ bytes: some Sequence<UInt8>) throws {
        do {
            try reader.append(bytes)
        } catch {
            throw core.ended(by: error)
        }
        try throwKnownFailure()
    }

    /// Ends the input: the last elements come out of `next()`, then it returns `nil` with
    /// ``JSONElements/isFinished`` true.
    /// - Throws: ``ParseError`` when the input is invalid (it ended inside a value, held no
    ///   value, or has invalid text anywhere, such as after the top-level value) and every
    ///   element before the error has been handed out; else `next()` throws it after them,
    ///   in place of ending. Before any request (``elements(of:at:onError:)`` and the like),
    ///   it throws only when no token comes before the error (an empty input); the request's
    ///   `next()`, ``finish()`` or ``remainder()`` report the others. ``UsageError`` when
    ///   another call on the stream is running (the input is not ended).
    public func finishInput() throws {
        try core.exclusive("finishInput()") { try endInput() }
    }

    private func endInput() throws {
        inputFinished = true
        do {
            try reader.finishInput()
        } catch {
            throw core.ended(by: error)
        }
        try throwKnownFailure()
    }

    /// Throws the reader's final parse error when the request has already handed out
    /// everything: no later `next()` would reach it, and the input is known to be invalid.
    private func throwKnownFailure() throws {
        if core.isFinished, let failure = reader.knownFailure { throw core.ended(by: failure) }
    }

    /// The elements of the array at `path`, each decoded as `T` (see
    /// ``JSONStream/elements(of:at:onError:parallelism:)``).
    public func elements<T: JSONDecodable>(
        of type: T.Type, at path: JSONKeyPath = .root, onError policy: ElementErrorPolicy = .stop
    ) -> JSONElements<T> {
        JSONElements(.elements(of: type, at: path, onError: policy, in: core))
    }

    /// The members of the object at `path`, each value decoded as `T` (see ``JSONStream/members(of:at:parallelism:)``).
    public func members<T: JSONDecodable>(of type: T.Type, at path: JSONKeyPath = .root) -> JSONMembers<T> {
        JSONMembers(.members(of: type, at: path, in: core))
    }

    /// The elements of the array at `path`, each decoded as the `Decodable` `T` by `decoder`
    /// (with its key, date, data and float strategies), in constant memory as for
    /// ``JSONDecodable`` models. A `DecodingError` in an element ends the stream (or, with
    /// `.skip`, is reported with its located ``DecodeError`` and skipped); its `codingPath` starts
    /// at the document root (`objects`, `Index 1`, `members`, ...). A type that is also
    /// ``JSONDecodable`` is decoded through that conformance.
    @_disfavoredOverload
    public func elements<T: Decodable>(
        of type: T.Type, at path: JSONKeyPath = .root, decoder: StreamingJSONDecoder = StreamingJSONDecoder(),
        onError policy: ElementErrorPolicy = .stop
    ) -> JSONElements<T> {
        JSONElements(.elements(of: type, at: path, configuration: decoder.configuration, onError: policy, in: core))
    }

    /// The members of the object at `path`, each value decoded as the `Decodable` `T` by `decoder`.
    @_disfavoredOverload
    public func members<T: Decodable>(
        of type: T.Type, at path: JSONKeyPath = .root, decoder: StreamingJSONDecoder = StreamingJSONDecoder()
    ) -> JSONMembers<T> {
        JSONMembers(.members(of: type, at: path, configuration: decoder.configuration, in: core))
    }

    /// The number of elements of the array, or members of the object, at `path` (see
    /// ``JSONStream/count(at:)``), or `nil` until the container has ended: call it again, with
    /// the same path, after appending more input.
    /// - Throws: ``UsageError`` when the stream already handed out elements or members,
    ///   or another call on it is running.
    public func count(at path: JSONKeyPath = .root) throws -> Int? {
        if !counting {
            if let refusal = core.begin(.count, at: path) { throw refusal }
            counting = true
        }
        return try core.exclusive("count(at:)") { try core.countStep() }
    }

    /// Ends the input (``finishInput()``, when it has not been called yet), then reads the rest
    /// of it, checking it (see ``JSONStream/finish()``): a body that stops inside a value throws
    /// here. Returns true: the whole input has been read.
    /// - Throws: ``ParseError`` for invalid or truncated input; ``UsageError`` when
    ///   another call on the stream is running.
    @discardableResult
    public func finish() throws -> Bool {
        try core.exclusive("finish()") {
            if !inputFinished { try endInput() }
            return try core.readRest()
        }
    }

    /// The document without the streamed elements (see ``JSONStream/remainder()``).
    /// - Throws: ``UsageError`` when the input has not been finished with
    ///   ``finishInput()``, or another call on the stream is running; ``ParseError`` or
    ///   ``DecodeError`` as for ``JSONStream/remainder()``.
    public func remainder() throws -> Extractor {
        try core.exclusive("remainder()") {
            guard try core.readRest() else {
                throw UsageError(message: "the remainder is known once the input has ended: call finishInput() first")
            }
            return try core.remainder()
        }
    }

    /// Called with ``bytesRead`` each time a chunk is appended, for a progress bar.
    public var onProgress: ((_ bytesRead: Int) -> Void)? {
        get { reader.onProgress }
        set { reader.onProgress = newValue }
    }

    /// Bytes appended so far.
    public var bytesRead: Int { reader.bytesRead }
}
