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
        if let array = decoder.wholeArray() {
            return try decoder.same(try decodeWhole(array, from: decoder), T.self)
        }
        var container = try decoder.arrayContainer()
        // As `Array.init(from:)` reads it: element by element until the container is at its end.
        guard let count = container.countIfWhole else {
            var elements: [Element] = []
            while !container.isAtEnd {
                elements.append(try container.decode(Element.self))
            }
            return try decoder.same(elements, T.self)
        }
        // The whole array is on the tape: its storage is made once, at its size, and filled in
        // place (an append per element in code generic over `Element` costs a metadata lookup).
        let elements = try [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            while initialized < count && !container.isAtEnd {
                (base + initialized).initialize(to: try container.decode(Element.self))
                initialized += 1
            }
        }
        guard elements.count == count && container.isAtEnd else {
            throw decoder.corrupted("the array's elements were not all decoded (counted \(count), decoded \(elements.count))")
        }
        return try decoder.same(elements, T.self)
    }
}

extension Array where Element: Decodable {
    /// The array at `array`, whole on the tape (``TapeDecoder/wholeArray()``): its elements are
    /// counted by its start token, and walked without a container.
    private static func decodeWhole(_ array: TapeDecoder.WholeArray, from decoder: TapeDecoder) throws -> [Element] {
        let tape = decoder.tape
        let node = decoder.node
        var child = array.start &+ 1
        return try [Element](unsafeUninitializedCapacity: array.count) { buffer, initialized in
            while initialized < array.count {
                // (The tape is read by index each time: a model's code runs between two reads.)
                guard child < array.end else { break }
                let token = tape[child]
                guard !token.isContainerEnd else { break }
                buffer.initializeElement(
                    at: initialized, to: try decoder.at(child, parent: node, key: .index(initialized)) { try $0.unwrap(Element.self) })
                initialized &+= 1
                let last = token.isContainerStart ? token.payload : child
                guard last >= child else { break }
                child = last &+ 1
            }
            guard initialized == array.count && child == array.end else {
                throw decoder.corrupted("the array's elements were not all decoded (counted \(array.count), decoded \(initialized))")
            }
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
        return try decoder.same(result, T.self)
    }
}
