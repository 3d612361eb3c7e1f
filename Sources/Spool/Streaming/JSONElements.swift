/// The elements of one array of a ``JSONStream`` (or a ``PushJSONStream``), decoded one at a
/// time.
///
/// ```swift
/// let bands = stream.elements(of: Band.self, at: "objects")
/// while let band = try bands.next() { print(band.name) }
/// // or: try bands.forEach { band in print(band.name) }
/// ```
///
/// It is also a lazy `Sequence` of `Result`s, since Swift has no throwing synchronous
/// sequence: `for result in bands { let band = try result.get() }`. Over an `AsyncSequence`
/// input, ``AsyncJSONElements`` gives `for try await band in ...`.
///
/// Errors: a ``DecodeError`` in element *k* carries its full path (`objects[k].members[2].name`)
/// and location. By default the first one ends the stream; with `.skip`, the element is
/// skipped, reported, and the stream goes on. A ``ParseError`` always ends it (the rest cannot
/// be trusted), and says how many elements were decoded before it.
///
/// Elements that several threads decode (``JSONStream/elements(of:at:onError:parallelism:)``)
/// come out of the same sequence, in the same order, with the same errors; dropping the
/// sequence stops the threads.
public final class JSONElements<Value>: Sequence {
    private let request: StreamRequest<Value>
    /// The threads that decode the elements instead of the request's stream, when the stream
    /// decodes them in parallel (``JSONStream/elements(of:at:onError:parallelism:)``).
    /// Internal for tests.
    let parallel: ParallelRequest<Value>?

    init(_ request: StreamRequest<Value>, parallel: ParallelRequest<Value>? = nil) {
        self.request = request
        self.parallel = parallel
    }

    /// Elements handed out or skipped so far.
    public var count: Int { parallel?.count ?? request.count }

    /// Whether the last element has been handed out (or an error has ended the sequence). For
    /// a ``PushJSONStream``, `next()` also returns `nil` while the next element waits for input;
    /// this tells the two apart.
    public var isFinished: Bool { parallel?.isFinished ?? request.isFinished }

    /// The next element; `nil` after the last one (for a ``PushJSONStream``, also while the
    /// next element waits for more input).
    /// - Throws: ``DecodeError`` for an element that does not decode (unless skipped),
    ///   ``ParseError`` for bad JSON, ``UsageError`` for a second request on the stream
    ///   (or, on a ``PushJSONStream``, a call while another call on it is running), and from
    ///   the first call for a `Decodable` decoder whose `.pattern` date strategy Spool does
    ///   not read.
    public func next() throws -> Value? {
        if let parallel { return try parallel.next() }
        return try request.next()
    }

    /// The most elements the stream reads, handed out or skipped: once it has read that many,
    /// `next()` returns nil without reading on (nil: no limit). For a batch of the parallel
    /// engine, whose stream must not go past its last element even when that one is skipped.
    var countLimit: Int? {
        get { request.core.countLimit }
        set { request.core.countLimit = newValue }
    }

    /// Makes room for `count` tokens on the stream's tape before it reads
    /// (``TokenTape/reserveTokens(_:)``).
    func reserveTokens(_ count: Int) {
        request.core.reader.tape.reserveTokens(count)
    }

    /// Keeps every token the stream reads on its tape (``JSONReader/holdsTokens``), so that
    /// every element handed out stays valid as long as it is kept.
    func holdsTokens() {
        request.core.reader.holdsTokens = true
    }

    /// Where the `]` that ended the array is (for a members request, the object's `}`), right
    /// after `next()` has returned nil at the array's end (not after an error): the current
    /// token of the stream's reader.
    var arrayEnd: SourceLocation? {
        guard request.isFinished, !request.isRefused else { return nil }
        let end = request.core.reader.currentToken?.kind
        guard end == (request.isMembers ? .objectEnd : .arrayEnd) else { return nil }
        return request.core.reader.location
    }

    /// Calls `body` with every remaining element.
    public func forEach(_ body: (Value) throws -> Void) throws {
        while let element = try next() { try body(element) }
    }

    /// An iterator over ``JSONElements`` as `Result`s: `.success` for a decoded element,
    /// `.failure` for the error that ends the stream (and nothing more after it).
    public struct Iterator: IteratorProtocol {
        let elements: JSONElements<Value>

        /// The next element or error; nil after the last element or after an error.
        public mutating func next() -> Result<Value, any Error>? {
            do {
                return try elements.next().map { .success($0) }
            } catch {
                return .failure(error)
            }
        }
    }

    /// An iterator sharing this sequence's position in the stream.
    public func makeIterator() -> Iterator { Iterator(elements: self) }
}

extension DecodeError {
    /// Spool's located error for a decoding error: itself, the one under a `DecodingError`, or
    /// one made from the `DecodingError` (thrown by a model's own code) at `location`.
    init(located error: any Error, at location: SourceLocation?) {
        if let error = error as? DecodeError {
            self = error
            return
        }
        guard let error = error as? DecodingError else {
            self.init(code: .custom, keyPath: .root, location: location, message: "\(error)")
            return
        }
        let context: DecodingError.Context
        let code: DecodeError.Code
        switch error {
        case .keyNotFound(_, let c): (context, code) = (c, .missingKey)
        case .valueNotFound(_, let c): (context, code) = (c, .null)
        case .typeMismatch(_, let c): (context, code) = (c, .typeMismatch)
        case .dataCorrupted(let c): (context, code) = (c, .custom)
        @unknown default: (context, code) = (DecodingError.Context(codingPath: [], debugDescription: "\(error)"), .custom)
        }
        if let underlying = context.underlyingError as? DecodeError {
            self = underlying
            return
        }
        let path = JSONKeyPath(context.codingPath.map(JSONKeyPath.Component.init))
        self.init(code: code, keyPath: path, location: location, message: context.debugDescription)
    }
}
