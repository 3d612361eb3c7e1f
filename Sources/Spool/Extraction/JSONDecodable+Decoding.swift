#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decoding a whole document (or the value at `rootKeyPath` in it). The document's tokens are
/// held while it decodes; to decode the elements of a huge array one at a time, stream them.
extension JSONDecodable {
    /// Decodes JSON text.
    ///
    /// ```swift
    /// let group = try Group.decodeValue(from: json, rootKeyPath: ["data", "group"])
    /// ```
    /// - Throws: ``ParseError`` for invalid JSON, ``DecodeError`` when it does not fit the model.
    public static func decodeValue(
        from json: String, rootKeyPath: JSONKeyPath = .root, options: JSONParsingOptions = .init()
    ) throws -> Self {
        try decodeDocument(JSONReader(string: json, options: options), rootKeyPath: rootKeyPath)
    }

    /// Decodes JSON held in `Data`.
    public static func decodeValue(
        from data: Data, rootKeyPath: JSONKeyPath = .root, options: JSONParsingOptions = .init()
    ) throws -> Self {
        try decodeDocument(JSONReader(data: data, options: options), rootKeyPath: rootKeyPath)
    }

    /// Decodes JSON held as bytes.
    public static func decodeValue(
        from bytes: [UInt8], rootKeyPath: JSONKeyPath = .root, options: JSONParsingOptions = .init()
    ) throws -> Self {
        try decodeDocument(JSONReader(bytes: bytes, options: options), rootKeyPath: rootKeyPath)
    }

    /// Decodes the JSON file at `path`.
    /// - Throws: also ``InputError`` when the file cannot be read.
    public static func decodeValue(
        contentsOfFile path: String, rootKeyPath: JSONKeyPath = .root, options: JSONParsingOptions = .init()
    ) throws -> Self {
        try decodeDocument(JSONReader(contentsOfFile: path, options: options), rootKeyPath: rootKeyPath)
    }

    /// Decodes the JSON read from a file descriptor (a file, a pipe; 0 for standard input),
    /// which stays open.
    public static func decodeValue(
        fileDescriptor: Int32, rootKeyPath: JSONKeyPath = .root, options: JSONParsingOptions = .init()
    ) throws -> Self {
        try decodeDocument(JSONReader(fileDescriptor: fileDescriptor, options: options), rootKeyPath: rootKeyPath)
    }

    /// Decodes JSON arriving as an asynchronous sequence of bytes.
    public static func decodeValue<Bytes: AsyncSequence>(
        from bytes: Bytes, rootKeyPath: JSONKeyPath = .root, options: JSONParsingOptions = .init()
    ) async throws -> Self where Bytes.Element == UInt8 {
        try await decodeDocument(AsyncJSONReader(bytes: bytes, options: options), rootKeyPath: rootKeyPath)
    }

    /// Decodes JSON arriving as an asynchronous sequence of byte chunks.
    public static func decodeValue<Chunks: AsyncSequence>(
        fromChunks chunks: Chunks, rootKeyPath: JSONKeyPath = .root, options: JSONParsingOptions = .init()
    ) async throws -> Self where Chunks.Element: Sequence, Chunks.Element.Element == UInt8 {
        try await decodeDocument(AsyncJSONReader(chunks: chunks, options: options), rootKeyPath: rootKeyPath)
    }

    // MARK: - Internals

    static func decodeDocument(_ reader: JSONReader, rootKeyPath: JSONKeyPath) throws -> Self {
        let start = reader.position
        reader.pinnedFrom = start  // the first value's tokens stay on the tape
        try reader.readWholeValue(at: start)
        if !reader.options.allowsMultipleValues {
            while try reader.next() != nil {}  // anything after the value is an error
        }
        return try decodeRoot(of: reader.tape, at: start, rootKeyPath: rootKeyPath)
    }

    static func decodeDocument(_ asyncReader: AsyncJSONReader, rootKeyPath: JSONKeyPath) async throws -> Self {
        let reader = asyncReader.reader
        let start = reader.position
        reader.pinnedFrom = start
        try await asyncReader.skipValue()
        if !reader.options.allowsMultipleValues {
            while try await asyncReader.next() != nil {}
        }
        return try decodeRoot(of: reader.tape, at: start, rootKeyPath: rootKeyPath)
    }

    static func decodeRoot(of tape: TokenTape, at start: Int, rootKeyPath: JSONKeyPath) throws -> Self {
        guard tape.contains(start) else {
            throw DecodeError(code: .missingKey, keyPath: .root, expected: "\(Self.self)", message: "the input holds no JSON value")
        }
        let root = Extractor(context: DecodingContext(tape: tape, rootIndex: start), index: start)
        if rootKeyPath.isEmpty { return try root.decode(as: Self.self) }
        return try root.value(rootKeyPath)
    }
}
