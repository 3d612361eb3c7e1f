/// A ``JSONStream`` over input that arrives as an `AsyncSequence` of bytes or byte chunks (a
/// network body, chunks read from a file): the elements at a path come out as an
/// `AsyncSequence`.
///
/// ```swift
/// let stream = AsyncJSONStream(.chunks(body))
/// for try await band in stream.elements(of: Band.self, at: "objects") {
///     print(band.name)
/// }
/// let updated = try await stream.remainder().value("last_updated", .iso8601)
/// ```
///
/// Elements, members, counts, errors, the remainder and memory bounds are those of
/// ``JSONStream``: both run the same streaming loop. Stopping the loop early stops pulling
/// input. Use a stream from one task at a time.
///
/// Its `async` members run on the caller's actor, so main-actor code and actors can own a
/// stream and feed it a non-`Sendable` sequence. Parsing is then done on that actor too; to keep
/// a large document off the main actor, consume the stream in a `@concurrent` function.
///
/// Cancelling the task that reads the stream ends it with `CancellationError`:
/// - no input is pulled once the task is cancelled, even from a sequence that ignores
///   cancellation (a pull under way is awaited; its chunk is dropped);
/// - a sequence that ends or throws because its task was cancelled, as
///   `AsyncThrowingStream(unfolding:)` does, gives `CancellationError`, not a ``ParseError``
///   for a truncated document;
/// - of the elements already parsed (at most a chunk's), fewer than 16 are handed out first.
///
/// The stream then stays cancelled: its elements end (`next()` returns nil), and ``finish()``
/// and ``remainder()`` throw `CancellationError`, since the rest of the input will not come.
public final class AsyncJSONStream {
    let input: AsyncJSONReader
    let core: StreamCore

    /// Reads `input`, pulling from its sequence as elements are asked for.
    public init(_ input: AsyncJSONInput, options: JSONParsingOptions = .init()) {
        self.input = AsyncJSONReader(input, options: options)
        core = StreamCore(reader: self.input.reader)
    }

    /// The elements of the array at `path`, each decoded as `T` (see ``JSONStream/elements(of:at:onError:parallelism:)``).
    /// Cancelling the task ends them with `CancellationError` (see ``AsyncJSONStream``).
    public func elements<T: JSONDecodable>(
        of type: T.Type, at path: JSONKeyPath = .root, onError policy: ElementErrorPolicy = .stop
    ) -> AsyncJSONElements<T> {
        AsyncJSONElements(.elements(of: type, at: path, onError: policy, in: core), of: self)
    }

    /// The elements of the array at `path`, each decoded as the `Decodable` `T` by `decoder`
    /// (see ``JSONStream/elements(of:at:decoder:onError:parallelism:)``). Cancelling the task ends them
    /// with `CancellationError` (see ``AsyncJSONStream``).
    @_disfavoredOverload
    public func elements<T: Decodable>(
        of type: T.Type, at path: JSONKeyPath = .root, decoder: StreamingJSONDecoder = StreamingJSONDecoder(),
        onError policy: ElementErrorPolicy = .stop
    ) -> AsyncJSONElements<T> {
        AsyncJSONElements(.elements(of: type, at: path, configuration: decoder.configuration, onError: policy, in: core), of: self)
    }

    /// The members of the object at `path`, each value decoded as `T` (see ``JSONStream/members(of:at:parallelism:)``).
    /// Cancelling the task ends them with `CancellationError` (see ``AsyncJSONStream``).
    public func members<T: JSONDecodable>(of type: T.Type, at path: JSONKeyPath = .root) -> AsyncJSONMembers<T> {
        AsyncJSONMembers(.members(of: type, at: path, in: core), of: self)
    }

    /// The members of the object at `path`, each value decoded as the `Decodable` `T` by `decoder`.
    /// Cancelling the task ends them with `CancellationError` (see ``AsyncJSONStream``).
    @_disfavoredOverload
    public func members<T: Decodable>(
        of type: T.Type, at path: JSONKeyPath = .root, decoder: StreamingJSONDecoder = StreamingJSONDecoder()
    ) -> AsyncJSONMembers<T> {
        AsyncJSONMembers(.members(of: type, at: path, configuration: decoder.configuration, in: core), of: self)
    }

    /// The number of elements of the array, or members of the object, at `path` (see
    /// ``JSONStream/count(at:)``).
    /// - Throws: also `CancellationError` when the task is cancelled: counting stops pulling
    ///   input (see ``AsyncJSONStream``).
    public func count(at path: JSONKeyPath = .root) async throws -> Int {
        if let refusal = core.begin(.count, at: path) { throw refusal }
        while true {
            if let count = try core.countStep() { return count }
            guard try await fill() else { return core.count }
        }
    }

    /// Called with ``bytesRead`` each time a chunk has been taken in, for a progress bar.
    public var onProgress: ((_ bytesRead: Int) -> Void)? {
        get { input.reader.onProgress }
        set { input.reader.onProgress = newValue }
    }

    /// Bytes received so far.
    public var bytesRead: Int { input.bytesRead }

    /// Reads the rest of the input, checking that it is valid JSON (see ``JSONStream/finish()``).
    /// - Throws: also `CancellationError` when the task is, or was, cancelled (see ``AsyncJSONStream``).
    public func finish() async throws {
        while try !core.readRest() {
            guard try await fill(noting: false) else { return }
        }
    }

    /// The document without the streamed elements, reading the rest of the input first (see
    /// ``JSONStream/remainder()``). Throws `CancellationError` when the task is, or was, cancelled.
    public func remainder() async throws -> Extractor {
        try await finish()
        return try core.remainder()
    }

    /// Runs `request`'s steps until one hands something out or the request ends, feeding input
    /// while it needs some.
    func drive<Value>(_ request: StreamRequest<Value>) async throws -> Value? {
        while true {
            let value = try request.step()
            if value != nil || !request.awaitsInput { return value }
            guard try await fill() else { return try request.step() }
        }
    }

    // MARK: - Cancellation
    //
    // Kept off the per-element path, where it is cheap only when small: handing out an integer
    // element from another module cost 14% more with the reader's `fill()` inlined into
    // ``drive(_:)`` (a larger async frame on every call), 25% more with also a
    // `Task.isCancelled` on every element, and 4% more as it is.

    /// Feeds the next chunk (see ``AsyncJSONReader/fill()``, which pulls no input for a
    /// cancelled task); a cancellation ends the request, so later calls return nil. An error in
    /// the input met while the request is going on ends it too and says how far it got, as when
    /// the request's own step meets it (and as ``JSONStream`` reports it); `noting: false`, or
    /// once the request has ended, it is the rest of the input's, as ``JSONStream/finish()``
    /// reports it.
    @inline(never)
    private func fill(noting: Bool = true) async throws -> Bool {
        do {
            return try await input.fill()
        } catch let error as CancellationError {
            core.end()
            throw error
        } catch let error as ParseError {
            throw !noting || core.isFinished ? error : core.ended(by: error)
        }
    }

    /// Called before each element: throws `CancellationError`, ending the request, when the
    /// task is cancelled. Elements already parsed need no input, so no ``fill()``: they are
    /// checked on every ``cancellationCheckInterval``-th call.
    func checkCancellationBetweenElements() throws(CancellationError) {
        if callsBeforeCheck > 0 {
            callsBeforeCheck -= 1
            return
        }
        try checkCancellationNow()
    }

    /// The check of ``checkCancellationBetweenElements()``, when it is due.
    @inline(never)
    private func checkCancellationNow() throws(CancellationError) {
        callsBeforeCheck = Self.cancellationCheckInterval - 1
        if core.isFinished { return }
        do {
            try input.checkCancellation()
        } catch {
            core.end()
            throw error
        }
    }

    /// How often a cancelled task is looked for between elements already parsed: fewer than
    /// this many are handed out after a cancellation (none once the next one needs input).
    static let cancellationCheckInterval = 16

    /// Elements to hand out before the next check for cancellation.
    @exclusivity(unchecked) private var callsBeforeCheck = 0
}

extension StreamRequest {
    /// The next value of an ``AsyncJSONStream``'s request, awaiting input as it needs.
    func next(in stream: AsyncJSONStream) async throws -> Value? {
        if !isRefused { try stream.checkCancellationBetweenElements() }
        return try await stream.drive(self)
    }
}

/// The elements of an ``AsyncJSONStream``: `for try await element in stream.elements(...)`.
public struct AsyncJSONElements<Element>: AsyncSequence {
    let request: StreamRequest<Element>
    let stream: AsyncJSONStream

    init(_ request: StreamRequest<Element>, of stream: AsyncJSONStream) {
        self.request = request
        self.stream = stream
    }

    /// Elements handed out or skipped so far.
    public var count: Int { request.count }

    /// The iterator; all iterators of one sequence share its position in the stream.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let request: StreamRequest<Element>
        let stream: AsyncJSONStream

        /// The next element, or nil after the last one.
        public mutating func next() async throws -> Element? {
            try await request.next(in: stream)
        }

        /// The next element, read on `actor` (what `for try await` calls): without it, the
        /// standard library's default would read on the global executor, off the caller's actor.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> Element? {
            try await request.next(in: stream)
        }
    }

    /// An iterator over the stream's elements.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(request: request, stream: stream) }
}

/// The members of an ``AsyncJSONStream``'s object: `for try await (key, value) in stream.members(...)`.
public struct AsyncJSONMembers<Value>: AsyncSequence {
    let request: StreamRequest<(key: String, value: Value)>
    let stream: AsyncJSONStream

    init(_ request: StreamRequest<(key: String, value: Value)>, of stream: AsyncJSONStream) {
        self.request = request
        self.stream = stream
    }

    /// Members handed out so far.
    public var count: Int { request.count }

    /// The iterator; all iterators of one sequence share its position in the stream.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let request: StreamRequest<(key: String, value: Value)>
        let stream: AsyncJSONStream

        /// The next member, or nil after the last one.
        public mutating func next() async throws -> (key: String, value: Value)? {
            try await request.next(in: stream)
        }

        /// The next member, read on `actor` (what `for try await` calls).
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> (key: String, value: Value)? {
            try await request.next(in: stream)
        }
    }

    /// An iterator over the object's members.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(request: request, stream: stream) }
}
