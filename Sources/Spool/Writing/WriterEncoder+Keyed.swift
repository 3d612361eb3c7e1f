extension WriterEncoder {
    /// A keyed container: writes members into the object of level `id`.
    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: WriterEncoder
        let id: Int

        var codingPath: [any CodingKey] { encoder.path(ofLevel: id) }

        mutating func encodeNil(forKey key: Key) throws {
            try encoder.enter(id)
            try encoder.writeKey(key, then: .value)
            try encoder.writer.null()
        }

        mutating func encode(_ value: Bool, forKey key: Key) throws {
            try encoder.enter(id)
            try encoder.writeKey(key, then: .value)
            try encoder.writer.bool(value)
        }

        mutating func encode(_ value: String, forKey key: Key) throws {
            try encoder.enter(id)
            try encoder.writeKey(key, then: .value)
            try encoder.writer.string(value)
        }

        mutating func encode(_ value: Double, forKey key: Key) throws {
            try encoder.enter(id)
            if value.isFinite {
                try encoder.writeKey(key, then: .value)
                try encoder.writer.number(value)
            } else {
                let text = try encoder.nonConformingText(value, key: .key(key))
                try encoder.writeKey(key, then: .value)
                try encoder.writer.string(text)
            }
        }

        mutating func encode(_ value: Float, forKey key: Key) throws {
            try encoder.enter(id)
            if value.isFinite {
                try encoder.writeKey(key, then: .value)
                try encoder.writer.number(value)
            } else {
                let text = try encoder.nonConformingText(value, key: .key(key))
                try encoder.writeKey(key, then: .value)
                try encoder.writer.string(text)
            }
        }

        @inline(__always)
        private mutating func encodeInteger(_ value: some FixedWidthInteger, forKey key: Key) throws {
            try encoder.enter(id)
            try encoder.writeKey(key, then: .value)
            try encoder.writer.number(value)
        }

        mutating func encode(_ value: Int, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
        mutating func encode(_ value: Int128, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
        mutating func encode(_ value: UInt128, forKey key: Key) throws { try encodeInteger(value, forKey: key) }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try encoder.enter(id)
            try encoder.encodeMember(value, forKey: key)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            do {
                try encoder.enter(id)
                try encoder.checkNesting(at: codingPath + [key])
                try encoder.writeKey(key, then: .object(sorted: encoder.sortsKeys))
            } catch {
                return KeyedEncodingContainer(FailingContainer(error: error, codingPath: codingPath + [key]))
            }
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: encoder, id: encoder.pushNested(.keyed, key: .key(key))))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            do {
                try encoder.enter(id)
                try encoder.checkNesting(at: codingPath + [key])
                try encoder.writeKey(key, then: .array)
            } catch {
                return FailingContainer<IndexCodingKey>(error: error, codingPath: codingPath + [key])
            }
            // A container continued has its elements already.
            let id = encoder.pushNested(.unkeyed, key: .key(key))
            encoder.levels[encoder.levels.count - 1].count = encoder.writer.current.count
            return UnkeyedContainer(encoder: encoder, id: id)
        }

        mutating func superEncoder() -> any Encoder {
            encoder.superEncoder(forLevel: id, key: NamedCodingKey("super"))
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            encoder.superEncoder(forLevel: id, key: key)
        }
    }

    /// Pushes the level of a nested container just opened in the writer; returns its id.
    func pushNested(_ state: Level.State, key: PathKey) -> Int {
        let id = nextID
        nextID &+= 1
        push(Level(id: id, state: state, isFrame: false, key: key))
        return id
    }

    /// The coding path of the container of level `id` (where it is still open).
    func path(ofLevel id: Int) -> [any CodingKey] {
        guard let index = levels.lastIndex(where: { $0.id == id }) else { return basePath }
        return path(through: index)
    }
}
