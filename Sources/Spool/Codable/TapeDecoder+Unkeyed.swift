/// A JSON array read as an unkeyed container, element by element, straight from the tape. In
/// whole-document decoding, the outermost array releases its elements once they are decoded
/// (``JSONParsingOptions/releasesDecodedElements``).
struct UnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: TapeDecoder
    let array: Int
    /// This container's own path.
    let node: CodingPathNode?
    private let walk: DecodingContext.ChildWalk
    private(set) var currentIndex = 0

    init(decoder: TapeDecoder, array: Int, node: CodingPathNode?) {
        self.decoder = decoder
        self.array = array
        self.node = node
        walk = DecodingContext.ChildWalk(context: decoder.context, container: array, releasing: true)
    }

    var codingPath: [any CodingKey] { node?.path ?? [] }

    /// The number of elements; the array is read to its end first.
    var count: Int? {
        var child = array + 1
        var count = 0
        while let token = try? decoder.checked(child), !token.isContainerEnd {
            guard let next = try? decoder.end(ofValueAt: child) else { return nil }
            child = next
            count += 1
        }
        return count + (walk.child > array + 1 ? 0 : 0)
    }

    var isAtEnd: Bool {
        (try? walk.isAtEnd()) ?? true
    }

    /// The next element's index, or `valueNotFound` at the end.
    private func next(_ type: Any.Type) throws -> Int {
        let atEnd: Bool
        do {
            atEnd = try walk.isAtEnd()
        } catch let error as DecodeError {
            throw decoder.decodingError(error, type: type)
        }
        if atEnd {
            throw DecodingError.valueNotFound(
                type, .init(codingPath: CodingPathNode.path(node, JSONCodingKey(intValue: currentIndex)),
                            debugDescription: "Unkeyed container is at end."))
        }
        return walk.child
    }

    /// Steps past the element just decoded.
    private mutating func advance() throws {
        do {
            try walk.advance()
        } catch let error as DecodeError {
            throw decoder.decodingError(error, type: Any.self)
        }
        currentIndex += 1
    }

    /// Decodes the next element with `body`, then steps past it.
    private mutating func element<T>(_ type: Any.Type, _ body: (TapeDecoder) throws -> T) throws -> T {
        let index = try next(type)
        let value = try decoder.at(index, parent: node, key: JSONCodingKey(intValue: currentIndex), body)
        try advance()
        return value
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

    mutating func decode(_ type: Bool.Type) throws -> Bool { try element(type) { try $0.scalar(Bool.self) } }
    mutating func decode(_ type: String.Type) throws -> String { try element(type) { try $0.scalar(String.self) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try element(type) { try $0.float(Double.self) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try element(type) { try $0.float(Float.self) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try element(type) { try $0.scalar(Int.self) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try element(type) { try $0.scalar(Int8.self) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try element(type) { try $0.scalar(Int16.self) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try element(type) { try $0.scalar(Int32.self) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try element(type) { try $0.scalar(Int64.self) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try element(type) { try $0.scalar(UInt.self) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try element(type) { try $0.scalar(UInt8.self) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try element(type) { try $0.scalar(UInt16.self) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try element(type) { try $0.scalar(UInt32.self) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try element(type) { try $0.scalar(UInt64.self) } }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try element([String: Any].self) { try $0.container(keyedBy: NestedKey.self) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try element([Any].self) { try $0.unkeyedContainer() }
    }

    mutating func superDecoder() throws -> any Decoder {
        try element(Any.self) { decoder in
            TapeDecoder(
                context: decoder.context, configuration: decoder.configuration, index: decoder.index,
                parent: decoder.parent, key: decoder.key)
        }
    }
}

/// One JSON value read as a single-value container.
struct SingleValueContainer: SingleValueDecodingContainer {
    let decoder: TapeDecoder
    let index: Int?
    let node: CodingPathNode?

    var codingPath: [any CodingKey] { node?.path ?? [] }

    /// `body` with the decoder at this container's value.
    private func read<T>(_ body: (TapeDecoder) throws -> T) throws -> T {
        try decoder.at(index, parent: node, key: nil, body)
    }

    func decodeNil() -> Bool {
        guard let index else { return true }
        return (try? decoder.checked(index).kind == .null) ?? false
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try read { try $0.unwrap(T.self) } }
    func decode(_ type: Bool.Type) throws -> Bool { try read { try $0.scalar(Bool.self) } }
    func decode(_ type: String.Type) throws -> String { try read { try $0.scalar(String.self) } }
    func decode(_ type: Double.Type) throws -> Double { try read { try $0.float(Double.self) } }
    func decode(_ type: Float.Type) throws -> Float { try read { try $0.float(Float.self) } }
    func decode(_ type: Int.Type) throws -> Int { try read { try $0.scalar(Int.self) } }
    func decode(_ type: Int8.Type) throws -> Int8 { try read { try $0.scalar(Int8.self) } }
    func decode(_ type: Int16.Type) throws -> Int16 { try read { try $0.scalar(Int16.self) } }
    func decode(_ type: Int32.Type) throws -> Int32 { try read { try $0.scalar(Int32.self) } }
    func decode(_ type: Int64.Type) throws -> Int64 { try read { try $0.scalar(Int64.self) } }
    func decode(_ type: UInt.Type) throws -> UInt { try read { try $0.scalar(UInt.self) } }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try read { try $0.scalar(UInt8.self) } }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try read { try $0.scalar(UInt16.self) } }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try read { try $0.scalar(UInt32.self) } }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try read { try $0.scalar(UInt64.self) } }
}
