#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decoding a whole document (or the value at `rootKeyPath` in it).
///
/// The model is decoded while the input is parsed (on a background thread for large inputs),
/// and the elements of the outermost array (or dictionary) the model decodes are released
/// once decoded (``JSONParsingOptions/releasesDecodedElements``): memory holds the finished
/// model and about one element's tokens, not the document. To handle the elements of a huge
/// array one at a time without keeping them all, stream them (``JSONStream``).
extension JSONDecodable {
    /// Decodes the JSON of `input` (a file, a descriptor, standard input, bytes in memory),
    /// or the value at `rootKeyPath` in it.
    ///
    /// ```swift
    /// let group = try Group.decodeValue(from: .string(json), rootKeyPath: ["data", "group"])
    /// let catalog = try Catalog.decodeValue(from: .file("bands.json"))
    /// ```
    /// - Throws: ``ParseError`` for invalid JSON, ``DecodeError`` when it does not fit the
    ///   model, ``InputError`` when the input cannot be read.
    public static func decodeValue(
        from input: JSONInput, rootKeyPath: JSONKeyPath = .root, options: JSONParsingOptions = .init()
    ) throws -> Self {
        try decodeDocument(JSONReader(input, options: options, work: .models), rootKeyPath: rootKeyPath)
    }

    /// Decodes JSON arriving as an asynchronous sequence of bytes or chunks. The document's
    /// tokens are read in full before decoding (nothing is released); to keep memory flat
    /// over a huge asynchronous input, stream it with ``AsyncJSONStream``.
    /// - Throws: also `CancellationError` when the task is cancelled: reading stops, and a
    ///   sequence ended by the cancellation is not reported as a truncated document (see
    ///   ``AsyncJSONReader``).
    public static func decodeValue(
        from input: AsyncJSONInput, rootKeyPath: JSONKeyPath = .root, options: JSONParsingOptions = .init()
    ) async throws -> Self {
        try await decodeDocument(AsyncJSONReader(input, options: options), rootKeyPath: rootKeyPath)
    }

    // MARK: - Internals

    static func decodeDocument(_ reader: JSONReader, rootKeyPath: JSONKeyPath) throws -> Self {
        try JSONDocument.decode(reader, expected: Self.self) { context, _ in try decodeRoot(context, rootKeyPath: rootKeyPath) }
    }

    static func decodeDocument(_ asyncReader: AsyncJSONReader, rootKeyPath: JSONKeyPath) async throws -> Self {
        let (tape, start) = try await JSONDocument.readWhole(asyncReader)
        return try JSONDocument.decodeRoot(of: tape, at: start, expected: Self.self) { context, _ in
            try decodeRoot(context, rootKeyPath: rootKeyPath)
        }
    }

    static func decodeRoot(_ context: DecodingContext, rootKeyPath: JSONKeyPath) throws -> Self {
        let root = Extractor(context: context, index: context.rootIndex)
        if rootKeyPath.isEmpty { return try root.decode(as: Self.self) }
        return try root.value(rootKeyPath)
    }
}

/// Decoding a whole document, for ``JSONDecodable`` and ``StreamingJSONDecoder`` alike.
enum JSONDocument {
    /// Decodes the first value of `reader` with `body` while it is being parsed (see
    /// ``DecodingContext``), then reads the rest: the value's tail and, unless multiple values
    /// are allowed, the end of the input. A small document held in memory is read to its end
    /// first (``PipelineFactory/parsesBeforeDecoding(work:source:options:)``). Invalid JSON anywhere outranks a decoding error: when
    /// decoding fails, the input is read to the end first, and a syntax error there is what is
    /// thrown.
    static func decode<T>(
        _ reader: JSONReader, expected: Any.Type, _ body: (DecodingContext, Int) throws -> T
    ) throws -> T {
        let start = reader.position
        reader.pinnedFrom = start  // the first value's tokens stay on the tape
        guard try reader.ensureToken(at: start) else {
            try readRest(of: reader, valueAt: start)  // lets the reader say why there is no value
            return try decodeRoot(of: reader.tape, at: start, expected: expected, body)
        }
        if reader.parsesBeforeDecoding {
            try readRest(of: reader, valueAt: start)
            return try decodeRoot(of: reader.tape, at: start, expected: expected, body)
        }
        let context = DecodingContext(tape: reader.tape, rootIndex: start, filler: reader)
        defer { context.filler = nil }
        let value: T
        do {
            value = try body(context, start)
        } catch {
            try readRest(of: reader, valueAt: start)
            throw error
        }
        try readRest(of: reader, valueAt: start)
        return value
    }

    private static func readRest(of reader: JSONReader, valueAt start: Int) throws {
        try reader.readWholeValue(at: start)
        if !reader.options.allowsMultipleValues {
            while try reader.next() != nil {}  // anything after the value is an error
        }
    }

    /// Reads the first value of an asynchronous input whole (and checks the rest); its tape and
    /// the value's first index.
    static func readWhole(_ asyncReader: AsyncJSONReader) async throws -> (TokenTape, Int) {
        let reader = asyncReader.reader
        let start = reader.position
        reader.pinnedFrom = start
        try await asyncReader.skipValue()
        if !reader.options.allowsMultipleValues {
            while try await asyncReader.next() != nil {}
        }
        return (reader.tape, start)
    }

    /// Decodes the complete value at `start` of `tape` with `body`.
    /// - Throws: a ``DecodeError`` when the input held no value.
    static func decodeRoot<T>(
        of tape: TokenTape, at start: Int, expected: Any.Type, _ body: (DecodingContext, Int) throws -> T
    ) throws -> T {
        guard tape.contains(start) else {
            throw DecodeError(code: .noValue, keyPath: .root, expected: TypeName.of(expected), message: "the input holds no JSON value")
        }
        return try body(DecodingContext(tape: tape, rootIndex: start), start)
    }
}
