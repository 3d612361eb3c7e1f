extension Located: Decodable where Value: Decodable {
    /// Decodes the value as `Value` with the decoder's strategies, and notes where it lies.
    /// - Throws: `DecodingError.dataCorrupted` from a decoder other than
    ///   ``StreamingJSONDecoder``'s (no other knows where a value lies in the input), or the
    ///   value's own error.
    public init(from decoder: any Decoder) throws {
        guard let tapeDecoder = decoder as? TapeDecoder, let index = tapeDecoder.index else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "Located<\(Value.self)> is decoded by StreamingJSONDecoder only: no other decoder knows where a value lies"))
        }
        let (path, start, end) = try tapeDecoder.context.span(ofValueAt: index)
        self.init(value: try decoder.singleValueContainer().decode(Value.self), path: path, start: start, end: end)
    }
}
