/// The elements request a stream of ``ParallelJSONElements`` makes: how its elements are
/// decoded (the serial stream's request, on each batch's stream).
protocol ElementRequest<Value>: Sendable {
    associatedtype Value
    /// The elements of the array at `path` on `stream`, decoded as ``Value``.
    func elements(on stream: JSONStream, at path: JSONKeyPath) -> JSONElements<Value>
}

/// `Decodable` elements, by a ``StreamingJSONDecoder``: ``JSONStream/elements(of:at:decoder:onError:parallelism:)``.
struct DecodableElements<Value: Decodable>: ElementRequest {
    /// The decoder every stream decodes with (its strategies are read at each stream's start).
    let decoder: StreamingJSONDecoder

    func elements(on stream: JSONStream, at path: JSONKeyPath) -> JSONElements<Value> {
        stream.elements(of: Value.self, at: path, decoder: decoder)
    }
}

/// ``JSONDecodable`` elements: ``JSONStream/elements(of:at:onError:parallelism:)``.
struct JSONDecodableElements<Value: JSONDecodable>: ElementRequest {
    func elements(on stream: JSONStream, at path: JSONKeyPath) -> JSONElements<Value> {
        stream.elements(of: Value.self, at: path)
    }
}
