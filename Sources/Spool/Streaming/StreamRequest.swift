/// A stream's one request for elements or members, behind the sequences of all three shells
/// (``JSONElements``, ``JSONMembers``, ``AsyncJSONElements``, ``AsyncJSONMembers``): the
/// refusal of a second request (or of a decoder whose date pattern Spool cannot read), how
/// each value decodes, and what a value that does not decode does, all settled once, when the
/// request is made.
///
/// A step hands out one value (``step()``); the shells differ only in how they wait for input
/// (a pull reader reads as it goes, the async shell awaits a chunk, the push shell returns to
/// its caller).
final class StreamRequest<Value> {
    let core: StreamCore
    /// A second request on the stream, or a decoder whose date pattern Spool does not read
    /// (a ``UsageError`` either way): the first step throws this, later steps end.
    private var refusal: (any Error)?
    let isRefused: Bool
    /// Whether the request is for members (each a key and its value), not elements.
    let isMembers: Bool
    /// Decodes the value whose first token is at `start` on the tape, with its path.
    private let decode: (_ start: Int, _ path: ElementPath) throws -> Value
    /// What a value that does not decode does (see ``ElementErrorPolicy/skipper(_:)``).
    private let skip: (_ index: Int, _ start: Int, _ error: any Error) -> Bool

    private init(
        core: StreamCore, request: StreamCore.Request, path: JSONKeyPath, policy: ElementErrorPolicy,
        decode: @escaping (_ start: Int, _ path: ElementPath) throws -> Value
    ) {
        self.core = core
        refusal = core.begin(request, at: path)
        isRefused = refusal != nil
        isMembers = request == .members
        self.decode = decode
        skip = policy.skipper(core)
    }

    /// A request refused before it begins, for `error`: the stream reads nothing for it, and
    /// stays free for another request.
    init(core: StreamCore, refusing error: any Error) {
        self.core = core
        refusal = error
        isRefused = true
        isMembers = false
        decode = { _, _ in throw error }
        skip = { _, _, _ in false }
    }

    /// Values handed out or skipped so far.
    var count: Int { isRefused ? 0 : core.count }

    /// Whether the last value has been handed out, or an error has ended the request.
    var isFinished: Bool { isRefused ? refusal == nil : core.isFinished }

    /// The next value, as far as the input allows now: nil at the end, or while the next value
    /// needs input that has not arrived (``awaitsInput``).
    /// - Throws: the refusal of a second request (once), or the value's or the input's error.
    func step() throws -> Value? {
        if isRefused {
            guard let refusal else { return nil }
            self.refusal = nil
            throw refusal
        }
        return try core.next(decode: decode, skipping: skip)
    }

    /// Whether the last ``step()`` returned nil for want of input, not at the end.
    var awaitsInput: Bool { !isRefused && core.awaitsInput }

    /// ``step()`` as a sequence's `next()` takes it from a pull or push stream: the one call on
    /// the stream in progress (``StreamCore/exclusive(_:_:)``). A refused request throws its
    /// refusal, whatever else runs.
    func next() throws -> Value? {
        try isRefused ? step() : core.exclusive("next()") { try step() }
    }
}

extension StreamRequest {
    /// The elements of the array at `path`, each decoded as the ``JSONDecodable`` `T`.
    static func elements<T: JSONDecodable>(
        of type: T.Type, at path: JSONKeyPath, onError policy: ElementErrorPolicy, in core: StreamCore
    ) -> StreamRequest<T> {
        StreamRequest<T>(core: core, request: .elements, path: path, policy: policy, decode: core.decoder(type))
    }

    /// The elements of the array at `path`, each decoded as the `Decodable` `T` with the
    /// strategies `configuration` gives (a decoder's when it was asked), in `worker`'s session
    /// or a new one.
    static func elements<T: Decodable>(
        of type: T.Type, at path: JSONKeyPath, configuration: StreamingJSONDecoder.Configuration,
        worker: WorkerSession? = nil, onError policy: ElementErrorPolicy, in core: StreamCore
    ) -> StreamRequest<T> {
        inSession(for: configuration, of: worker, in: core) { session in
            StreamRequest<T>(core: core, request: .elements, path: path, policy: policy, decode: core.decoder(type, in: session))
        }
    }

    /// The members of the object at `path`, each value decoded as the ``JSONDecodable`` `T`.
    static func members<T: JSONDecodable>(
        of type: T.Type, at path: JSONKeyPath, in core: StreamCore
    ) -> StreamRequest<(key: String, value: T)> {
        .members(at: path, in: core, decode: core.decoder(type))
    }

    /// The members of the object at `path`, each value decoded as the `Decodable` `T` with the
    /// strategies `configuration` gives, in `worker`'s session or a new one.
    static func members<T: Decodable>(
        of type: T.Type, at path: JSONKeyPath, configuration: StreamingJSONDecoder.Configuration,
        worker: WorkerSession? = nil, in core: StreamCore
    ) -> StreamRequest<(key: String, value: T)> {
        inSession(for: configuration, of: worker, in: core) { session in
            .members(at: path, in: core, decode: core.decoder(type, in: session))
        }
    }

    /// The request `make` gives in `worker`'s session for `configuration`, or in a new one; a
    /// request refused for the reason when no session can be made (a `.pattern` date strategy
    /// Spool cannot read).
    private static func inSession<V>(
        for configuration: StreamingJSONDecoder.Configuration, of worker: WorkerSession?, in core: StreamCore,
        _ make: (DecodingSession) -> StreamRequest<V>
    ) -> StreamRequest<V> {
        do {
            return make(try worker?.session(for: configuration) ?? DecodingSession(configuration))
        } catch {
            return StreamRequest<V>(core: core, refusing: error)
        }
    }

    /// Members: each value with its key (the last component of its path); a value that does not
    /// decode ends the request.
    private static func members<T>(
        at path: JSONKeyPath, in core: StreamCore, decode: @escaping (_ start: Int, _ path: ElementPath) throws -> T
    ) -> StreamRequest<(key: String, value: T)> {
        StreamRequest<(key: String, value: T)>(core: core, request: .members, path: path, policy: .stop) { start, path in
            guard case .key(let key) = path.last else { return ("", try decode(start, path)) }
            return (key, try decode(start, path))
        }
    }
}
