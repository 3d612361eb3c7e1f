/// A JSON array read as an unkeyed container, element by element, straight from the tape. In
/// whole-document decoding, the outermost array releases its elements once they are decoded
/// (``JSONParsingOptions/releasesDecodedElements``).
struct UnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: TapeDecoder
    let array: Int
    /// This container's own path.
    let node: CodingPathNode?
    private var walk: DecodingContext.ChildWalk
    private(set) var currentIndex = 0
    /// The elements walked past (`currentIndex` also counts `decodeIfPresent` calls at the end).
    private var passed = 0
    /// For a container nested in an array that releases its elements: holds this array on the
    /// tape while the container lives.
    var lease: DecodingContext.ChildWalk.Lease?

    /// A container for the array at `array`. One with a `lease` lies inside an element of an
    /// array that releases its elements, and outlives that element's step: it releases
    /// nothing itself (a later read of the same array must find it whole).
    init(decoder: TapeDecoder, array: Int, node: CodingPathNode?, lease: DecodingContext.ChildWalk.Lease? = nil) {
        self.decoder = decoder
        self.array = array
        self.node = node
        self.lease = lease
        walk = DecodingContext.ChildWalk(context: decoder.context, container: array, releasing: lease == nil)
    }

    var codingPath: [any CodingKey] { decoder.path(node) }

    /// The number of elements; the array is read to its end first. (The elements walked past
    /// are counted by the walk: they may be released.)
    ///
    /// Never nil, as with `JSONDecoder`. When the array cannot be read to its end (the input
    /// is invalid or ends early), this counts the elements before the one that fails, and the
    /// error is thrown when that element is decoded, or else when the decoding ends: code that
    /// loops `count` times still gets the error, never a short array.
    var count: Int? {
        var child = walk.child
        var count = passed
        while let token = try? decoder.checked(child), !token.isContainerEnd {
            guard let next = try? decoder.end(ofValueAt: child) else { break }
            child = next
            count += 1
        }
        return count
    }

    /// The number of elements left when the whole array is on the tape (nothing is read on to
    /// count them), else nil.
    var countIfWhole: Int? {
        let tape = decoder.tape
        guard decoder.context.isValid(array), tape.lastIndex(ofValueAt: array) != nil else { return nil }
        var child = walk.child
        var count = 0
        while tape.contains(child), !tape[child].isContainerEnd {
            guard let last = tape.lastIndex(ofValueAt: child) else { return nil }
            child = last + 1
            count += 1
        }
        return count
    }

    var isAtEnd: Bool {
        (try? walk.isAtEnd()) ?? true
    }

    /// Spool's error, at the path of the next element.
    private func failure(_ error: DecodeError, _ type: Any.Type) -> DecodingError {
        (try? decoder.at(walk.child, parent: node, key: .index(currentIndex)) {
            $0.decodingError(error, type: type)
        }) ?? decoder.decodingError(error, type: type)
    }

    /// Whether the walk is at the array's end.
    private func atEnd(_ type: Any.Type) throws -> Bool {
        do {
            return try walk.isAtEnd()
        } catch let error as DecodeError {
            throw failure(error, type)
        }
    }

    /// The next element's index, or `valueNotFound` at the end.
    private func next(_ type: Any.Type) throws -> Int {
        let atEnd = try atEnd(type)
        if atEnd {
            // Located at the array's closing bracket.
            let end = decoder.context.isValid(walk.child) ? "\(decoder.tape.location(at: walk.child)): " : ""
            throw DecodingError.valueNotFound(
                type, .init(codingPath: decoder.path(node, JSONCodingKey(intValue: currentIndex)),
                            debugDescription: "\(end)Unkeyed container is at end (the array has \(currentIndex) elements)."))
        }
        return walk.child
    }

    /// Steps past the element just decoded.
    private mutating func advance() throws {
        do {
            try walk.advance()
        } catch let error as DecodeError {
            throw failure(error, Any.self)
        }
        currentIndex += 1
        passed += 1
    }

    /// `JSONDecoder`'s `decodeIfPresent`: nil for `null`, and also at the end; either way
    /// `currentIndex` moves on (past the end too).
    private mutating func elementIfPresent<T>(_ type: Any.Type, _ body: (TapeDecoder) throws -> T) throws -> T? {
        if try atEnd(type) {
            currentIndex += 1
            return nil
        }
        if try decoder.checked(walk.child).kind == .null {
            try advance()
            return nil
        }
        return try element(type, body)
    }

    /// Decodes the next element with `body`, then steps past it.
    private mutating func element<T>(_ type: Any.Type, _ body: (TapeDecoder) throws -> T) throws -> T {
        let index = try next(type)
        let value = try decoder.at(index, parent: node, key: .index(currentIndex), body)
        try advance()
        return value
    }

    /// The next element as a scalar through Spool's exact conversion, the long way (at its
    /// path) only when that fails.
    private mutating func scalarElement<T: ScalarValue>(_ type: T.Type) throws -> T {
        let index = try next(T.self)
        if let quick = decoder.quickScalar(T.self, at: index) {
            try advance()
            return quick
        }
        return try element(T.self) { try $0.scalar(T.self) }
    }

    private mutating func floatElement<T: BinaryFloatingPoint & ScalarValue>(_ type: T.Type) throws -> T {
        let index = try next(T.self)
        if let quick = decoder.quickFloat(T.self, at: index) {
            try advance()
            return quick
        }
        return try element(T.self) { try $0.float(T.self) }
    }

    mutating func decodeNil() throws -> Bool {
        let index = try next(Never.self)
        guard try decoder.checked(index).kind == .null else { return false }
        try advance()
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try element(T.self) { try $0.unwrap(T.self) }
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try scalarElement(Bool.self) }
    mutating func decode(_ type: String.Type) throws -> String { try scalarElement(String.self) }
    mutating func decode(_ type: Double.Type) throws -> Double { try floatElement(Double.self) }
    mutating func decode(_ type: Float.Type) throws -> Float { try floatElement(Float.self) }
    mutating func decode(_ type: Int.Type) throws -> Int { try scalarElement(Int.self) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try scalarElement(Int8.self) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try scalarElement(Int16.self) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try scalarElement(Int32.self) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try scalarElement(Int64.self) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try scalarElement(UInt.self) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try scalarElement(UInt8.self) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try scalarElement(UInt16.self) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try scalarElement(UInt32.self) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try scalarElement(UInt64.self) }
    mutating func decode(_ type: Int128.Type) throws -> Int128 { try element(type) { try $0.integer(Int128.self) } }
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try element(type) { try $0.integer(UInt128.self) } }

    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? { try elementIfPresent(T.self) { try $0.unwrap(T.self) } }
    mutating func decodeIfPresent(_ type: Bool.Type) throws -> Bool? { try elementIfPresent(type) { try $0.scalar(Bool.self) } }
    mutating func decodeIfPresent(_ type: String.Type) throws -> String? { try elementIfPresent(type) { try $0.scalar(String.self) } }
    mutating func decodeIfPresent(_ type: Double.Type) throws -> Double? { try elementIfPresent(type) { try $0.float(Double.self) } }
    mutating func decodeIfPresent(_ type: Float.Type) throws -> Float? { try elementIfPresent(type) { try $0.float(Float.self) } }
    mutating func decodeIfPresent(_ type: Int.Type) throws -> Int? { try elementIfPresent(type) { try $0.scalar(Int.self) } }
    mutating func decodeIfPresent(_ type: Int8.Type) throws -> Int8? { try elementIfPresent(type) { try $0.scalar(Int8.self) } }
    mutating func decodeIfPresent(_ type: Int16.Type) throws -> Int16? { try elementIfPresent(type) { try $0.scalar(Int16.self) } }
    mutating func decodeIfPresent(_ type: Int32.Type) throws -> Int32? { try elementIfPresent(type) { try $0.scalar(Int32.self) } }
    mutating func decodeIfPresent(_ type: Int64.Type) throws -> Int64? { try elementIfPresent(type) { try $0.scalar(Int64.self) } }
    mutating func decodeIfPresent(_ type: UInt.Type) throws -> UInt? { try elementIfPresent(type) { try $0.scalar(UInt.self) } }
    mutating func decodeIfPresent(_ type: UInt8.Type) throws -> UInt8? { try elementIfPresent(type) { try $0.scalar(UInt8.self) } }
    mutating func decodeIfPresent(_ type: UInt16.Type) throws -> UInt16? { try elementIfPresent(type) { try $0.scalar(UInt16.self) } }
    mutating func decodeIfPresent(_ type: UInt32.Type) throws -> UInt32? { try elementIfPresent(type) { try $0.scalar(UInt32.self) } }
    mutating func decodeIfPresent(_ type: UInt64.Type) throws -> UInt64? { try elementIfPresent(type) { try $0.scalar(UInt64.self) } }
    // (`Int128` and `UInt128` keep the protocol's `decodeIfPresent`, as in `JSONDecoder`.)

    /// A container for the next element, which is read after this one has moved past it: the
    /// element is held on the tape (not released) while the container lives, by a lease of
    /// its own from a releasing walk, or else by this container's own lease (a container made
    /// inside an element of a releasing array may outlive the container it came from).
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let lease = walk.lease() ?? self.lease
        return try element([String: Any].self) {
            try $0.container(keyedBy: NestedKey.self, lease: lease)
        }
    }

    /// As ``nestedContainer(keyedBy:)``: the element is held while the container lives.
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let lease = walk.lease() ?? self.lease
        return try element([Any].self) { try $0.arrayContainer(lease: lease) }
    }

    /// A decoder of its own for the next element. The element must outlive the walk past it,
    /// so this array stops releasing its elements from here on.
    mutating func superDecoder() throws -> any Decoder {
        _ = try next(Any.self)
        keepElements()
        let lease = self.lease
        return try element(Any.self) { decoder in
            if decoder.stackLimit.isExceeded() { throw decoder.tooDeep(Any.self) }
            let superDecoder = TapeDecoder(
                context: decoder.context, session: decoder.session, index: decoder.index, parent: decoder.parent, key: decoder.key)
            superDecoder.lease = lease
            superDecoder.stackLimit = decoder.stackLimit
            return superDecoder
        }
    }

    /// Ends the walk's releasing (the elements passed so far are released) and walks on from
    /// the same element without releasing.
    private mutating func keepElements() {
        walk.end()
        walk = DecodingContext.ChildWalk(context: decoder.context, container: array, from: walk.child, releasing: false)
    }
}

/// One JSON value read as a single-value container.
struct SingleValueContainer: SingleValueDecodingContainer {
    let decoder: TapeDecoder
    let index: Int?
    /// The value's place: the path of the container holding it, and its key there.
    let parent: CodingPathNode?
    let key: CurrentKey

    var codingPath: [any CodingKey] { decoder.path(parent, key.codingKey) }

    /// `body` with the decoder at this container's value.
    private func read<T>(_ body: (TapeDecoder) throws -> T) throws -> T {
        try decoder.at(index, parent: parent, key: key, body)
    }

    /// A scalar through Spool's exact conversion, the long way (at the value's path) only when
    /// that fails.
    private func scalar<T: ScalarValue>(_ type: T.Type) throws -> T {
        if let index, let quick = decoder.quickScalar(T.self, at: index) { return quick }
        return try read { try $0.scalar(T.self) }
    }

    private func float<T: BinaryFloatingPoint & ScalarValue>(_ type: T.Type) throws -> T {
        if let index, let quick = decoder.quickFloat(T.self, at: index) { return quick }
        return try read { try $0.float(T.self) }
    }

    func decodeNil() -> Bool {
        guard let index else { return true }
        return (try? decoder.checked(index).kind == .null) ?? false
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try read { try $0.unwrap(T.self) } }
    func decode(_ type: Bool.Type) throws -> Bool { try scalar(Bool.self) }
    func decode(_ type: String.Type) throws -> String { try scalar(String.self) }
    func decode(_ type: Double.Type) throws -> Double { try float(Double.self) }
    func decode(_ type: Float.Type) throws -> Float { try float(Float.self) }
    func decode(_ type: Int.Type) throws -> Int { try scalar(Int.self) }
    func decode(_ type: Int8.Type) throws -> Int8 { try scalar(Int8.self) }
    func decode(_ type: Int16.Type) throws -> Int16 { try scalar(Int16.self) }
    func decode(_ type: Int32.Type) throws -> Int32 { try scalar(Int32.self) }
    func decode(_ type: Int64.Type) throws -> Int64 { try scalar(Int64.self) }
    func decode(_ type: UInt.Type) throws -> UInt { try scalar(UInt.self) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try scalar(UInt8.self) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try scalar(UInt16.self) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try scalar(UInt32.self) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try scalar(UInt64.self) }
    func decode(_ type: Int128.Type) throws -> Int128 { try read { try $0.integer(Int128.self) } }
    func decode(_ type: UInt128.Type) throws -> UInt128 { try read { try $0.integer(UInt128.self) } }
}
