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
