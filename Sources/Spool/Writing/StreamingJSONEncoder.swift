#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// Encodes `Encodable` values as JSON straight into a ``JSONWriter``'s buffer, with
/// `JSONEncoder`'s property and strategy names: switching is a one-word change.
///
/// ```swift
/// let encoder = StreamingJSONEncoder()            // was: JSONEncoder()
/// encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
/// encoder.keyEncodingStrategy = .convertToSnakeCase
/// let data = try encoder.encode(catalog)
/// ```
///
/// No tree is built: each value's bytes are written as its `encode(to:)` produces them, and a
/// file or pipe writer flushes every 64 KiB. To write a huge array or a JSON Lines file one
/// element at a time, in constant memory, hand the elements to the writer:
///
/// ```swift
/// let writer = try JSONWriter(toFile: "bands.jsonl", format: .lines)
/// try writer.writeLines(bands, encoder: encoder)   // any Sequence or AsyncSequence
/// try writer.finish()
/// ```
///
/// With `.sortedKeys` and `.prettyPrinted`, the output is
/// byte for byte `JSONEncoder`'s (with neither, `JSONEncoder` orders keys by hash, Spool in
/// the order they are encoded).
///
/// Where Codable's semantics need bytes held back, they are held as bytes, never as a tree:
/// - `.sortedKeys`: an object's members are kept in the buffer until the
///   object ends, then reordered (nothing is flushed while a sorted object is open).
/// - `superEncoder()` and `superEncoder(forKey:)`: the super value is written to a small
///   buffer of its own and placed when its container ends (for a keyed container, as the last
///   member; for an unkeyed one, where it was asked for, before the next element). It must be
///   used before then; `{}` is written for a super encoder that encodes nothing.
/// - A container requested twice from the same encoder continues the same object or array
///   (a subclass and its superclass sharing one encoder), and a container requested after a
///   single value that wrote an object or array continues it.
///
/// A key written twice in one object (encoded again, or mapped to one key by
/// `.convertToSnakeCase` or `.custom`) is written once, as `JSONEncoder` writes it: a value
/// replaces the earlier member (and a `superEncoder(forKey:)`'s value replaces it in turn when
/// placed); a nested container continues the earlier container of its kind, with its members
/// or elements. The earlier member's bytes are taken out of the writer's buffer, or moved to
/// the end to be continued; until a replacing value is complete, nothing is flushed. Two things
/// throw `EncodingError.invalidValue` instead:
/// - A nested container for a key that holds a value of another kind (`JSONEncoder` stops the
///   program there).
/// - A key whose earlier member has already been flushed to the output: a file or pipe writer
///   writes out every 64 KiB, and bytes written out cannot be taken back. Encoding to `Data`
///   never flushes, and under `.sortedKeys` an object is held until it ends,
///   so there it always works.
///
/// Keys are told apart by their UTF-8 bytes: a key encoded again in another canonically
/// equivalent Unicode form (`"e\u{301}"` after `"\u{E9}"`, both `é`) is written as a second
/// member, where `JSONEncoder`, comparing `String`s, keeps one. (Decoding, both decoders find
/// such a key in either form.)
///
/// Each open object remembers its members' keys and offsets (about 40 bytes a member, and an
/// index past 16 members) until it ends.
///
/// Writing in order has one limit `JSONEncoder` does not have: once a container has written
/// past a nested container (a later member or element), that nested container is closed, and
/// using it again throws `EncodingError.invalidValue`. (Asking for the container again, with
/// `nestedContainer(keyedBy:forKey:)` for the same key, continues it.)
///
/// Errors: a value that cannot be encoded (NaN with `.throw`, `Decimal.nan`, a top-level value
/// that encodes nothing, nesting deeper than ``maxDepth`` or than the thread's stack allows)
/// throws `EncodingError.invalidValue` with the coding path, and an output failure throws the
/// writer's ``WriteError``. The output stops at a value boundary:
/// the failed value is taken back out of the writer when its bytes are still in the buffer;
/// otherwise the writer refuses further writes, its output ending after the last whole token.
public final class StreamingJSONEncoder: Sendable {
    /// The settings one encode call uses, copied at its start.
    struct Configuration: Sendable {
        var outputFormatting: JSONEncoder.OutputFormatting = []
        var keyEncodingStrategy = KeyEncodingStrategy.useDefaultKeys
        var dateEncodingStrategy = DateEncodingStrategy.deferredToDate
        var dataEncodingStrategy = DataEncodingStrategy.base64
        var nonConformingFloatEncodingStrategy = NonConformingFloatEncodingStrategy.throw
        var userInfo: [CodingUserInfoKey: any Sendable] = [:]
        var maxDepth = JSONParsingOptions().maxDepth
    }

    private let settings = Mutex(Configuration())

    /// An encoder with `JSONEncoder`'s defaults.
    public init() {}

    /// Layout and key order for ``encode(_:)``: `JSONEncoder`'s own options, so one value
    /// configures both encoders. `.prettyPrinted` is `JSONEncoder`'s indented layout (2
    /// spaces, `"key" : value`); `.sortedKeys` orders object members by their keys' UTF-8
    /// bytes, as `JSONEncoder` sorts them, each object's members held until it ends (as byte
    /// ranges, not a tree); `.withoutEscapingSlashes` writes `/` as is, rather than as `\/`.
    /// Default `[]`: compact, keys in the order they are encoded. When writing into a
    /// ``JSONWriter``, only `.sortedKeys` applies: the writer's ``JSONWriter/Format`` decides
    /// the layout and slash escaping.
    public var outputFormatting: JSONEncoder.OutputFormatting {
        get { settings.withLock { $0.outputFormatting } }
        set { settings.withLock { $0.outputFormatting = newValue } }
    }

    /// How coding keys become JSON keys. Default `.useDefaultKeys`.
    public var keyEncodingStrategy: KeyEncodingStrategy {
        get { settings.withLock { $0.keyEncodingStrategy } }
        set { settings.withLock { $0.keyEncodingStrategy = newValue } }
    }

    /// How dates are written. Default `.deferredToDate`, as `JSONEncoder`.
    public var dateEncodingStrategy: DateEncodingStrategy {
        get { settings.withLock { $0.dateEncodingStrategy } }
        set { settings.withLock { $0.dateEncodingStrategy = newValue } }
    }

    /// How `Data` is written. Default `.base64`, as `JSONEncoder`.
    public var dataEncodingStrategy: DataEncodingStrategy {
        get { settings.withLock { $0.dataEncodingStrategy } }
        set { settings.withLock { $0.dataEncodingStrategy = newValue } }
    }

    /// How infinity and NaN are written. Default `.throw`.
    public var nonConformingFloatEncodingStrategy: NonConformingFloatEncodingStrategy {
        get { settings.withLock { $0.nonConformingFloatEncodingStrategy } }
        set { settings.withLock { $0.nonConformingFloatEncodingStrategy = newValue } }
    }

    /// Values your models read through `encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] {
        get { settings.withLock { $0.userInfo } }
        set { settings.withLock { $0.userInfo = newValue } }
    }

    /// The deepest nesting of arrays and objects written, counted from the top of the output
    /// (the containers of a ``JSONWriter`` the value is written into count too). Default 512,
    /// ``JSONParsingOptions/maxDepth``'s default, so that what this encoder writes decodes
    /// with the default options (`JSONEncoder` has no limit). A value that nests deeper is
    /// refused with `EncodingError.invalidValue` at the container that would go past it.
    /// Values below 1 are treated as 1.
    ///
    /// Whatever this limit, a value is also refused, with `EncodingError.invalidValue`, where
    /// encoding it deeper would overflow the thread's stack (checked at every value and
    /// container, as ``StreamingJSONDecoder`` does), never a crash: `encode(to:)` recurses once
    /// per level. Optimized on x86-64, a model nested through an optional member
    /// (`final class Node: Encodable { let child: Node? }`) takes about 1.1 KiB of stack a level
    /// (`JSONEncoder`: 1.4 KiB), so a 512 KiB stack (Apple's secondary threads) holds about 430
    /// levels of it; nested through an array, 1.8 KiB a model level (two levels of JSON), so
    /// the default 512 levels fit. An unoptimized build takes about twice as much, and models
    /// with large `encode(to:)` frames more: encode those on a thread with a larger stack.
    public var maxDepth: Int {
        get { settings.withLock { $0.maxDepth } }
        set { settings.withLock { $0.maxDepth = newValue } }
    }

    var configuration: Configuration { settings.withLock { $0 } }

    // MARK: - Encoding

    /// Encodes `value` as one JSON document, laid out by ``outputFormatting``.
    /// - Throws: `EncodingError.invalidValue` for a value JSON cannot hold (see the type's
    ///   documentation), or an error thrown by the value's own `encode(to:)`.
    public func encode<T: Encodable>(_ value: T) throws -> Data {
        let configuration = self.configuration
        let formatting = configuration.outputFormatting
        let format = JSONWriter.Format(
            formatting.contains(.prettyPrinted) ? .pretty(indent: 2) : .compact,
            escapesSlashes: !formatting.contains(.withoutEscapingSlashes))
        let writer = JSONWriter(output: .memory, format: format, initialCapacity: 256)
        try WriterEncoder(writer: writer, configuration: configuration).encodeRoot(value)
        try writer.finish()
        return writer.takeData()
    }

    /// Writes `value` into `writer` as the value due there: a top-level value (one record of a
    /// ``JSONWriter/Format/lines`` writer), an array element, or the value after a key.
    ///
    /// The writer's format decides the layout; of ``outputFormatting``, only
    /// `.sortedKeys` applies.
    /// - Throws: `EncodingError`, an error from the value's `encode(to:)`, or the writer's
    ///   ``WriteError``. After an error, the writer is back where it was before the value when
    ///   none of the value's bytes were flushed yet; otherwise it refuses further writes.
    public func encode<T: Encodable>(_ value: T, to writer: JSONWriter) throws {
        try WriterEncoder(writer: writer, configuration: configuration).encodeRoot(value)
    }

    /// An encoder bound to `writer`, for writing many values with one setup.
    func session(for writer: JSONWriter) -> WriterEncoder {
        WriterEncoder(writer: writer, configuration: configuration)
    }
}
