/// The elements request a stream of ``ParallelJSONElements`` makes: how its elements are
/// decoded (the serial stream's request, on each batch's stream).
protocol ElementRequest<Value>: Sendable {
    associatedtype Value
    /// Whether a decoded element may be a view of its tokens (an ``Extractor``, or a model
    /// that keeps one), which a batch's stream must then keep until the batch is handed out
    /// (``JSONReader/holdsTokens``).
    var holdsTokens: Bool { get }
    /// The elements of the array at `path` on `stream`, decoded as ``Value``; an element that
    /// does not decode does what `policy` says.
    func elements(on stream: JSONStream, at path: JSONKeyPath, onError policy: ElementErrorPolicy) -> JSONElements<Value>
}

/// `Decodable` elements, by a ``StreamingJSONDecoder``: ``JSONStream/elements(of:at:decoder:onError:parallelism:)``.
struct DecodableElements<Value: Decodable>: ElementRequest {
    /// The decoder every stream decodes with (its strategies are read at each stream's start).
    let decoder: StreamingJSONDecoder

    /// A `Decodable` value owns what it decoded: no token is kept for it.
    var holdsTokens: Bool { false }

    func elements(on stream: JSONStream, at path: JSONKeyPath, onError policy: ElementErrorPolicy) -> JSONElements<Value> {
        stream.elements(of: Value.self, at: path, decoder: decoder, onError: policy)
    }
}

/// ``JSONDecodable`` elements: ``JSONStream/elements(of:at:onError:parallelism:)``.
struct JSONDecodableElements<Value: JSONDecodable>: ElementRequest {
    /// A model may keep the ``Extractor`` it decodes from (an `Extractor` element is one).
    var holdsTokens: Bool { true }

    func elements(on stream: JSONStream, at path: JSONKeyPath, onError policy: ElementErrorPolicy) -> JSONElements<Value> {
        stream.elements(of: Value.self, at: path, onError: policy)
    }
}
