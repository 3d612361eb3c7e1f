#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The `Encoder` behind ``StreamingJSONEncoder``: one object serves every nesting level of a
/// value, writing into a ``JSONWriter`` as `encode(to:)` calls arrive.
///
/// It keeps a stack of levels: one per `encode(to:)` in progress (a *frame*: the slot a value
/// fills) and one per nested container opened inside it. Containers remember their level's id;
/// a write through a container whose level is below the top first ends the nested containers
/// above it (they are done: their parent has moved on). A container whose level has ended
/// throws on use.
final class WriterEncoder: Encoder, SingleValueEncodingContainer {
    /// The coding key under which a level's value sits.
    enum PathKey {
        case none
        case key(any CodingKey)
        case index(Int)

        var codingKey: (any CodingKey)? {
            switch self {
            case .none: return nil
            case .key(let key): return key
            case .index(let index): return IndexCodingKey(index: index)
            }
        }
    }

    struct Level {
        enum State: UInt8 { case empty, keyed, unkeyed, single }
        var id: Int
        var state: State
        /// The slot of an `encode(to:)` call, rather than a nested container.
        var isFrame: Bool
        var key: PathKey
        /// Elements of an unkeyed container.
        var count = 0
        /// For a frame that holds a single value: where the writer was when it began (an offset
        /// in the output), so a container asked for next can continue it.
        var valueStart = 0
        /// Super encoders to place when this container ends (keyed) or before its next element
        /// (unkeyed).
        var supers: [PendingSuper]?

        init(id: Int, state: State, isFrame: Bool, key: PathKey) {
            self.id = id
            self.state = state
            self.isFrame = isFrame
            self.key = key
        }
    }

    /// A `superEncoder()` waiting to be placed: its own encoder and writer, and the key to write
    /// it under (none in an unkeyed container).
    struct PendingSuper {
        var encoder: WriterEncoder
        var key: String?
        /// The coding key it was asked for, for errors.
        var codingKey: (any CodingKey)?
    }

    enum KeyMode {
        case plain, snakeCase
        case custom(@Sendable ([any CodingKey]) -> any CodingKey)
    }

    let writer: JSONWriter
    let configuration: StreamingJSONEncoder.Configuration
    let sortsKeys: Bool
    let keyMode: KeyMode
    /// The path to this encoder's top level: empty, except for a super encoder.
    let basePath: [any CodingKey]

    @exclusivity(unchecked) var levels: [Level] = []
    /// The id of `levels.last`, or 0.
    @exclusivity(unchecked) var topID = 0
    @exclusivity(unchecked) var nextID = 1
    @exclusivity(unchecked) var snakeCaseKeys: [String: String] = [:]
    /// For a super encoder: its value has been written into its container, and it takes no more.
    @exclusivity(unchecked) var isPlaced = false
    /// `superEncoder(forKey:)` encoders waiting to be placed, in every level: while there are
    /// any, a key written checks whether one waits for it.
    @exclusivity(unchecked) var pendingKeyedSupers = 0
    /// The error of a super encoder's value that could not be placed (WriterEncoder+Super.swift):
    /// ``encodeRoot(_:)`` throws it even when the call that met it could not.
    var lostValueError: (any Error)?
    /// The deepest nesting written (``StreamingJSONEncoder/maxDepth``), at least 1.
    let maxDepth: Int
    /// How deep this encoder may recurse on the current thread's stack: from where it was
    /// made, and again from each ``encodeRoot(_:)`` (a session's values may come on other threads).
    @exclusivity(unchecked) var stackLimit = StackLimit()
    private lazy var userInfoValues: [CodingUserInfoKey: Any] = configuration.userInfo.mapValues { $0 as Any }

    init(writer: JSONWriter, configuration: StreamingJSONEncoder.Configuration, basePath: [any CodingKey] = []) {
        self.writer = writer
        self.configuration = configuration
        self.basePath = basePath
        maxDepth = max(1, configuration.maxDepth)
        sortsKeys = configuration.outputFormatting.contains(.sortedKeys)
        switch configuration.keyEncodingStrategy {
        case .useDefaultKeys: keyMode = .plain
        case .convertToSnakeCase: keyMode = .snakeCase
        case .custom(let convert): keyMode = .custom(convert)
        }
    }

    deinit {
        // Super encoders not placed (the encode failed) hold the ones inside them, as deep as the
        // value went: released one by one, not by a recursion as deep (which, from a refusal at
        // the stack's limit, would overflow it).
        guard levels.contains(where: { $0.supers != nil }) else { return }
        var pending = takeSupers()
        while var encoder = pending.popLast() {
            if isKnownUniquelyReferenced(&encoder) { pending += encoder.takeSupers() }
        }
    }

    /// The encoders of the super encoders waiting in every level, taken out of them.
    private func takeSupers() -> [WriterEncoder] {
        var encoders: [WriterEncoder] = []
        for index in levels.indices {
            guard let supers = levels[index].supers else { continue }
            levels[index].supers = nil
            encoders += supers.map(\.encoder)
        }
        return encoders
    }

    // MARK: - Encoder

    var codingPath: [any CodingKey] {
        guard let frame = levels.lastIndex(where: { $0.isFrame }) else { return basePath }
        return path(through: frame)
    }

    var userInfo: [CodingUserInfoKey: Any] { userInfoValues }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        guard let frame = levels.lastIndex(where: { $0.isFrame }) else {
            let error: any Error = noValueError("container(keyedBy:) with no value being encoded")
            return KeyedEncodingContainer(FailingContainer(error: error, codingPath: basePath))
        }
        switch levels[frame].state {
        case .keyed:
            // Asked again (a superclass sharing the encoder): the same object continues.
            return KeyedEncodingContainer(KeyedContainer(encoder: self, id: levels[frame].id))
        case .empty:
            do {
                try checkNesting(at: path(through: frame))
                try writer.openContainer(.object, sorted: sortsKeys, checksKeys: true)
            } catch {
                return KeyedEncodingContainer(FailingContainer(error: error, codingPath: path(through: frame)))
            }
            levels[frame].state = .keyed
            return KeyedEncodingContainer(KeyedContainer(encoder: self, id: levels[frame].id))
        case .single:
            // A single value that wrote an object: the object continues (as in JSONEncoder).
            if let error = reopenSingleValue(frame, as: .object, call: "container(keyedBy:)") {
                return KeyedEncodingContainer(FailingContainer(error: error, codingPath: path(through: frame)))
            }
            levels[frame].state = .keyed
            return KeyedEncodingContainer(KeyedContainer(encoder: self, id: levels[frame].id))
        case .unkeyed:
            let error = misuse("container(keyedBy:) for a value that already encoded an unkeyed container", at: path(through: frame))
            return KeyedEncodingContainer(FailingContainer(error: error, codingPath: path(through: frame)))
        }
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        guard let frame = levels.lastIndex(where: { $0.isFrame }) else {
            let error: any Error = noValueError("unkeyedContainer() with no value being encoded")
            return FailingContainer<IndexCodingKey>(error: error, codingPath: basePath)
        }
        switch levels[frame].state {
        case .unkeyed:
            return UnkeyedContainer(encoder: self, id: levels[frame].id)
        case .empty:
            do {
                try checkNesting(at: path(through: frame))
                try writer.openContainer(.array, sorted: false)
            } catch {
                return FailingContainer<IndexCodingKey>(error: error, codingPath: path(through: frame))
            }
            levels[frame].state = .unkeyed
            return UnkeyedContainer(encoder: self, id: levels[frame].id)
        case .single:
            // A single value that wrote an array: the array continues (as in JSONEncoder).
            if let error = reopenSingleValue(frame, as: .array, call: "unkeyedContainer()") {
                return FailingContainer<IndexCodingKey>(error: error, codingPath: path(through: frame))
            }
            levels[frame].state = .unkeyed
            levels[frame].count = writer.current.count
            return UnkeyedContainer(encoder: self, id: levels[frame].id)
        case .keyed:
            let error = misuse("unkeyedContainer() for a value that already encoded a keyed container", at: path(through: frame))
            return FailingContainer<IndexCodingKey>(error: error, codingPath: path(through: frame))
        }
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    // MARK: - Values

    /// Encodes `value` into the writer's current slot. At the writer's top level, a value that
    /// encodes nothing is an error (as in `JSONEncoder`); deeper, it is `{}`. On failure the
    /// writer goes back to where it was, when it can.
    func encodeRoot<T: Encodable>(_ value: T) throws {
        stackLimit = StackLimit()
        let mark = writer.checkpoint()
        do {
            if try !encodeSpecial(value, key: .none) {
                try encodeFrame(key: .none, root: writer.depth == 0 ? value : nil) { try value.encode(to: self) }
            }
            if let lost = lostValueError { throw lost }
        } catch {
            levels.removeAll(keepingCapacity: true)
            topID = 0
            pendingKeyedSupers = 0
            lostValueError = nil
            writer.rewind(to: mark, reason: JSONWriter.summary(of: error))
            throw error
        }
    }

    /// Encodes `value` into the slot due now (after its key, as an element, or a single value).
    @inline(__always)
    func encodeValue<T: Encodable>(_ value: T, key: PathKey) throws {
        if try encodeSpecial(value, key: key) { return }
        try encodeFrame(key: key, root: nil) { try value.encode(to: self) }
    }

    /// Writes `key` and `value` as a member of the object on top; on failure the writer goes
    /// back to before the key.
    ///
    /// A model nested in itself recurses through here once per level, so what is not needed
    /// while the value encodes (the key's writing, the rewind) is out of line: its locals are
    /// not on the stack during the recursion.
    func encodeMember<T: Encodable, Key: CodingKey>(_ value: T, forKey key: Key) throws {
        let mark = writer.checkpoint()
        do {
            try writeMemberKey(key)
            try encodeValue(value, key: .key(key))
        } catch {
            rewind(to: mark, after: error)
            throw error
        }
    }

    /// Writes `key` for a member whose value follows (see ``writeKey(_:then:)``).
    @inline(never)
    func writeMemberKey<Key: CodingKey>(_ key: Key) throws {
        try writeKey(key, then: .value)
    }

    /// Takes a value that failed back out of the writer (see ``JSONWriter/rewind(to:reason:)``).
    @inline(never)
    func rewind(to mark: JSONWriter.Checkpoint, after error: any Error) {
        writer.rewind(to: mark, reason: JSONWriter.summary(of: error))
    }

    /// Runs `body` (an `encode(to:)` or a strategy's closure) for a new frame, then ends
    /// whatever it opened; a frame that wrote nothing is `{}`, or an error at the top level
    /// (where `root` is the value).
    func encodeFrame(key: PathKey, root: Any?, _ body: () throws -> Void) throws {
        // (A value may recurse without opening a container: through single value containers.)
        if stackLimit.isExceeded() { throw stackExhausted(at: path(adding: key)) }
        let depth = levels.count
        pushFrame(key: key)
        do {
            try body()
            if let root, levels.count > depth, levels[depth].state == .empty { throw encodedNothing(root) }
            try endFrame(depth)
        } catch {
            dropLevels(from: depth)
            throw error
        }
    }

    // (The work before and after `body` is out of line: a model nested in itself recurses
    // through ``encodeFrame(key:root:_:)``, whose frame stays on the stack at every level.
    // Release x86-64, a `final class Node: Encodable { let child: Node? }` took 1.8 KiB of stack
    // a level with it inline, 1.1 KiB with it out of line; `JSONEncoder` takes 1.4 KiB.)

    /// Pushes the level of a new frame, for the value under `key`.
    @inline(never)
    func pushFrame(key: PathKey) {
        push(Level(id: nextID, state: .empty, isFrame: true, key: key))
        nextID &+= 1
    }

    /// Ends the levels from `depth` up: the frame's containers, then the frame.
    @inline(never)
    func endFrame(_ depth: Int) throws {
        while levels.count > depth { try closeTop() }
    }

    /// Drops the levels from `depth` up, after a failure.
    @inline(never)
    func dropLevels(from depth: Int) {
        levels.removeSubrange(min(depth, levels.count)...)
        topID = levels.last?.id ?? 0
    }

    /// The error for a top-level value that encoded nothing.
    @inline(never)
    func encodedNothing(_ root: Any) -> EncodingError {
        EncodingError.invalidValue(
            root, EncodingError.Context(codingPath: basePath, debugDescription: "Top-level \(type(of: root)) did not encode any values."))
    }

    /// Types `JSONEncoder` writes itself rather than through their `encode(to:)`: dates, data,
    /// URLs and decimals by the strategies; and, as shortcuts, the common scalars.
    /// - Returns: whether `value` was one of them (and is written).
    ///
    /// Out of line, so that its locals are not on the stack while a model nested in itself
    /// recurses (see ``encodeFrame(key:root:_:)``).
    @inline(never)
    func encodeSpecial<T: Encodable>(_ value: T, key: PathKey) throws -> Bool {
        // (`T` is the type named: the value is reinterpreted, not cast.)
        if T.self == String.self {
            try writer.string(unsafeBitCast(value, to: String.self))
        } else if T.self == Int.self {
            try writer.number(unsafeBitCast(value, to: Int.self))
        } else if T.self == Double.self {
            try encodeFloat(unsafeBitCast(value, to: Double.self), key: key)
        } else if T.self == Bool.self {
            try writer.bool(unsafeBitCast(value, to: Bool.self))
        } else if T.self == Date.self || T.self == Data.self || T.self == URL.self || T.self == Decimal.self {
            try encodeFoundationValue(value, key: key)
        } else if case .plain = keyMode {
            return false
        } else {
            return try encodeStringKeyedDictionary(value, key: key)
        }
        return true
    }

    /// Writes a `Date`, `Data`, `URL` or `Decimal` by its strategy. (Out of line, as the rarer
    /// cases of ``encodeSpecial(_:key:)``: their locals stay off the stack of models that
    /// recurse through it.)
    @inline(never)
    func encodeFoundationValue<T: Encodable>(_ value: T, key: PathKey) throws {
        if let date = value as? Date {
            try encodeDate(date, key: key)
        } else if let data = value as? Data {
            try encodeData(data, key: key)
        } else if let url = value as? URL {
            try writer.string(url.absoluteString)
        } else if let decimal = value as? Decimal {
            guard !decimal.isNaN else {
                throw EncodingError.invalidValue(
                    decimal, EncodingError.Context(codingPath: path(adding: key), debugDescription: "Unable to encode Decimal.nan directly in JSON."))
            }
            try writer.number(decimal)
        }
    }

    /// Under a key strategy, writes a `[String: T]` with its keys as they are, as `JSONEncoder`
    /// does; returns false for any other value.
    @inline(never)
    func encodeStringKeyedDictionary<T: Encodable>(_ value: T, key: PathKey) throws -> Bool {
        guard let dictionary = value as? any EncodableStringKeyedDictionary else { return false }
        try encodeFrame(key: key, root: nil) { try dictionary.encodeMembers(to: self) }
        return true
    }

    /// Writes a `Double`, or applies the non-conforming float strategy.
    @inline(__always)
    func encodeFloat(_ value: Double, key: PathKey) throws {
        if value.isFinite {
            try writer.number(value)
        } else {
            try writer.string(nonConformingText(value, key: key))
        }
    }

    /// Writes a `Float`, or applies the non-conforming float strategy.
    @inline(__always)
    func encodeFloat(_ value: Float, key: PathKey) throws {
        if value.isFinite {
            try writer.number(value)
        } else {
            try writer.string(nonConformingText(value, key: key))
        }
    }

    /// The string the strategy writes for infinity or NaN.
    /// - Throws: `EncodingError.invalidValue` under `.throw`.
    func nonConformingText<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F, key: PathKey) throws -> String {
        guard case .convertToString(let positiveInfinity, let negativeInfinity, let nan) = configuration.nonConformingFloatEncodingStrategy else {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: path(adding: key), debugDescription: "Unable to encode \(F.self).\(value) directly in JSON."))
        }
        if value.isNaN { return nan }
        return value > 0 ? positiveInfinity : negativeInfinity
    }

    func encodeDate(_ date: Date, key: PathKey) throws {
        switch configuration.dateEncodingStrategy {
        case .deferredToDate:
            try encodeFrame(key: key, root: nil) { try date.encode(to: self) }
        case .secondsSince1970:
            try encodeTimestamp(date.timeIntervalSince1970, date: date, key: key)
        case .millisecondsSince1970:
            try encodeTimestamp(1000.0 * date.timeIntervalSince1970, date: date, key: key)
        case .iso8601:
            try writer.string(date.formatted(.iso8601))
        case .formatted(let formatter):
            try writer.string(formatter.string(from: date))
        case .custom(let closure):
            try encodeFrame(key: key, root: nil) { try closure(date, self) }
        }
    }

    private func encodeTimestamp(_ seconds: Double, date: Date, key: PathKey) throws {
        guard seconds.isFinite else {
            throw EncodingError.invalidValue(
                date, EncodingError.Context(codingPath: path(adding: key), debugDescription: "Unable to encode Double.\(seconds) directly in JSON."))
        }
        try writer.number(seconds)
    }

    func encodeData(_ data: Data, key: PathKey) throws {
        switch configuration.dataEncodingStrategy {
        case .deferredToData:
            try encodeFrame(key: key, root: nil) { try data.encode(to: self) }
        case .base64:
            try writer.string(data.base64EncodedString())
        case .custom(let closure):
            try encodeFrame(key: key, root: nil) { try closure(data, self) }
        }
    }

    // MARK: - Keys

    /// The JSON key for `key`, by the key strategy, for a member of the container on top.
    @inline(__always)
    func jsonKey<Key: CodingKey>(_ key: Key) -> String {
        switch keyMode {
        case .plain:
            return key.stringValue
        case .snakeCase:
            let name = key.stringValue
            if let converted = snakeCaseKeys[name] { return converted }
            let converted = StreamingJSONEncoder.KeyEncodingStrategy.snakeCase(fromCamelCase: name)
            snakeCaseKeys[name] = converted
            return converted
        case .custom(let convert):
            return convert(path(through: levels.count - 1) + [key]).stringValue
        }
    }

    // MARK: - Levels

    @inline(__always)
    func push(_ level: Level) {
        levels.append(level)
        topID = level.id
    }

    /// Makes the container with level `id` the one written to: ends the nested containers
    /// above it.
    /// - Throws: `EncodingError.invalidValue` when that container has ended.
    @inline(__always)
    func enter(_ id: Int) throws {
        if topID == id { return }
        try enterSlowPath(id)
    }

    @inline(never)
    private func enterSlowPath(_ id: Int) throws {
        guard let index = levels.lastIndex(where: { $0.id == id }) else {
            if isPlaced { throw misuse(WriterEncoder.superUsedLate, at: basePath) }
            throw misuse(
                "a container was used after it ended: the value it belongs to is written, or its parent has written past it "
                    + "(StreamingJSONEncoder writes in order)")
        }
        while levels.count > index + 1 {
            guard !levels[levels.count - 1].isFrame else {
                throw misuse("a container of an enclosing value was used while a nested value was being encoded", at: codingPath)
            }
            try closeTop()
        }
    }

    /// Ends the level on top: places its super encoders, closes its container (a frame that
    /// wrote nothing becomes `{}`), and pops it.
    func closeTop() throws {
        guard let level = levels.last else { return }
        if let supers = level.supers {
            levels[levels.count - 1].supers = nil
            try place(supers)
        }
        switch level.state {
        case .keyed: try writer.closeContainer(.object)
        case .unkeyed: try writer.closeContainer(.array)
        case .single: break
        case .empty: try writeEmptyObject()
        }
        levels.removeLast()
        topID = levels.last?.id ?? 0
    }

    /// Writes `{}` for the frame on top, which encoded nothing. (Out of line: it is rare, and
    /// ``closeTop()`` runs at the end of every value.)
    @inline(never)
    private func writeEmptyObject() throws {
        try checkNesting(at: path(through: levels.count - 1))
        try writer.openContainer(.object, sorted: false)
        try writer.closeContainer(.object)
    }

    /// The coding path to the value of `levels[index]`.
    func path(through index: Int) -> [any CodingKey] {
        var path = basePath
        var position = 0
        while position <= index && position < levels.count {
            if let key = levels[position].key.codingKey { path.append(key) }
            position += 1
        }
        return path
    }

    /// The coding path to the top level's value, then `key`.
    func path(adding key: PathKey) -> [any CodingKey] {
        var path = path(through: levels.count - 1)
        if let key = key.codingKey { path.append(key) }
        return path
    }

    // MARK: - Nesting

    /// The nesting of the writer's output here: its open containers, and those around a super
    /// encoder's writer.
    var outputDepth: Int { writer.baseLevel &+ writer.outer.count }

    /// Checks that a container may open here, for the value at `path`: within ``maxDepth``, and
    /// with stack left for the levels inside it.
    /// - Throws: `EncodingError.invalidValue` when it may not.
    @inline(__always)
    func checkNesting(at path: @autoclosure () -> [any CodingKey]) throws {
        if outputDepth >= maxDepth { throw tooDeep(at: path()) }
        if stackLimit.isExceeded() { throw stackExhausted(at: path()) }
    }

    /// The error for a container that would nest deeper than ``maxDepth``.
    @inline(never)
    func tooDeep(at path: [any CodingKey]) -> EncodingError {
        let message = "nesting is deeper than the maximum depth of \(maxDepth) (StreamingJSONEncoder.maxDepth, "
            + "JSONParsingOptions.maxDepth's default, so that the output decodes): raise maxDepth to write it"
        return EncodingError.invalidValue(message, EncodingError.Context(codingPath: path, debugDescription: message))
    }

    /// The error for a value too deep to encode on the thread's stack that is left.
    @inline(never)
    func stackExhausted(at path: [any CodingKey]) -> EncodingError {
        // Levels of arrays and objects, or of values inside each other through single values.
        let depth = max(outputDepth, levels.reduce(0) { $0 + ($1.isFrame ? 1 : 0) })
        let message = "nesting too deep to encode on this thread's stack (\(depth) levels): "
            + "encode on a thread with a larger stack, or lower StreamingJSONEncoder.maxDepth"
        return EncodingError.invalidValue(message, EncodingError.Context(codingPath: path, debugDescription: message))
    }

    func misuse(_ message: String, at codingPath: [any CodingKey]? = nil) -> EncodingError {
        EncodingError.invalidValue(message, EncodingError.Context(codingPath: codingPath ?? self.codingPath, debugDescription: message))
    }
}

/// The coding key of an array element, as `JSONEncoder` names it in coding paths (`Index 3`).
struct IndexCodingKey: CodingKey {
    let index: Int
    init(index: Int) { self.index = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { index = intValue }
    var stringValue: String { "Index \(index)" }
    var intValue: Int? { index }
}

/// A coding key with a string name: `super`, a dictionary's key.
struct NamedCodingKey: CodingKey {
    let stringValue: String
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { stringValue = "\(intValue)" }
    var intValue: Int? { nil }
}
