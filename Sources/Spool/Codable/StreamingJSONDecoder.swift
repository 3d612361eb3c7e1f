#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// Decodes `Decodable` models straight from Spool's token tape, with `JSONDecoder`'s property
/// and strategy names: switching is a one-word change.
///
/// ```swift
/// let decoder = StreamingJSONDecoder()            // was: JSONDecoder()
/// decoder.keyDecodingStrategy = .convertFromSnakeCase
/// decoder.dateDecodingStrategy = .iso8601
/// let catalog = try decoder.decode(Catalog.self, from: data)
/// ```
///
/// No dictionary is built per object and no `Any` tree per document: containers read the tape
/// the parser writes, while it is still being written. Whole-document decoding releases the
/// elements of the outermost array once decoded (``JSONParsingOptions/releasesDecodedElements``),
/// so memory holds the model, not the document. To decode the elements of a huge array one at
/// a time, pass the decoder to a stream: ``JSONStream/elements(of:at:decoder:onError:parallelism:)``.
///
/// Errors are the ones `JSONDecoder` users catch: `DecodingError.keyNotFound`, `valueNotFound`,
/// `typeMismatch` and `dataCorrupted`, with a `codingPath` from the document root, a
/// `debugDescription` that starts with `line:column:`, and Spool's located ``DecodeError`` as
/// the `underlyingError`. Invalid JSON is `DecodingError.dataCorrupted` wrapping the
/// ``ParseError``.
///
/// Where Spool differs from `JSONDecoder` on purpose: numbers are exact (an integer type takes
/// only whole numbers in range, `Decimal` is read from the number's text, `Double` and `Float`
/// refuse a number that would be infinite; each a located `typeMismatch` where `JSONDecoder`
/// says the data is not valid JSON), the input must be strict UTF-8 JSON throughout (not only
/// the values a model reads), `.iso8601` also accepts fractional seconds (as `JSONDecoder` does
/// since Swift 6), and an array decoded once is released (``JSONParsingOptions/releasesDecodedElements``).
/// Of duplicate keys, the first counts, as in `JSONDecoder` (and everywhere in Spool).
public final class StreamingJSONDecoder: Sendable {
    /// The settings one decode call uses, copied at its start.
    struct Configuration: Sendable {
        var keyDecodingStrategy = KeyDecodingStrategy.useDefaultKeys
        var dateDecodingStrategy = DateDecodingStrategy.deferredToDate
        var dataDecodingStrategy = DataDecodingStrategy.base64
        var nonConformingFloatDecodingStrategy = NonConformingFloatDecodingStrategy.throw
        var userInfo: [CodingUserInfoKey: any Sendable] = [:]
        var options = JSONParsingOptions()
    }

    private let settings = Mutex(Configuration())

    /// A decoder with `JSONDecoder`'s defaults.
    public init() {}

    /// How object keys are matched to coding keys. Default `.useDefaultKeys`.
    public var keyDecodingStrategy: KeyDecodingStrategy {
        get { settings.withLock { $0.keyDecodingStrategy } }
        set { settings.withLock { $0.keyDecodingStrategy = newValue } }
    }

    /// How dates are read. Default `.deferredToDate`, as `JSONDecoder`.
    public var dateDecodingStrategy: DateDecodingStrategy {
        get { settings.withLock { $0.dateDecodingStrategy } }
        set { settings.withLock { $0.dateDecodingStrategy = newValue } }
    }

    /// How `Data` is read. Default `.base64`, as `JSONDecoder`.
    public var dataDecodingStrategy: DataDecodingStrategy {
        get { settings.withLock { $0.dataDecodingStrategy } }
        set { settings.withLock { $0.dataDecodingStrategy = newValue } }
    }

    /// How infinity and NaN are read. Default `.throw`.
    public var nonConformingFloatDecodingStrategy: NonConformingFloatDecodingStrategy {
        get { settings.withLock { $0.nonConformingFloatDecodingStrategy } }
        set { settings.withLock { $0.nonConformingFloatDecodingStrategy = newValue } }
    }

    /// Values your models read through `decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] {
        get { settings.withLock { $0.userInfo } }
        set { settings.withLock { $0.userInfo = newValue } }
    }

    /// How the JSON text is read: limits, comments, several top-level values, chunk size.
    public var options: JSONParsingOptions {
        get { settings.withLock { $0.options } }
        set { settings.withLock { $0.options = newValue } }
    }

    var configuration: Configuration { settings.withLock { $0 } }

    // MARK: - Whole documents

    /// Decodes a value of type `T` from JSON held in `Data`, as `JSONDecoder` does; or the
    /// value at `rootKeyPath` (`["data", "items"]`) in it.
    /// - Throws: `DecodingError`; invalid JSON is `.dataCorrupted` wrapping a ``ParseError``.
    ///   A `.pattern` date strategy with a field Spool does not read throws a
    ///   ``UsageError`` first, before anything is read.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data, rootKeyPath: JSONKeyPath = .root) throws -> T {
        try decodeDocument(type, JSONReader(.data(data), options: configuration.options, work: .models), rootKeyPath: rootKeyPath)
    }

    /// Decodes a value of type `T` from `input` (a file or file URL, read as it is decoded; a
    /// descriptor; standard input; bytes in memory), or the value at `rootKeyPath` in it.
    ///
    /// ```swift
    /// let catalog = try StreamingJSONDecoder().decode(Catalog.self, from: .url(catalogURL))
    /// ```
    /// - Throws: `DecodingError` and ``UsageError`` as for `Data`, and ``InputError``
    ///   when the input cannot be read.
    public func decode<T: Decodable>(_ type: T.Type, from input: JSONInput, rootKeyPath: JSONKeyPath = .root) throws -> T {
        try decodeDocument(type, JSONReader(input, options: configuration.options, work: .models), rootKeyPath: rootKeyPath)
    }

    /// Decodes a value of type `T` from JSON arriving as an asynchronous sequence of bytes or
    /// chunks (a network body); the document's tokens are read in full first (to keep memory
    /// flat over a huge input, stream it with ``AsyncJSONStream/elements(of:at:decoder:onError:)``).
    /// - Throws: also `CancellationError` when the task is cancelled: reading stops, and a
    ///   sequence ended by the cancellation is not reported as a truncated document (see
    ///   ``AsyncJSONReader``).
    public func decode<T: Decodable>(
        _ type: T.Type, from input: AsyncJSONInput, rootKeyPath: JSONKeyPath = .root
    ) async throws -> T {
        try await decodeDocument(type, AsyncJSONReader(input, options: configuration.options), rootKeyPath: rootKeyPath)
    }

    // MARK: - Internals

    /// Decodes the first value of `reader` while it is parsed, then reads the rest; invalid
    /// JSON anywhere outranks a decoding error (as in ``JSONDecodable/decodeDocument(_:rootKeyPath:)``).
    private func decodeDocument<T: Decodable>(_ type: T.Type, _ reader: JSONReader, rootKeyPath: JSONKeyPath) throws -> T {
        let session = try DecodingSession(configuration)
        return try Self.syntaxErrorsAsDecodingErrors {
            try JSONDocument.decode(reader, expected: T.self) { context, index in
                try session.decode { try TapeDecoder(context: context, session: session).decodeRoot(type, at: index, rootKeyPath: rootKeyPath) }
            }
        }
    }

    private func decodeDocument<T: Decodable>(_ type: T.Type, _ reader: AsyncJSONReader, rootKeyPath: JSONKeyPath) async throws -> T {
        let session = try DecodingSession(configuration)
        let tape: TokenTape
        let start: Int
        do {
            (tape, start) = try await JSONDocument.readWhole(reader)
        } catch let error as ParseError {
            throw Self.dataCorrupted(error)
        }
        return try Self.syntaxErrorsAsDecodingErrors {
            try JSONDocument.decodeRoot(of: tape, at: start, expected: T.self) { context, index in
                try session.decode { try TapeDecoder(context: context, session: session).decodeRoot(type, at: index, rootKeyPath: rootKeyPath) }
            }
        }
    }

    /// `body`, with a ``ParseError`` turned into `DecodingError.dataCorrupted`, as `JSONDecoder`
    /// reports invalid JSON, and a ``DecodeError`` from outside a model (an empty input) too.
    static func syntaxErrorsAsDecodingErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ParseError {
            throw dataCorrupted(error)
        } catch let error as DecodeError {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: TapeDecoder.describe(error), underlyingError: error))
        }
    }

    static func dataCorrupted(_ error: ParseError) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: error.summary, underlyingError: error))
    }
}
