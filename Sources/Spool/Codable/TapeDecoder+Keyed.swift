/// A JSON object read as a keyed container, straight from the tape.
///
/// Lookups scan the object's members, starting after the member the previous lookup found
/// (models ask for their keys in document order, so most lookups match at the first key they
/// compare); a key not found by the end is looked for among the members passed before
/// (``DecodingContext/member(utf8:ofObjectAt:keys:)``). With a key strategy other than `.useDefaultKeys`, the
/// lookups compare converted keys: each distinct key is converted once per decode or stream
/// (``KeyTranslation``), not once per object.
struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    /// What the container knows, by reference: the standard library's `KeyedDecodingContainer`
    /// copies its container for every field it decodes, and a copy of one reference costs one
    /// retain (the four fields held by value cost up to three retains and three releases per
    /// field, through generic value witnesses). A container no longer in use is moved to the
    /// next object with the same key type (``ReusableContainers``).
    let state: KeyedContainerState

    var decoder: TapeDecoder { state.decoder }
    var object: Int { state.object }
    var parent: CodingPathNode? { state.parent }
    var key: CurrentKey { state.key }
    var lease: DecodingContext.ChildWalk.Lease? { state.lease }

    var codingPath: [any CodingKey] { decoder.path(parent, key.codingKey) }

    /// This container's own path, for a child's.
    var node: CodingPathNode? { state.node }

    /// Runs `body` with the decoder at `value`, the value of `key` (borrowed for the call).
    @inline(__always)
    private func at<T>(_ value: Int?, _ key: Key, _ body: (TapeDecoder) throws -> T) throws -> T {
        try withUnsafePointer(to: key) { pointer in
            try decoder.at(value, parent: node, key: .borrowed(UnsafeRawPointer(pointer), Key.self), body)
        }
    }

    /// The object's keys as written and their values' indices, in document order.
    private static func members(of object: Int, in decoder: TapeDecoder) throws -> [(key: String, value: Int)] {
        var members: [(key: String, value: Int)] = []
        do {
            try decoder.context.ensure(object)
            try decoder.context.forEachChild(of: object) { keyIndex in
                members.append((decoder.tape.text(of: decoder.tape[keyIndex]), keyIndex + 1))
            }
        } catch let error as DecodeError {
            throw decoder.decodingError(error, type: [String: Any].self)
        }
        return members
    }

    /// The index of the value for `key`, or nil when the object has no such member.
    private func lookup(_ key: Key) throws -> Int? {
        // The key's text comes from the session's table for an enum key of plain data (a
        // synthesized `CodingKeys`), else from its `stringValue` (``KeyNames``).
        if KeyNames.isEnum(Key.self), let bits = CurrentKey.plainBits(of: key) {
            let type = UInt(bitPattern: ObjectIdentifier(Key.self))
            if let wanted = withDecoder({ $0.session.keyNames.wanted(type: type, bits: bits) }) { return try lookup(wanted) }
            if !withDecoder({ $0.session.keyNames.isFull }),
                let wanted = withDecoder({ $0.session.keyNames.insert(type: type, bits: bits, name: key.stringValue) })
            {
                return try lookup(wanted)
            }
        }
        var name = key.stringValue
        return try name.withUTF8 { try lookup(WantedKey($0)) }
    }

    /// The index of the value of the member named `wanted` (after key conversion). Of
    /// duplicate keys (after conversion too), the first counts, as in `JSONDecoder`.
    private func lookup(_ wanted: String) throws -> Int? {
        var wanted = wanted
        return try wanted.withUTF8 { try lookup(WantedKey($0)) }
    }

    /// ``lookup(_:)`` for the key's text, `wanted`.
    @inline(__always)
    private func lookup(_ wanted: WantedKey) throws -> Int? {
        do {
            if let translation = withDecoder({ $0.session.keyTranslation }) { return try lookup(wanted, translation) }
            return try member(wanted, keys: KeysAsWritten())
        } catch let error as DecodeError {
            throw decoder.decodingError(error, type: Any.self)
        }
    }

    /// `body` with this container's decoder, borrowed for the call rather than retained (the
    /// state holds it, and a container in use is never moved): for the scalar fields, where a
    /// retain and a release cost as much as reading the value.
    @inline(__always)
    private func withDecoder<R>(_ body: (TapeDecoder) throws -> R) rethrows -> R {
        try Unmanaged.passUnretained(state.decoder)._withUnsafeGuaranteedRef(body)
    }

    /// The index of the value of the member `wanted` (UTF-8) of this container's object, as
    /// `keys` sees the keys, going on from where this container's lookups have got to. (The
    /// context is borrowed for the call, not retained: the decoder this container holds
    /// holds it. A retain and a release per lookup were 0.55M instructions a decode of
    /// twitter.json.)
    @inline(__always)
    private func member<Keys: MemberKeys>(_ wanted: WantedKey, keys: Keys) throws -> Int? {
        try Unmanaged.passUnretained(decoder.context)._withUnsafeGuaranteedRef { context in
            try context.ensure(object)
            return try context.member(wanted, ofObjectAt: object, keys: keys, in: &state.lookups)
        }
    }

    /// The index of the value of the member whose key `translation` converts to `wanted`.
    private func lookup(_ wanted: WantedKey, _ translation: Unmanaged<KeyTranslation>) throws -> Int? {
        try translation._withUnsafeGuaranteedRef { translation in
            try TranslatedKeys.with(translation, origin: .init(decoder: decoder, parent: parent, key: key)) { keys in
                try member(wanted, keys: keys)
            }
        }
    }

    /// The index of the value for `key`.
    /// - Throws: `DecodingError.keyNotFound` when the object has no such member.
    private func required(_ key: Key) throws -> Int {
        guard let value = try lookup(key) else {
            let location = decoder.context.isValid(object) ? decoder.tape.location(at: object) : nil
            let message = "No value associated with key \(JSONKeyPath.quoted(key.stringValue))"
            let underlying = DecodeError(
                code: .missingKey, keyPath: JSONKeyPath((codingPath + [key]).map(JSONKeyPath.Component.init)),
                location: location, message: message)
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: TapeDecoder.describe(underlying), underlyingError: underlying))
        }
        return value
    }

    /// The index of the value for `key`, or nil when it is missing or `null`.
    private func present(_ key: Key) throws -> Int? {
        guard let value = try lookup(key), try withDecoder({ try $0.checked(value) }).kind != .null else { return nil }
        return value
    }

    // MARK: - KeyedDecodingContainerProtocol

    var allKeys: [Key] {
        var seen = Set<String>()
        var keys: [Key] = []
        var names = (try? KeyedContainer.members(of: object, in: decoder).map(\.key)) ?? []
        if let translation = decoder.session.keyTranslation?.takeUnretainedValue() {
            names = TranslatedKeys.with(translation, origin: .init(decoder: decoder, parent: parent, key: key)) { keys in
                names.map { name in
                    var name = name
                    return name.withUTF8 { String(decoding: keys.key($0), as: UTF8.self) }
                }
            }
        }
        for name in names where seen.insert(name).inserted {
            if let key = Key(stringValue: name) { keys.append(key) }
        }
        return keys
    }

    func contains(_ key: Key) -> Bool {
        (try? lookup(key)) != nil
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        try decoder.checked(try required(key)).kind == .null
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decode(T.self, at: try lookedUp(key, required: true), key)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = try lookedUp(key, required: false) else { return nil }
        return try decode(T.self, at: value, key)
    }

    // A recursive model repeats the frames of `decode` and `decodeIfPresent` per level of
    // nesting, so they are kept small: the lookup runs in a frame of its own, and a plain key
    // (a synthesized `CodingKeys` enum) is passed by value, with no closure to borrow it.

    /// ``required(_:)``, or ``present(_:)`` when not `required`, in a frame of its own.
    @inline(never)
    private func lookedUp(_ key: Key, required: Bool) throws -> Int? {
        required ? try self.required(key) : try present(key)
    }

    /// The value at `value`, the value of `key`, as `T`.
    @inline(__always)
    private func decode<T: Decodable>(_ type: T.Type, at value: Int?, _ key: Key) throws -> T {
        if let bits = CurrentKey.plainBits(of: key) {
            return try decoder.decode(T.self, at: value, parent: node, key: .inline(bits, Key.self))
        }
        return try decodeBorrowing(T.self, at: value, key)
    }

    /// ``decode(_:at:_:)`` for a key that is not plain data, borrowed for the call.
    @inline(never)
    private func decodeBorrowing<T: Decodable>(_ type: T.Type, at value: Int?, _ key: Key) throws -> T {
        try at(value, key) { try $0.unwrap(T.self) }
    }

    /// A container for the value of `key`; it holds this container's lease, if any (it may
    /// outlive this container).
    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try at(try required(key), key) { decoder in
            try decoder.container(keyedBy: NestedKey.self, lease: lease)
        }
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try at(try required(key), key) { try $0.arrayContainer(lease: lease) }
    }

    /// The value of the key `super`, whether or not `Key` has such a case (as `JSONDecoder`).
    func superDecoder() throws -> any Decoder {
        try superDecoder(at: lookup("super"), key: .string("super"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try superDecoder(at: lookup(key), key: .owned(key))
    }

    /// A decoder of its own for the value (absent: `null`), as `JSONDecoder` gives.
    private func superDecoder(at value: Int?, key: CurrentKey) throws -> any Decoder {
        if decoder.stackLimit.isExceeded() { throw decoder.tooDeep(Any.self) }
        let superDecoder = TapeDecoder(context: decoder.context, session: decoder.session, index: value, parent: node, key: key, anchor: object)
        superDecoder.lease = lease
        superDecoder.stackLimit = decoder.stackLimit
        return superDecoder
    }

    // The scalar requirements, each with one lookup (the protocol's defaults for
    // `decodeIfPresent` would look the key up three times), each spelled out for its type: the
    // quick way is then compiled for that type, while a helper generic in both the value's
    // type and `Key` would run unspecialized.

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        let value = try required(key)
        return try withDecoder { $0.quickScalar(Bool.self, at: value) } ?? decode(at: value, key: key)
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        let value = try required(key)
        return try withDecoder { $0.quickScalar(String.self, at: value) } ?? decode(at: value, key: key)
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        let value = try required(key)
        return try withDecoder { $0.quickFloat(Double.self, at: value) } ?? decodeFloat(at: value, key: key)
    }

    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        let value = try required(key)
        return try withDecoder { $0.quickFloat(Float.self, at: value) } ?? decodeFloat(at: value, key: key)
    }

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        let value = try required(key)
        return try withDecoder { $0.quickScalar(Int.self, at: value) } ?? decode(at: value, key: key)
    }

    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
        let value = try required(key)
        return try withDecoder { $0.quickScalar(Int8.self, at: value) } ?? decode(at: value, key: key)
    }

    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        let value = try required(key)
        return try withDecoder { $0.quickScalar(Int16.self, at: value) } ?? decode(at: value, key: key)
    }

    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        let value = try required(key)
        return try withDecoder { $0.quickScalar(Int32.self, at: value) } ?? decode(at: value, key: key)
    }

    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        let value = try required(key)
        return try withDecoder { $0.quickScalar(Int64.self, at: value) } ?? decode(at: value, key: key)
    }

    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
        let value = try required(key)
        return try withDecoder { $0.quickScalar(UInt.self, at: value) } ?? decode(at: value, key: key)
    }

    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        let value = try required(key)
        return try withDecoder { $0.quickScalar(UInt8.self, at: value) } ?? decode(at: value, key: key)
    }

    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        let value = try required(key)
        return try withDecoder { $0.quickScalar(UInt16.self, at: value) } ?? decode(at: value, key: key)
    }

    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        let value = try required(key)
        return try withDecoder { $0.quickScalar(UInt32.self, at: value) } ?? decode(at: value, key: key)
    }

    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        let value = try required(key)
        return try withDecoder { $0.quickScalar(UInt64.self, at: value) } ?? decode(at: value, key: key)
    }

    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try decodeInteger(at: required(key), key: key) }
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try decodeInteger(at: required(key), key: key) }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let value = try present(key) else { return nil }
        return try withDecoder { $0.quickScalar(Bool.self, at: value) } ?? decode(at: value, key: key)
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let value = try present(key) else { return nil }
        return try withDecoder { $0.quickScalar(String.self, at: value) } ?? decode(at: value, key: key)
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        guard let value = try present(key) else { return nil }
        return try withDecoder { $0.quickFloat(Double.self, at: value) } ?? decodeFloat(at: value, key: key)
    }

    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        guard let value = try present(key) else { return nil }
        return try withDecoder { $0.quickFloat(Float.self, at: value) } ?? decodeFloat(at: value, key: key)
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        guard let value = try present(key) else { return nil }
        return try withDecoder { $0.quickScalar(Int.self, at: value) } ?? decode(at: value, key: key)
    }

    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        guard let value = try present(key) else { return nil }
        return try withDecoder { $0.quickScalar(Int8.self, at: value) } ?? decode(at: value, key: key)
    }

    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        guard let value = try present(key) else { return nil }
        return try withDecoder { $0.quickScalar(Int16.self, at: value) } ?? decode(at: value, key: key)
    }

    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        guard let value = try present(key) else { return nil }
        return try withDecoder { $0.quickScalar(Int32.self, at: value) } ?? decode(at: value, key: key)
    }

    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        guard let value = try present(key) else { return nil }
        return try withDecoder { $0.quickScalar(Int64.self, at: value) } ?? decode(at: value, key: key)
    }

    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        guard let value = try present(key) else { return nil }
        return try withDecoder { $0.quickScalar(UInt.self, at: value) } ?? decode(at: value, key: key)
    }

    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        guard let value = try present(key) else { return nil }
        return try withDecoder { $0.quickScalar(UInt8.self, at: value) } ?? decode(at: value, key: key)
    }

    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        guard let value = try present(key) else { return nil }
        return try withDecoder { $0.quickScalar(UInt16.self, at: value) } ?? decode(at: value, key: key)
    }

    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        guard let value = try present(key) else { return nil }
        return try withDecoder { $0.quickScalar(UInt32.self, at: value) } ?? decode(at: value, key: key)
    }

    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        guard let value = try present(key) else { return nil }
        return try withDecoder { $0.quickScalar(UInt64.self, at: value) } ?? decode(at: value, key: key)
    }

    func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? { try present(key).map { try decodeInteger(at: $0, key: key) } }
    func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? { try present(key).map { try decodeInteger(at: $0, key: key) } }

    /// A scalar through Spool's exact conversion, at `value`, with `key` on the coding path:
    /// the long way, which reads on or throws the located error.
    private func decode<T: ScalarValue>(at value: Int, key: Key) throws -> T {
        try at(value, key) { try $0.scalar(T.self) }
    }

    private func decodeInteger<T: FixedWidthInteger>(at value: Int, key: Key) throws -> T {
        try at(value, key) { try $0.integer(T.self) }
    }

    private func decodeFloat<T: BinaryFloatingPoint & ScalarValue>(at value: Int, key: Key) throws -> T {
        try at(value, key) { try $0.float(T.self) }
    }
}

/// A ``KeyedContainer``'s state. Not generic, so that making one costs no metadata lookup.
final class KeyedContainerState {
    private(set) var decoder: TapeDecoder
    private(set) var object: Int
    /// This container's place: the path of the container holding it (after the decoder's
    /// base path) and its key there. Its own path as a node is made only when a child needs
    /// one (``node``): the fields of most objects are scalars, read without one.
    private(set) var parent: CodingPathNode?
    private(set) var key: CurrentKey
    /// For a container nested in an array that releases its elements: holds the array's
    /// element on the tape while the container lives.
    let lease: DecodingContext.ChildWalk.Lease?
    /// This container's own path once a child has asked for it; after a move, the last
    /// object's, kept to be made this one's if no one else holds it (``node``).
    private var ownNode: CodingPathNode?
    /// Whether `ownNode` is this object's path.
    private var ownNodeIsCurrent = false
    /// The node before `ownNode`, kept while a child's container may still hold it: children
    /// let go of it when they move to their next object, by which time this container has
    /// moved on too (``node``).
    private var spareNode: CodingPathNode?
    /// Where this container's lookups in its object have got to: kept here, not on the
    /// context, so that a model's lookups go on where they were after a nested model has
    /// looked up keys in its own objects. (Twitter statuses: every field after `user` or
    /// `entities` was looked for from the first member again, 1.0M instructions a decode.)
    @exclusivity(unchecked) var lookups = MemberLookups()

    /// What a parked state holds in place of its decoder (which holds the session, which holds
    /// the parked state): a decoder of nothing, shared, never read. (A decoder held unowned
    /// instead measured 1.5 % more instructions decoding twitter.json.)
    private nonisolated(unsafe) static let parkedDecoder = TapeDecoder(
        context: DecodingContext(tape: TokenTape(tokenCapacity: 1, arenaCapacity: 16), rootIndex: 0),
        session: DecodingSession(StreamingJSONDecoder.Configuration(), dateParser: nil))

    /// `key` is made safe to keep (``CurrentKey/owned``).
    init(decoder: TapeDecoder, object: Int, parent: CodingPathNode?, key: CurrentKey, lease: DecodingContext.ChildWalk.Lease?) {
        self.decoder = decoder
        self.object = object
        self.parent = parent
        self.key = key.owned
        self.lease = lease
    }

    /// Moves a container no one holds any more to another object (``ReusableContainers``).
    @inline(__always)
    func move(decoder: TapeDecoder, object: Int, parent: CodingPathNode?, key: CurrentKey) {
        if self.decoder !== decoder { self.decoder = decoder }
        self.object = object
        self.parent = parent
        self.key = key.owned
        ownNodeIsCurrent = false
        lookups = MemberLookups()
    }

    /// Lets go of the decode's decoder, path and key: the container waits, unheld, for its
    /// next ``move(decoder:object:parent:key:)``.
    func park() {
        decoder = Self.parkedDecoder
        parent = nil
        key = .none
        ownNode = nil
        spareNode = nil
        ownNodeIsCurrent = false
    }

    /// This container's own path, for a child's: made once.
    ///
    /// A node left from the last object this container read is made this object's when
    /// nothing else holds it (no child's path, no error): twitter.json makes about 830 nodes a
    /// decode, and allocating and freeing each cost about 400 instructions. The last node is
    /// usually still held, by the containers of the last object's children (a status's user
    /// and entities), which let go of it only when they move to this object's children; the
    /// node before it is free by then, and is taken instead (600 fewer nodes made and freed a
    /// decode of twitter.json, 0.2M instructions).
    var node: CodingPathNode? {
        if ownNodeIsCurrent { return ownNode }
        guard let codingKey = key.codingKey else { return parent }
        if isKnownUniquelyReferenced(&ownNode), let spare = ownNode {
            spare.reuse(parent: parent, key: codingKey)
        } else if isKnownUniquelyReferenced(&spareNode), let spare = spareNode {
            spareNode = ownNode
            ownNode = spare
            spare.reuse(parent: parent, key: codingKey)
        } else {
            spareNode = ownNode
            ownNode = CodingPathNode(parent: parent, key: codingKey)
        }
        ownNodeIsCurrent = true
        return ownNode
    }
}
