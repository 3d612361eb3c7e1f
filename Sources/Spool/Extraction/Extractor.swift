/// One JSON value of a decoded document (an object, array or scalar), read straight from the
/// token tape: no dictionary, no `Any`.
///
/// A model's ``JSONDecodable/decode(_:)`` receives an extractor for its JSON object and reads
/// fields with the operators or their named twins:
///
/// ```swift
/// static func decode(_ e: Extractor) throws -> Band {
///     try Band(
///         name: e <| "name",                          // e.value("name")
///         homepage: e <|? "homepage",                 // e.valueOptional("homepage")
///         members: e <|| "members",                   // e.array("members")
///         city: e <|? ["location", "city"]            // nested key paths
///     )
/// }
/// ```
///
/// Missing keys, `null` and wrong types stay distinct: ``value(_:)`` throws a ``DecodeError``
/// for each (codes `.missingKey`, `.null`, `.typeMismatch`); ``valueOptional(_:)`` gives `nil`
/// for a missing key or `null` and throws for a wrong type. Every error carries the full key
/// path from the document root, with array indices, and the value's source location.
///
/// **Duplicate keys.** When an object has the same key twice, the first member counts, for
/// every lookup, key path, `[String: T]` and ``JSONValue`` alike, as in Foundation's
/// `JSONDecoder` and for the paths a ``JSONStream`` streams (which cannot wait for a later
/// duplicate). `spool items` and `spool members` follow the same rule for their PATH; `members`
/// streams every member as it comes, duplicates included.
///
/// An extractor is valid while its value's tokens are held: for `decodeValue(from:)`, as long
/// as the extractor exists, unless its value was an element released once decoded
/// (``JSONParsingOptions/releasesDecodedElements``); for a streamed element, until the stream
/// moves on. A later use throws a ``DecodeError`` with code `.released` instead of reading stale data.
public struct Extractor {
    let context: DecodingContext
    /// Absolute tape index of the value's first token.
    let index: Int

    init(context: DecodingContext, index: Int) {
        self.context = context
        self.index = index
    }

    var tape: TokenTape { context.tape }

    // MARK: - About this value

    /// The path of this value from the document root, e.g. `objects[1].members[0]`.
    public var keyPath: JSONKeyPath { context.path(of: index) }

    /// Where this value starts in the input.
    public var location: SourceLocation? { context.isValid(index) ? tape.location(at: index) : nil }

    /// The kind of this value's first token: `.objectStart`, `.arrayStart`, `.string`, ...
    public var token: JSONToken? { context.isValid(index) ? tape[index].publicKind : nil }

    /// Whether this value is `null`.
    public var isNull: Bool { context.isValid(index) && tape[index].kind == .null }

    // MARK: - Reading fields

    /// The value at `keyPath`, decoded as `T`.
    /// - Throws: ``DecodeError`` with code `.missingKey` when the path leads nowhere, `.null`
    ///   when the value is `null` (unless `T` is optional), `.typeMismatch` when it has another
    ///   type; errors thrown by `T.decode` are wrapped with the value's path and location.
    public func value<T: JSONDecodable>(_ keyPath: JSONKeyPath) throws -> T {
        try decode(T.self, at: requiredTarget(keyPath, expecting: T.self))
    }

    /// The value at `keyPath` decoded as `T`, or `nil` when the path leads nowhere or to `null`.
    /// - Throws: ``DecodeError`` when the value exists with another type, or `T.decode` fails.
    public func valueOptional<T: JSONDecodable>(_ keyPath: JSONKeyPath) throws -> T? {
        guard let target = try optionalTarget(keyPath) else { return nil }
        return try decode(T.self, at: target)
    }

    /// The value at `keyPath` decoded as `T`, or `defaultValue` when the path leads nowhere or
    /// to `null`. A value of another type still throws.
    public func value<T: JSONDecodable>(_ keyPath: JSONKeyPath, default defaultValue: @autoclosure () -> T) throws -> T {
        try valueOptional(keyPath) ?? defaultValue()
    }

    /// The value at `keyPath` decoded as `From` and converted by `transformer`; an error from the
    /// transformer is reported at that value's path and location.
    ///
    /// ```swift
    /// birthDate: try e.value("birth_date", .pattern("yyyy-MM-dd"))
    /// ```
    public func value<From: JSONDecodable, To>(_ keyPath: JSONKeyPath, _ transformer: Transformer<From, To>) throws -> To {
        try transform(at: requiredTarget(keyPath, expecting: From.self), transformer)
    }

    /// Like ``value(_:_:)``, but `nil` when the path leads nowhere or to `null`.
    public func valueOptional<From: JSONDecodable, To>(_ keyPath: JSONKeyPath, _ transformer: Transformer<From, To>) throws -> To? {
        guard let target = try optionalTarget(keyPath) else { return nil }
        return try transform(at: target, transformer)
    }

    private func transform<From: JSONDecodable, To>(at target: Int, _ transformer: Transformer<From, To>) throws -> To {
        let value = try decode(From.self, at: target)
        do {
            return try transformer.apply(value)
        } catch let error as DecodeError {
            throw placed(error, at: target, expected: To.self)
        } catch {
            throw wrapped(error, at: target, expected: To.self)
        }
    }

    /// A ``DecodeError`` a transformer threw about the value at `target`, which it knew nothing
    /// of: its code and message are kept, and the value's path, location and text added where
    /// it has none.
    private func placed<T>(_ error: DecodeError, at target: Int, expected: T.Type) -> DecodeError {
        var placed = error
        if placed.keyPath.isEmpty {
            placed.keyPath = context.path(of: target)
            if !placed.keyPath.isEmpty { placed.message += " at \(placed.keyPath.clippedDescription)" }
        }
        if placed.location == nil { placed.location = tape.location(at: target) }
        if placed.expected == nil { placed.expected = TypeName.of(T.self) }
        if placed.actual == nil && placed.code != .missingKey { placed.actual = kindName(at: target) }
        if placed.excerpt == nil { placed.excerpt = excerpt(at: target) }
        return placed
    }

    /// The array at `keyPath`, each element decoded as `T`.
    public func array<T: JSONDecodable>(_ keyPath: JSONKeyPath) throws -> [T] {
        try value(keyPath)
    }

    /// The array at `keyPath`, or `nil` when the path leads nowhere or to `null`.
    public func arrayOptional<T: JSONDecodable>(_ keyPath: JSONKeyPath) throws -> [T]? {
        try valueOptional(keyPath)
    }

    /// The object at `keyPath` as a dictionary, each member decoded as `T`.
    public func dictionary<T: JSONDecodable>(_ keyPath: JSONKeyPath) throws -> [String: T] {
        try value(keyPath)
    }

    /// The object at `keyPath` as a dictionary, or `nil` when the path leads nowhere or to `null`.
    public func dictionaryOptional<T: JSONDecodable>(_ keyPath: JSONKeyPath) throws -> [String: T]? {
        try valueOptional(keyPath)
    }

    /// The array at `keyPath`, keeping the elements that decode as `T` and reporting the others.
    public func lossyArray<T: JSONDecodable>(_ keyPath: JSONKeyPath) throws -> LossyArray<T> {
        try value(keyPath)
    }

    /// This value itself, decoded as `T` (errors from `T.decode` wrapped with path and location).
    public func decode<T: JSONDecodable>(as type: T.Type = T.self) throws -> T {
        try decode(T.self, at: index)
    }

    // MARK: - Scalars, for custom decoders

    /// This value as a string.
    /// - Throws: ``DecodeError`` (`.null` or `.typeMismatch`) for anything but a string.
    public func string() throws -> String {
        _ = try checkedToken()
        return try String.read(at: index, in: context)
    }

    /// This value as a Boolean.
    public func bool() throws -> Bool {
        _ = try checkedToken()
        return try Bool.read(at: index, in: context)
    }

    /// This value as an integer of type `T`, exactly: a number out of range or with a fraction
    /// is a type mismatch, never truncated. Whole numbers written with a fraction or an
    /// exponent count (`1.0`, `1e3`, `0e41`, `1000e-3`, `-0.0`); `1.5` and `1e-1` do not.
    public func integer<T: FixedWidthInteger>(_ type: T.Type = T.self) throws -> T {
        _ = try checkedToken()
        return try context.integer(at: index, as: T.self)
    }

    /// This value as a `Double`, rounded to the nearest representable value.
    ///
    /// A number out of `Double`'s range is a type mismatch ("does not fit Double"), as in
    /// Foundation's `JSONDecoder`: one that would become infinite (`1e400`), and a non-zero
    /// one that would become 0 (`1e-400`). Numbers that round to a subnormal value are kept.
    public func double() throws -> Double {
        _ = try checkedToken()
        return try Double.read(at: index, in: context)
    }

    /// This value as a `Float`, rounded to the nearest representable value (out of its range:
    /// a type mismatch, as for ``double()``).
    func float() throws -> Float {
        _ = try checkedToken()
        return try Float.read(at: index, in: context)
    }

    /// The exact source text of this number.
    public func numberText() throws -> String {
        try numberText(expecting: Double.self)
    }

    /// The exact source text of this number; a mismatch names `T` as the expected type.
    func numberText<T>(expecting type: T.Type) throws -> String {
        let token = try checkedToken()
        guard token.kind == .number else { throw mismatchError(at: index, expected: T.self) }
        return tape.text(of: token)
    }

    /// Runs `body` with the UTF-8 bytes of this string (or number text) without copying them.
    public func withUTF8<Result>(_ body: (Span<UInt8>) throws -> Result) throws -> Result {
        let token = try checkedToken()
        guard token.kind == .string || token.kind == .number else { throw mismatchError(at: index, expected: String.self) }
        return try body(tape.bytes(of: token).span)
    }

    // MARK: - Errors for custom decoders

    /// An error about this value, for a model's `decode` to throw: its path and location are
    /// filled in, e.g. `throw e.error("price must be positive")`.
    public func error(_ message: String) -> DecodeError {
        let path = keyPath
        return DecodeError(
            code: .custom, keyPath: path, location: location, actual: kindName(at: index), excerpt: excerpt(at: index),
            message: path.isEmpty ? message : "\(message) at \(path.clippedDescription)")
    }

    // MARK: - Internals

    // The lookups below stay out of line, and are not generic: the frames of the generic
    // entry points that call them remain on the stack while the value found is decoded (once
    // per nesting level of a recursive model), so they should hold as little as possible.

    /// The index of the value at `keyPath`.
    /// - Throws: the missing-key or null ``DecodeError`` for a value of type `expecting`.
    @inline(never)
    private func requiredTarget(_ keyPath: JSONKeyPath, expecting: Any.Type) throws -> Int {
        switch try resolve(keyPath) {
        case .found(let target): return target
        case .missing(let parent, let path): throw missingKeyError(path, in: parent, expected: TypeName.of(expecting))
        case .null(let target): throw mismatchError(at: target, expected: TypeName.of(expecting), reason: nil)
        }
    }

    /// The index of the value at `keyPath`, or nil when the path leads nowhere or to `null`.
    @inline(never)
    private func optionalTarget(_ keyPath: JSONKeyPath) throws -> Int? {
        guard case .found(let target) = try resolve(keyPath), tape[target].kind != .null else { return nil }
        return target
    }

    @inline(__always)
    func checkedToken() throws -> RawToken {
        guard context.isValid(index) else { throw staleFailure() }
        return tape[index]
    }

    /// Follows `keyPath` from this value (see ``DecodingContext/resolve(_:from:)``).
    @inline(__always)
    func resolve(_ keyPath: JSONKeyPath) throws -> DecodingContext.Resolution {
        guard context.isValid(index) else { throw staleFailure() }
        return try context.resolve(keyPath, from: index)
    }

    /// Decodes the value at `target` as `T`, wrapping foreign errors with its path and location.
    ///
    /// This frame is on the stack once per nesting level of a recursive model, so it keeps
    /// nothing of its own: the error handling is out of line.
    func decode<T: JSONDecodable>(_ type: T.Type, at target: Int) throws -> T {
        try context.ensure(target)
        if context.stackLimit.isExceeded() { throw tooDeepFailure(at: target, expected: T.self) }
        do {
            return try T.decode(Extractor(context: context, index: target))
        } catch {
            throw wrappedUnlessDecodeError(error, at: target, expected: T.self)
        }
    }

    /// The value at `target` is nested too deep for the stack that is left: decoding it would
    /// overflow the stack.
    @inline(never)
    private func tooDeepFailure(at target: Int, expected: Any.Type) -> any Error {
        let path = context.path(of: target)
        return DecodeError(
            code: .tooDeep, keyPath: path, location: context.isValid(target) ? tape.location(at: target) : nil,
            expected: TypeName.of(expected),
            message: "nesting too deep to decode on this thread's stack (\(path.components.count) levels) at "
                + "\(path.clippedDescription): decode on a thread with a larger stack, or lower JSONParsingOptions.maxDepth")
    }

    @inline(never)
    private func wrappedUnlessDecodeError(_ error: any Error, at target: Int, expected: Any.Type) -> any Error {
        if error is DecodeError { return error }
        return wrapped(error, at: target, expected: TypeName.of(expected))
    }

    /// A foreign error (from a model's own code or a transformer) about the value at `target`,
    /// with that value's path and location; its own description is kept.
    private func wrapped<T>(_ error: any Error, at target: Int, expected: T.Type) -> DecodeError {
        wrapped(error, at: target, expected: TypeName.of(T.self))
    }

    private func wrapped(_ error: any Error, at target: Int, expected: String) -> DecodeError {
        let path = context.path(of: target)
        return DecodeError(
            code: .custom, keyPath: path, location: tape.location(at: target), expected: expected,
            actual: kindName(at: target), excerpt: excerpt(at: target),
            message: path.isEmpty ? "\(error)" : "\(error) at \(path.clippedDescription)")
    }

    func mismatchError<T>(at target: Int, expected: T.Type, reason: String? = nil) -> DecodeError {
        context.mismatchError(at: target, expected: TypeName.of(T.self), reason: reason)
    }

    func mismatchError(at target: Int, expected: String, reason: String?) -> DecodeError {
        context.mismatchError(at: target, expected: expected, reason: reason)
    }

    func badRawValueError<T>(_ type: T.Type) -> DecodeError {
        var error = mismatchError(at: index, expected: T.self, reason: "not a raw value of \(TypeName.of(T.self))")
        error.code = .badRawValue
        return error
    }

    func missingKeyError(_ path: JSONKeyPath, in parent: Int, expected: String) -> DecodeError {
        let fullPath = context.path(of: index) + path
        let parentPath = context.path(of: parent)
        let what: String
        switch path.components.last {
        case .key(let key)?: what = "missing key \(JSONKeyPath.quoted(key))"
        case .index(let position)?: what = "missing element [\(position)]"
        case .wildcard?, nil: what = "missing value"
        }
        let inside = parentPath.isEmpty ? "" : " in \(parentPath.clippedDescription)"
        let hint = path.components.last.flatMap(JSONKeyPath.pathSyntaxHint(for:)).map { "; \($0)" } ?? ""
        return DecodeError(
            code: .missingKey, keyPath: fullPath, location: tape.location(at: parent), expected: expected,
            message: "\(what)\(inside) (expected \(expected))\(hint)")
    }

    // Errors thrown from the generic decoding frames are built and boxed out of line (as
    // `any Error`): a `DecodeError` built in place would take room in those frames, which stay
    // on the stack once per nesting level of a recursive model.

    /// ``staleError()``, boxed.
    @inline(never)
    func staleFailure() -> any Error { staleError() }

    /// ``mismatchError(at:expected:reason:)`` without a reason, boxed.
    @inline(never)
    func mismatchFailure(at target: Int, expected: Any.Type) -> any Error {
        mismatchError(at: target, expected: TypeName.of(expected), reason: nil)
    }

    func staleError() -> DecodeError {
        if context.isValid && context.tape.isReleased(index) { return context.releasedError() }
        return DecodeError(
            code: .released, keyPath: context.basePath,
            message: "the value's tokens are gone: an Extractor was used after its stream moved on")
    }

    func kindName(at target: Int) -> String {
        context.kindName(at: target)
    }

    /// The value's text for messages (see ``DecodingContext/excerpt(at:)``).
    func excerpt(at target: Int) -> String? {
        context.excerpt(at: target)
    }
}
