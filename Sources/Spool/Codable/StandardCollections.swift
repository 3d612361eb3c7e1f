/// The collections the decoder reads itself instead of through their own `init(from:)`, as
/// ``DecodingSession`` finds them: `[Element]` (with its storage reserved when the array is
/// whole on the tape, and no boxed container per array) and `[String: Value]` (exempt from the
/// key decoding strategy, as in `JSONDecoder`). Each gives the same values and errors as the
/// standard library's `init(from:)` would.
protocol DecodableArray {
    /// The current value of `decoder` as this array type, which is `T`.
    static func decodeArray<T>(from decoder: TapeDecoder, as type: T.Type) throws -> T
}

extension Array: DecodableArray where Element: Decodable {
    static func decodeArray<T>(from decoder: TapeDecoder, as type: T.Type) throws -> T {
        // (A recursive model repeats this frame per level: the container's way, with its
        // larger frame, is a function of its own.)
        if let array = decoder.wholeArray() {
            return decoder.dispatched(try decodeWhole(array, from: decoder), T.self)
        }
        return decoder.dispatched(try decodeElements(from: decoder), T.self)
    }

    /// The current value of `decoder`, element by element through an ``UnkeyedContainer``.
    @inline(never)
    private static func decodeElements(from decoder: TapeDecoder) throws -> [Element] {
        var container = try decoder.arrayContainer()
        // As `Array.init(from:)` reads it: element by element until the container is at its end.
        guard let count = container.countIfWhole else {
            var elements: [Element] = []
            while !container.isAtEnd {
                elements.append(try container.decode(Element.self))
            }
            return elements
        }
        // The whole array is on the tape: its storage is made once, at its size, and filled in
        // place (an append per element in code generic over `Element` costs a metadata lookup).
        let elements = try [Element].filledInPlace(count: count) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            while initialized < count && !container.isAtEnd {
                (base + initialized).initialize(to: try container.decode(Element.self))
                initialized += 1
            }
        }
        guard elements.count == count && container.isAtEnd else {
            throw decoder.corrupted("the array's elements were not all decoded (counted \(count), decoded \(elements.count))", code: .incomplete)
        }
        return elements
    }
}

extension Array where Element: Decodable {
    /// The array at `array`, whole on the tape (``TapeDecoder/wholeArray()``): its elements are
    /// counted by its start token, and walked without a container.
    private static func decodeWhole(_ array: TapeDecoder.WholeArray, from decoder: TapeDecoder) throws -> [Element] {
        if array.count == 0 && array.end == array.start &+ 1 { return [] }  // (no path made for it)
        switch decoder.session.kind(of: Element.self) {
        case .model, .array, .stringKeyedDictionary:
            // Elements that nest, deep in the stack: this frame is repeated per level of a
            // recursive model, so it makes no closures.
            if decoder.stackLimit.isShallow(within: 32 * 1024) { return try decodeInPlace(array, from: decoder) }
            var elements: [Element] = []
            elements.reserveCapacity(array.count)
            var walk = WholeArrayWalk(array)
            while elements.count < array.count, let child = walk.next(in: decoder.tape) {
                elements.append(try decoder.decode(Element.self, at: child, parent: walk.node(decoder), key: .index(elements.count)))
            }
            try walk.finish(decoded: elements.count, decoder)
            return elements
        default:
            return try decodeInPlace(array, from: decoder)
        }
    }

    /// ``decodeWhole(_:from:)`` filled in place: an append per element, in code generic over
    /// `Element`, would cost a metadata lookup (canada.json's arrays of coordinates: 3 %).
    @inline(never)
    private static func decodeInPlace(_ array: TapeDecoder.WholeArray, from decoder: TapeDecoder) throws -> [Element] {
        var walk = WholeArrayWalk(array)
        let node = decoder.node
        return try [Element].filledInPlace(count: array.count) { buffer, initialized in
            while initialized < array.count, let child = walk.next(in: decoder.tape) {
                buffer.initializeElement(
                    at: initialized, to: try decoder.at(child, parent: node, key: .index(initialized)) { try $0.unwrap(Element.self) })
                initialized &+= 1
            }
            try walk.finish(decoded: initialized, decoder)
        }
    }
}

/// The elements of an array whole on the tape, one after another. (The tape is read by index
/// each time: a model's code runs between two reads.)
private struct WholeArrayWalk {
    let array: TapeDecoder.WholeArray
    private var child: Int
    /// The array's path, made when first asked for.
    private var arrayNode: CodingPathNode??

    init(_ array: TapeDecoder.WholeArray) {
        self.array = array
        child = array.start &+ 1
    }

    /// The next element's index, or nil at the end.
    @inline(__always)
    mutating func next(in tape: TokenTape) -> Int? {
        guard child < array.end else { return nil }
        let token = tape[child]
        guard !token.isContainerEnd else { return nil }
        let index = child
        let last = token.isContainerStart ? token.payload : child
        guard last >= child else { return nil }
        child = last &+ 1
        return index
    }

    /// The array's path, for its elements.
    @inline(__always)
    mutating func node(_ decoder: TapeDecoder) -> CodingPathNode? {
        if let arrayNode { return arrayNode }
        let node = decoder.node
        arrayNode = .some(node)
        return node
    }

    /// Throws unless all `array.count` elements were decoded and the walk is at the end.
    func finish(decoded: Int, _ decoder: TapeDecoder) throws {
        guard decoded == array.count && child == array.end else {
            throw decoder.corrupted("the array's elements were not all decoded (counted \(array.count), decoded \(decoded))", code: .incomplete)
        }
    }
}

/// `[String: Value]`, which `JSONDecoder` decodes member by member with its keys as they are
/// (exempt from the key decoding strategy).
protocol StringKeyedDictionary {
    /// The current value of `decoder` as this dictionary type, which is `T`.
    static func decodeDictionary<T>(from decoder: TapeDecoder, as type: T.Type) throws -> T
}

extension Dictionary: StringKeyedDictionary where Key == String, Value: Decodable {
    static func decodeDictionary<T>(from decoder: TapeDecoder, as type: T.Type) throws -> T {
        guard let object = decoder.index else {
            throw decoder.valueNotFound([String: Value].self, at: nil, "Expected a dictionary but the value is absent")
        }
        guard try decoder.checked(object).kind == .objectStart else { throw decoder.mismatch([String: Value].self, at: object) }
        var result: [String: Value] = [:]
        let node = decoder.node
        // Of duplicate keys, the first counts, as in JSONDecoder. (It decodes the values of
        // later duplicates only with a key strategy, when it reads the members itself.)
        let decodesDuplicates = !decoder.session.usesDefaultKeys
        do {
            try decoder.context.forEachChild(of: object, releasing: true) { keyIndex in
                let key = decoder.tape.text(of: decoder.tape[keyIndex])
                let isDuplicate = result.index(forKey: key) != nil
                guard !isDuplicate || decodesDuplicates else { return }
                let value = try decoder.decode(Value.self, at: keyIndex + 1, parent: node, key: .string(key))
                if !isDuplicate { result[key] = value }
            }
        } catch let error as DecodeError {
            throw decoder.decodingError(error, type: [String: Value].self)
        }
        return decoder.dispatched(result, T.self)
    }
}
