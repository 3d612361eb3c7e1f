/// The elements request a stream of ``ParallelJSONElements`` makes: how its elements are
/// decoded (the serial stream's request, on each batch's stream).
protocol ElementRequest<Value>: Sendable {
    associatedtype Value
    /// Whether a decoded element may be a view of its tokens (an ``Extractor``, or a model
    /// that keeps one), which a batch's stream must then keep until the batch is handed out
    /// (``JSONReader/holdsTokens``).
    var holdsTokens: Bool { get }
    /// Whether the elements are the members of an object (each a key and its decoded value),
    /// not the elements of an array.
    var isMembers: Bool { get }
    /// The elements of the array at `path` on `stream`, decoded as ``Value``; an element that
    /// does not decode does what `policy` says. (Members: the members of the object at `path`,
    /// as a sequence of elements; a member that does not decode ends it.) On a worker's thread,
    /// `worker` holds what its batches share; nil elsewhere.
    func elements(
        on stream: JSONStream, at path: JSONKeyPath, onError policy: ElementErrorPolicy, worker: WorkerSession?
    ) -> JSONElements<Value>
}

extension ElementRequest {
    var isMembers: Bool { false }
}

/// `Decodable` elements, by a ``StreamingJSONDecoder``: ``JSONStream/elements(of:at:decoder:onError:parallelism:)``.
struct DecodableElements<Value: Decodable>: ElementRequest {
    /// The decoder's strategies when the request was made, as the serial request read them.
    let configuration: StreamingJSONDecoder.Configuration

    init(decoder: StreamingJSONDecoder) {
        configuration = decoder.configuration
    }

    /// A `Decodable` value owns what it decoded: no token is kept for it.
    var holdsTokens: Bool { false }

    func elements(
        on stream: JSONStream, at path: JSONKeyPath, onError policy: ElementErrorPolicy, worker: WorkerSession?
    ) -> JSONElements<Value> {
        JSONElements(
            .elements(of: Value.self, at: path, configuration: configuration, worker: worker, onError: policy, in: stream.core))
    }
}

/// ``JSONDecodable`` elements: ``JSONStream/elements(of:at:onError:parallelism:)``.
struct JSONDecodableElements<Value: JSONDecodable>: ElementRequest {
    /// A model may keep the ``Extractor`` it decodes from (an `Extractor` element is one).
    var holdsTokens: Bool { true }

    func elements(
        on stream: JSONStream, at path: JSONKeyPath, onError policy: ElementErrorPolicy, worker: WorkerSession?
    ) -> JSONElements<Value> {
        stream.elements(of: Value.self, at: path, onError: policy)
    }
}

/// The members of an object, each value a `Decodable` decoded by a ``StreamingJSONDecoder``:
/// ``JSONStream/members(of:at:decoder:parallelism:)``.
struct DecodableMembers<Member: Decodable>: ElementRequest {
    typealias Value = (key: String, value: Member)
    /// The decoder's strategies when the request was made, as the serial request read them.
    let configuration: StreamingJSONDecoder.Configuration

    init(decoder: StreamingJSONDecoder) {
        configuration = decoder.configuration
    }

    var holdsTokens: Bool { false }
    var isMembers: Bool { true }

    func elements(
        on stream: JSONStream, at path: JSONKeyPath, onError policy: ElementErrorPolicy, worker: WorkerSession?
    ) -> JSONElements<Value> {
        JSONElements(.members(of: Member.self, at: path, configuration: configuration, worker: worker, in: stream.core))
    }
}

/// The members of an object, each value a ``JSONDecodable``: ``JSONStream/members(of:at:parallelism:)``.
struct JSONDecodableMembers<Member: JSONDecodable>: ElementRequest {
    typealias Value = (key: String, value: Member)

    var holdsTokens: Bool { true }
    var isMembers: Bool { true }

    func elements(
        on stream: JSONStream, at path: JSONKeyPath, onError policy: ElementErrorPolicy, worker: WorkerSession?
    ) -> JSONElements<Value> {
        JSONElements(.members(of: Member.self, at: path, in: stream.core))
    }
}
