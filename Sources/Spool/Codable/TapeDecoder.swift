import Foundation  // DateFormatter is not in FoundationEssentials

/// The `Decoder` behind ``StreamingJSONDecoder``: it reads the token tape directly.
///
/// One decoder serves a whole value: decoding a child moves `index` to the child and notes the
/// child's place (its container's path node and its key, borrowed), then restores both (as
/// swift-foundation's decoder does), so a field costs no decoder and no path array; a scalar
/// field does not even move it. Scalars go through the exact conversions of ``ScalarValue``; `Date`,
/// `Data`, `URL`, `Decimal`, arrays and `String`-keyed dictionaries are read the way
/// `JSONDecoder` reads them (``DecodingSession`` finds which a type is, once). Spool's
/// ``DecodeError`` becomes the `DecodingError` a `JSONDecoder` user catches, with the
/// ``DecodeError`` as its `underlyingError`.
final class TapeDecoder: Decoder {
    let context: DecodingContext
    let session: DecodingSession
    /// The tape index of the value being decoded, or nil for an absent value (a missing
    /// `super` key), which reads as `null`.
    @exclusivity(unchecked) var index: Int?
    /// The path of the container holding the current value, after the context's base path
    /// (nil: the value is the context's root, or a member of it).
    @exclusivity(unchecked) var parent: CodingPathNode?
    /// The current value's key in that container (``CurrentKey/none``: the container's own value).
    @exclusivity(unchecked) var key: CurrentKey

    var configuration: StreamingJSONDecoder.Configuration { session.configuration }

    var codingPath: [any CodingKey] { path(parent, key.codingKey) }

    /// The current value's path as a node, for a container made for it.
    var node: CodingPathNode? { key.codingKey.map { CodingPathNode(parent: parent, key: $0) } ?? parent }

    var userInfo: [CodingUserInfoKey: Any] { configuration.userInfo }

    /// For an absent value (`index` nil): the container it is missing from, whose location
    /// errors about it give.
    let anchor: Int?

    /// For a decoder of its own (`superDecoder`) made inside an element of an array that
    /// releases its elements: holds that element on the tape while the decoder, or a
    /// container made from it, lives (``DecodingContext/ChildWalk/Lease``).
    var lease: DecodingContext.ChildWalk.Lease?

    /// How deep this decode may recurse on the current thread's stack.
    @exclusivity(unchecked) var stackLimit = StackLimit()

    /// The node last made for an object's path (``node(ofObjectAt:parent:key:)``): the
    /// children of one object are usually decoded one after another.
    @exclusivity(unchecked) private var lastNode: (object: Int, parent: CodingPathNode?, node: CodingPathNode)?

    /// A decoder for the context's root value, at the context's base path.
    convenience init(context: DecodingContext, session: DecodingSession) {
        self.init(context: context, session: session, index: context.rootIndex, parent: nil, key: .none)
    }

    /// A decoder for the value at `index`, or for an absent value (nil), which reads as `null`
    /// (a `super` key that is not there): the value of `key` in the container at `parent`.
    init(context: DecodingContext, session: DecodingSession, index: Int?,
         parent: CodingPathNode?, key: CurrentKey, anchor: Int? = nil) {
        self.context = context
        self.session = session
        self.index = index
        self.parent = parent
        self.key = key.owned
        self.anchor = anchor
    }

    var tape: TokenTape { context.tape }

    /// The path of the object at `object`, the value of `key` in the container at `parent`, as
    /// a node: the last one made when it is for the same object, place and type of key.
    @inline(never)
    func node(ofObjectAt object: Int, parent: CodingPathNode?, key: CurrentKey) -> CodingPathNode? {
        if case .none = key { return parent }
        if let last = lastNode, last.object == object, last.parent === parent, key.isSameType(as: last.node.key) {
            return last.node
        }
        guard let codingKey = key.codingKey else { return parent }
        let node = CodingPathNode(parent: parent, key: codingKey)
        lastNode = (object, parent, node)
        return node
    }

    /// The coding path of `node` plus `key`: the context's base path (a streamed element's
    /// array and index), then the nodes' keys. Built only when asked for (errors, `codingPath`).
    ///
    /// One array, made at its size (a `try?` fallback builds a path for every value it refuses).
    func path(_ node: CodingPathNode?, _ key: (any CodingKey)? = nil) -> [any CodingKey] {
        let base = context.basePath
        var depth = 0
        var current = node
        while let step = current {
            depth &+= 1
            current = step.parent
        }
        var keys: [any CodingKey] = []
        keys.reserveCapacity(base.count &+ depth &+ (key == nil ? 0 : 1))
        base.forEachComponent { keys.append(JSONCodingKey($0)) }
        if depth > 0 {
            let start = keys.count
            current = node
            while let step = current {  // innermost first: reversed in place below
                keys.append(step.key)
                current = step.parent
            }
            keys[start...].reverse()
        }
        if let key { keys.append(key) }
        return keys
    }

    // MARK: - Decoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try container(keyedBy: Key.self, lease: nil)
    }

    /// The current value as a keyed container, not boxed.
    /// The current value as a keyed container; `lease` (or this decoder's) holds its element
    /// on the tape while the container lives.
    func container<Key: CodingKey>(
        keyedBy type: Key.Type, lease: DecodingContext.ChildWalk.Lease?
    ) throws -> KeyedDecodingContainer<Key> {
        // (Every container is checked against the stack: a model may recurse through its own
        // `init(from:)` with a `superDecoder` or a nested container, not through `unwrap`.)
        if stackLimit.isExceeded() { throw tooDeep([String: Any].self) }
        let object = try value(expecting: .objectStart)
        if let lease = lease ?? self.lease {
            let state = KeyedContainerState(decoder: self, object: object, parent: parent, key: key, lease: lease)
            return KeyedDecodingContainer(KeyedContainer<Key>(state: state))
        }
        return session.reusableContainers.container(keyedBy: Key.self, decoder: self, object: object, parent: parent, key: key)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try arrayContainer()
    }

    /// The current value as an unkeyed container, not boxed.
    func arrayContainer(lease: DecodingContext.ChildWalk.Lease? = nil) throws -> UnkeyedContainer {
        if stackLimit.isExceeded() { throw tooDeep([Any].self) }
        let array = try value(expecting: .arrayStart)
        return UnkeyedContainer(decoder: self, array: array, node: node, lease: lease ?? self.lease)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(decoder: self, index: index, parent: parent, key: key.owned)
    }

    /// An array whole on the tape, read without a container.
    struct WholeArray {
        /// Its start token.
        let start: Int
        /// Its end token.
        let end: Int
        /// Its number of elements.
        let count: Int
    }

    /// The current value, when it is an array whole on the tape in one piece whose elements no
    /// loop would release as they are decoded (a stream's element, an array inside the array
    /// being released, or a document parsed to its end): it can be walked by index, with its
    /// length known at the start. Else nil, and an ``UnkeyedContainer`` reads it.
    func wholeArray() -> WholeArray? {
        guard let index, context.isValid(index), let span = tape.closedSpan(ofContainerAt: index),
            span.tokens.pointee.kind == .arrayStart, let count = Int(exactly: span.tokens.pointee.length),
            context.isReleasing || context.filler?.options.releasesDecodedElements != true
        else { return nil }
        return WholeArray(start: index, end: span.end, count: count)
    }

    /// The current value's index, which must start a container of `kind` whose children are
    /// still there (not released after an earlier decoding of it).
    ///
    /// (The type errors name, `[String: Any]` or `[Any]`, is made only for an error: the
    /// metadata of `[String: Any]` is found by its mangled name, whose `String: Hashable` the
    /// runtime checks by scanning every conformance record the first time in a process, about
    /// 270,000 instructions of a first decode.)
    private func value(expecting kind: RawToken.Kind) throws -> Int {
        guard let index else { throw valueNotFound(Self.containerType(kind), at: nil, "Cannot get a container: the value is absent") }
        if context.isValid(index) && context.isValid(index + 1) && tape[index].kind == kind { return index }
        let token = try checked(index)
        guard token.kind == kind else { throw mismatch(Self.containerType(kind), at: index) }
        _ = try checked(index + 1)
        return index
    }

    /// The type an error names for a container of `kind`.
    @inline(never)
    private static func containerType(_ kind: RawToken.Kind) -> Any.Type {
        kind == .objectStart ? [String: Any].self : [Any].self
    }

    // MARK: - Decoding values

    /// Decodes the value at `index` (nil: absent) as `T`: the value of `key` in the container
    /// at `parent`. (Written out, not through ``at(_:parent:key:_:)``: this is the frame a
    /// recursive model repeats per level, and a closure's context makes it larger.)
    func decode<T: Decodable>(_ type: T.Type, at index: Int?, parent: CodingPathNode?, key: CurrentKey) throws -> T {
        var place = Place(index: index, parent: parent, key: key)
        enter(&place)
        defer { enter(&place) }
        return try dispatch(type)
    }

    /// Where the decoder is: the value's index, its container's path and its key.
    struct Place {
        var index: Int?
        var parent: CodingPathNode?
        var key: CurrentKey
    }

    /// Moves the decoder to `place`, leaving where it was in `place` (so that calling it again
    /// moves it back). Swapped, not copied: saving the path and restoring it by assignment cost
    /// three retains and three releases per value decoded.
    @inline(__always)
    func enter(_ place: inout Place) {
        swap(&index, &place.index)
        swap(&parent, &place.parent)
        swap(&key, &place.key)
    }

    /// Runs `body` with the decoder moved to the value at `index`, the value of `key` in the
    /// container at `parent`; then moves it back (a borrowed key is never kept past this call).
    @inline(__always)
    func at<T>(_ index: Int?, parent: CodingPathNode?, key: CurrentKey, _ body: (TapeDecoder) throws -> T) throws -> T {
        var place = Place(index: index, parent: parent, key: key)
        enter(&place)
        defer { enter(&place) }
        return try body(self)
    }

    /// The current value as `T`: the types `JSONDecoder` reads in its own way, else `type`'s
    /// own `init(from:)` with this decoder (`type` may be a subclass of `T`, as in
    /// `decode(Employee.self as Person.Type, from:)`, whose `init(from:)` runs, as in
    /// `JSONDecoder`).
    func unwrap<T: Decodable>(_ type: T.Type) throws -> T {
        switch session.kind(of: T.self) {
        case .model:
            if stackLimit.isExceeded() { throw tooDeep(T.self) }
            return try type.init(from: self)
        case .string: return try same(quickOrScalar(String.self), T.self)
        case .bool: return try same(quickOrScalar(Bool.self), T.self)
        case .double: return try same(quickOrFloat(Double.self), T.self)
        case .float: return try same(quickOrFloat(Float.self), T.self)
        case .int: return try same(quickOrScalar(Int.self), T.self)
        case .int8: return try same(quickOrScalar(Int8.self), T.self)
        case .int16: return try same(quickOrScalar(Int16.self), T.self)
        case .int32: return try same(quickOrScalar(Int32.self), T.self)
        case .int64: return try same(quickOrScalar(Int64.self), T.self)
        case .uint: return try same(quickOrScalar(UInt.self), T.self)
        case .uint8: return try same(quickOrScalar(UInt8.self), T.self)
        case .uint16: return try same(quickOrScalar(UInt16.self), T.self)
        case .uint32: return try same(quickOrScalar(UInt32.self), T.self)
        case .uint64: return try same(quickOrScalar(UInt64.self), T.self)
        case .date: return try same(decodeDate(), T.self)
        case .data: return try same(decodeData(), T.self)
        case .url: return try same(decodeURL(), T.self)
        case .decimal: return try same(scalar(Decimal.self), T.self)
        case .int128: return try same(integer(Int128.self), T.self)
        case .uint128: return try same(integer(UInt128.self), T.self)
        case .array(let array):
            if stackLimit.isExceeded() { throw tooDeep(T.self) }
            return try array.decodeArray(from: self, as: T.self)
        case .stringKeyedDictionary(let dictionary):
            if stackLimit.isExceeded() { throw tooDeep(T.self) }
            return try dictionary.decodeDictionary(from: self, as: T.self)
        }
    }

    /// ``unwrap(_:)`` in a small frame, for the frames a recursive model repeats per level:
    /// models and collections, which recurse, are checked against the stack and called from
    /// here; the rest go through ``unwrap(_:)`` in a frame of its own (the scalars'
    /// conversions, inlined, would make this one larger).
    @inline(__always)
    private func dispatch<T: Decodable>(_ type: T.Type) throws -> T {
        switch session.kind(of: T.self) {
        case .model:
            if stackLimit.isExceeded() { throw tooDeep(T.self) }
            return try type.init(from: self)
        case .array(let array):
            if stackLimit.isExceeded() { throw tooDeep(T.self) }
            return try array.decodeArray(from: self, as: T.self)
        case .stringKeyedDictionary(let dictionary):
            if stackLimit.isExceeded() { throw tooDeep(T.self) }
            return try dictionary.decodeDictionary(from: self, as: T.self)
        default:
            return try unwrapLeaf(type)
        }
    }

    @inline(never)
    private func unwrapLeaf<T: Decodable>(_ type: T.Type) throws -> T {
        try unwrap(type)
    }

    /// `value` as `T`, which the session found to be `Value` itself: no dynamic cast needed.
    @inline(__always)
    func same<Value, T>(_ value: Value, _ type: T.Type) throws -> T {
        guard Value.self == T.self else { return try cast(value, T.self) }
        return unsafeBitCast(value, to: T.self)
    }

    /// `value` as `T`, for a collection's static method that the session dispatched on `T`'s
    /// own metatype (``DecodingSession/kind(of:)``): `Self` is `T` by construction. No check
    /// is made in release builds, since `Value.self` of an `Array<Element>` is a generic
    /// metadata lookup (about 360 instructions, once per array decoded).
    @inline(__always)
    func dispatched<Value, T>(_ value: Value, _ type: T.Type) -> T {
        assert(Value.self == T.self, "dispatched on another type's metatype")
        return unsafeBitCast(value, to: T.self)
    }

    /// The current value as a standard scalar, the quick way when it converts.
    @inline(__always)
    private func quickOrScalar<T: ScalarValue>(_ type: T.Type) throws -> T {
        if let index, let quick = quickScalar(T.self, at: index) { return quick }
        return try scalar(T.self)
    }

    @inline(__always)
    private func quickOrFloat<T: BinaryFloatingPoint & ScalarValue>(_ type: T.Type) throws -> T {
        if let index, let quick = quickFloat(T.self, at: index) { return quick }
        return try float(T.self)
    }

    /// The scalar at `index` through Spool's exact conversion, or nil when it is not there yet
    /// or does not convert: then the caller goes the long way (``scalar(_:)`` at the value's
    /// path), which reads on or throws the located error. Most values take this way only.
    @inline(__always)
    func quickScalar<T: ScalarValue>(_ type: T.Type, at index: Int) -> T? {
        guard context.isValid(index) else { return nil }
        // A string where a number or a Bool is asked for goes the long way at once, building no
        // error here: a `try?` fallback from a number to a string pays for one error, not two.
        // (Strings, the most common fields, are not checked twice.)
        if T.self != String.self && tape[index].kind == .string { return nil }
        return try? T.read(at: index, in: context)
    }

    /// ``quickScalar(_:at:)`` for `Double` and `Float`: finite values only (the rest, and
    /// strings under a non-conforming float strategy, take the long way).
    @inline(__always)
    func quickFloat<T: BinaryFloatingPoint & ScalarValue>(_ type: T.Type, at index: Int) -> T? {
        guard let value = quickScalar(T.self, at: index), value.isFinite else { return nil }
        return value
    }

    private func cast<Value, T>(_ value: Value, _ type: T.Type) throws -> T {
        guard let typed = value as? T else {
            throw DecodingError.typeMismatch(T.self, .init(codingPath: codingPath, debugDescription: "internal type mismatch"))
        }
        return typed
    }

    /// Whether `T` is a standard number type or `Bool`, which no string converts to (a
    /// constant where `T` is known).
    @inline(__always)
    private static func isNumberOrBool<T>(_ type: T.Type) -> Bool {
        T.self == Int.self || T.self == Double.self || T.self == Bool.self || T.self == Float.self
            || T.self == Int8.self || T.self == Int16.self || T.self == Int32.self || T.self == Int64.self
            || T.self == UInt.self || T.self == UInt8.self || T.self == UInt16.self || T.self == UInt32.self
            || T.self == UInt64.self
    }

    /// The current value through one of Spool's exact scalars.
    func scalar<T: ScalarValue>(_ type: T.Type) throws -> T {
        guard let index else { throw valueNotFound(T.self, at: nil, "Expected \(TypeName.of(T.self)) value but the value is absent") }
        // (Read on: a scalar's token may not be on the tape yet.)
        if try checked(index).kind == .string, Self.isNumberOrBool(T.self) {
            // The mismatch the scalar would throw, made here: thrown, caught and wrapped, it
            // cost a `try?` fallback from a number to a string 10 % more per element.
            throw decodingError(context.mismatchError(at: index, expected: T.self), type: T.self)
        }
        do {
            return try T.read(at: index, in: context)
        } catch var error as DecodeError {
            // JSONDecoder's Bool paths have no null check: `null` is a type mismatch for a Bool.
            if T.self == Bool.self && error.code == .null { error.code = .typeMismatch }
            throw decodingError(error, type: T.self)
        }
    }

    /// The current value as an integer type that is not a ``ScalarValue`` (`Int128`,
    /// `UInt128`), exactly, as Spool reads the others.
    func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        guard let index else { throw valueNotFound(T.self, at: nil, "Expected \(TypeName.of(T.self)) value but the value is absent") }
        _ = try checked(index)
        do {
            return try context.integer(at: index, as: T.self)
        } catch let error as DecodeError {
            throw decodingError(error, type: T.self)
        }
    }

    /// A `Double` or `Float`, with the non-conforming float strategy for strings.
    func float<T: BinaryFloatingPoint & ScalarValue>(_ type: T.Type) throws -> T {
        if case .convertFromString(let positive, let negative, let nan) = configuration.nonConformingFloatDecodingStrategy,
            let index, try checked(index).kind == .string
        {
            let text = try scalar(String.self)
            if text == positive { return .infinity }
            if text == negative { return -.infinity }
            if text == nan { return .nan }
        }
        let value = try scalar(T.self)
        if !value.isFinite, let index {
            // A number beyond the type's range: JSONDecoder refuses it too (as invalid JSON).
            let error = context.mismatchError(at: index, expected: T.self, reason: "beyond \(TypeName.of(T.self))'s range")
            throw decodingError(error, type: T.self)
        }
        return value
    }

    private func decodeDate() throws -> Date {
        switch configuration.dateDecodingStrategy {
        case .deferredToDate:
            return try Date(from: self)
        case .secondsSince1970:  // (a Double, as JSONDecoder reads them: the float strategy applies)
            return Date(timeIntervalSince1970: try float(Double.self))
        case .millisecondsSince1970:
            return Date(timeIntervalSince1970: try float(Double.self) / 1000)
        case .iso8601, .pattern:  // (the session made this strategy's parser once: never nil here)
            return try parsedDate(session.dateParser ?? .iso8601)
        case .formatted(let formatter):
            let text = try scalar(String.self)
            guard let date = formatter.date(from: text) else {
                throw corrupted("Date string does not match format expected by formatter: \(JSONKeyPath.quoted(text))", code: .invalidValue)
            }
            return date
        case .custom(let read):
            return try read(self)
        }
    }

    private func parsedDate(_ parser: DateParser) throws -> Date {
        let text = try scalar(String.self)
        do {
            return try parser.parse(text)
        } catch let error as DecodeError {
            throw corrupted(error.message, code: .invalidValue)  // (its message, not its `error:` line)
        } catch {
            throw corrupted("\(error)", code: .invalidValue)
        }
    }

    private func decodeData() throws -> Data {
        switch configuration.dataDecodingStrategy {
        case .deferredToData:
            return try Data(from: self)
        case .base64:
            let text = try scalar(String.self)
            guard let data = Data(base64Encoded: text) else { throw corrupted("Encountered Data is not valid Base64", code: .invalidValue) }
            return data
        case .custom(let read):
            return try read(self)
        }
    }

    private func decodeURL() throws -> URL {
        let text = try scalar(String.self)
        guard let url = session.recentURLs.url(for: text) else { throw corrupted("Invalid URL string: \(JSONKeyPath.quoted(text))", code: .invalidValue) }
        return url
    }

    /// Decodes the document's value at `rootKeyPath`, starting at `index`.
    func decodeRoot<T: Decodable>(_ type: T.Type, at index: Int, rootKeyPath: JSONKeyPath) throws -> T {
        assert(context.basePath.isEmpty, "a root key path is resolved from the document's root")
        guard !rootKeyPath.isEmpty else { return try decode(type, at: index, parent: parent, key: .none) }
        let target: Int
        var path = rootKeyPath
        do {
            switch try context.resolve(rootKeyPath, from: index) {
            case .found(let found): target = found
            case .missing(let parent, let missing):
                let keys = missing.components.map(JSONCodingKey.init)
                let location = context.isValid(parent) ? "\(tape.location(at: parent)): " : ""
                throw DecodingError.keyNotFound(
                    keys.last ?? JSONCodingKey(stringValue: ""),
                    .init(codingPath: Array(keys.dropLast()), debugDescription: "\(location)No value at \(missing)"))
            case .null(let null):  // a null on the way: the value is that null, at its own path
                target = null
                path = context.path(of: null)
            }
        } catch let error as DecodeError {
            // At the path of the value that is not the object or array the path goes through.
            let saved = parent
            parent = CodingPathNode.make(error.keyPath.components.map(JSONCodingKey.init))
            defer { parent = saved }
            throw decodingError(error, type: T.self)
        }
        return try decode(type, at: target, parent: CodingPathNode.make(path.components.map(JSONCodingKey.init)), key: .none)
    }

    // MARK: - Reading the tape

    /// The token at `index`, once it is on the tape.
    func checked(_ index: Int) throws -> RawToken {
        do {
            try context.ensure(index)
        } catch let error as DecodeError {
            throw decodingError(error, type: Any.self)
        }
        guard context.isValid(index) else {
            throw corrupted("the value's tokens are gone: a decoder was used after its stream moved on", code: .released)
        }
        return tape[index]
    }

    /// The index just past the value at `index`, reading on until it is complete.
    func end(ofValueAt index: Int) throws -> Int {
        do {
            return try context.lastIndex(ofValueAt: index) + 1
        } catch let error as DecodeError {
            throw decodingError(error, type: Any.self)
        }
    }

    // MARK: - Errors

    /// Spool's error as the `DecodingError` `JSONDecoder` would throw, at the current coding
    /// path, with Spool's error (path, location, offending value) underneath.
    func decodingError(_ error: DecodeError, type: Any.Type) -> DecodingError {
        let context = DecodingError.Context(
            codingPath: codingPath, debugDescription: Self.describe(error), underlyingError: error)
        switch error.code {
        case .null: return .valueNotFound(type, context)
        case .typeMismatch, .badRawValue: return .typeMismatch(type, context)
        default: return .dataCorrupted(context)
        }
    }

    /// `LINE:COLUMN: MESSAGE`, or the message alone without a location.
    static func describe(_ error: DecodeError) -> String {
        guard let location = error.location else { return error.message }
        var text = MessageText(capacity: error.message.utf8.count + 16)
        text.append(location.line)
        text.append(":")
        text.append(location.column)
        text.append(": ")
        text.append(error.message)
        return text.text
    }

    /// A type mismatch for the value at `index` (nil: absent).
    func mismatch(_ type: Any.Type, at index: Int?) -> DecodingError {
        guard let index else { return valueNotFound(type, at: nil, "Expected \(TypeName.of(type)) but the value is absent") }
        let expected = type == [String: Any].self ? "object" : type == [Any].self ? "array" : TypeName.of(type)
        return decodingError(context.mismatchError(at: index, expected: expected, reason: nil), type: type)
    }

    func valueNotFound(_ type: Any.Type, at index: Int?, _ message: String) -> DecodingError {
        let location = (index ?? anchor).flatMap { context.isValid($0) ? tape.location(at: $0) : nil }
        let text = location.map { "\($0): \(message)" } ?? message
        return .valueNotFound(type, .init(codingPath: codingPath, debugDescription: text))
    }

    /// The error for a value nested too deep to decode on this thread's stack: refused,
    /// located, where decoding it would overflow the stack.
    @inline(never)
    func tooDeep(_ type: Any.Type) -> DecodingError {
        let depth = path(parent, key.codingKey).count
        let error = DecodeError(
            code: .tooDeep, keyPath: JSONKeyPath(codingPath.map(JSONKeyPath.Component.init)),
            location: index.flatMap { context.isValid($0) ? tape.location(at: $0) : nil },
            expected: TypeName.of(type),
            message: "nesting too deep to decode on this thread's stack (\(depth) levels): "
                + "decode on a thread with a larger stack, or lower JSONParsingOptions.maxDepth")
        return .dataCorrupted(.init(codingPath: codingPath, debugDescription: Self.describe(error), underlyingError: error))
    }

    /// A `.dataCorrupted` error about the current value, located, whose underlying
    /// ``DecodeError`` has `code`.
    func corrupted(_ message: String, code: DecodeError.Code) -> DecodingError {
        let location = index.flatMap { context.isValid($0) ? tape.location(at: $0) : nil }
        var underlying = DecodeError(code: code, keyPath: JSONKeyPath(codingPath.map(JSONKeyPath.Component.init)), location: location, message: message)
        if let index, context.isValid(index) {
            underlying.actual = context.kindName(at: index)
            underlying.excerpt = context.excerpt(at: index)
        }
        return .dataCorrupted(.init(codingPath: codingPath, debugDescription: Self.describe(underlying), underlyingError: underlying))
    }
}

extension JSONKeyPath.Component {
    /// A coding key as a path component: its integer value, else its string.
    init(_ key: any CodingKey) {
        self = key.intValue.map { .index($0) } ?? .key(key.stringValue)
    }
}
