/// A decoded value with where it lies in the input: its path from the document root, and
/// where it starts and ends. Decode `Located<Band>` where you would decode `Band`, as a streamed
/// element or as any field of a model, with ``StreamingJSONDecoder`` or as a ``JSONDecodable``:
///
/// ```swift
/// for try await band in AsyncJSONStream(input).elements(of: Located<Band>.self, at: "objects", decoder: decoder) {
///     index.record(band.value.name, at: band.start.byteOffset)   // band.path: objects[41]
/// }
/// ```
///
/// It costs nothing where it is not used. A stream can be resumed from a located element's
/// ``start`` (see ``JSONStream/init(_:options:resumingAt:element:)``).
public struct Located<Value> {
    /// The decoded value.
    public var value: Value
    /// The value's path from the document root, with concrete indices: `objects[41]`.
    public var path: JSONKeyPath
    /// Where the value's first byte is.
    public var start: SourceLocation
    /// Just past the value's last byte, so its bytes are `start.byteOffset..<end.byteOffset`;
    /// nil when the value is a string (its length in the input is not kept once its escapes
    /// are decoded).
    public var end: SourceLocation?
}

extension Located: Sendable where Value: Sendable {}

extension Located: JSONDecodable where Value: JSONDecodable {
    /// Decodes the value as `Value` and notes where it lies.
    public static func decode(_ e: Extractor) throws -> Located<Value> {
        let (path, start, end) = try e.context.span(ofValueAt: e.index)
        return Located(value: try e.decode(as: Value.self), path: path, start: start, end: end)
    }
}
