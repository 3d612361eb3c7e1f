extension WriterEncoder {
    /// An unkeyed container: writes elements into the array of level `id`.
    struct UnkeyedContainer: UnkeyedEncodingContainer {
        let encoder: WriterEncoder
        let id: Int

        var codingPath: [any CodingKey] { encoder.path(ofLevel: id) }

        var count: Int {
            encoder.levels.last(where: { $0.id == id })?.count ?? 0
        }

        mutating func encodeNil() throws {
            try encoder.enterElement(id)
            try encoder.writer.null()
            encoder.countElement()
        }

        mutating func encode(_ value: Bool) throws {
            try encoder.enterElement(id)
            try encoder.writer.bool(value)
            encoder.countElement()
        }

        mutating func encode(_ value: String) throws {
            try encoder.enterElement(id)
            try encoder.writer.string(value)
            encoder.countElement()
        }

        mutating func encode(_ value: Double) throws {
            try encoder.enterElement(id)
            try encoder.encodeFloat(value, key: .index(encoder.topCount))
            encoder.countElement()
        }

        mutating func encode(_ value: Float) throws {
            try encoder.enterElement(id)
            try encoder.encodeFloat(value, key: .index(encoder.topCount))
            encoder.countElement()
        }

        @inline(__always)
        private mutating func encodeInteger(_ value: some FixedWidthInteger) throws {
            try encoder.enterElement(id)
            try encoder.writer.number(value)
            encoder.countElement()
        }

        mutating func encode(_ value: Int) throws { try encodeInteger(value) }
        mutating func encode(_ value: Int8) throws { try encodeInteger(value) }
        mutating func encode(_ value: Int16) throws { try encodeInteger(value) }
        mutating func encode(_ value: Int32) throws { try encodeInteger(value) }
        mutating func encode(_ value: Int64) throws { try encodeInteger(value) }
        mutating func encode(_ value: Int128) throws { try encodeInteger(value) }
        mutating func encode(_ value: UInt) throws { try encodeInteger(value) }
        mutating func encode(_ value: UInt8) throws { try encodeInteger(value) }
        mutating func encode(_ value: UInt16) throws { try encodeInteger(value) }
        mutating func encode(_ value: UInt32) throws { try encodeInteger(value) }
        mutating func encode(_ value: UInt64) throws { try encodeInteger(value) }
        mutating func encode(_ value: UInt128) throws { try encodeInteger(value) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            try encoder.enterElement(id)
            let mark = encoder.writer.checkpoint()
            do {
                try encoder.encodeValue(value, key: .index(encoder.topCount))
            } catch {
                encoder.writer.rewind(to: mark, reason: JSONWriter.summary(of: error))
                throw error
            }
            encoder.countElement()
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let index: Int
            do {
                try encoder.enterElement(id)
                index = encoder.topCount
                try encoder.checkNesting(at: codingPath + [IndexCodingKey(index: index)])
                try encoder.writer.openContainer(.object, sorted: encoder.sortsKeys, checksKeys: true)
            } catch {
                return KeyedEncodingContainer(FailingContainer(error: error, codingPath: codingPath))
            }
            encoder.countElement()
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: encoder, id: encoder.pushNested(.keyed, key: .index(index))))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let index: Int
            do {
                try encoder.enterElement(id)
                index = encoder.topCount
                try encoder.checkNesting(at: codingPath + [IndexCodingKey(index: index)])
                try encoder.writer.openContainer(.array, sorted: false)
            } catch {
                return FailingContainer<IndexCodingKey>(error: error, codingPath: codingPath)
            }
            encoder.countElement()
            return UnkeyedContainer(encoder: encoder, id: encoder.pushNested(.unkeyed, key: .index(index)))
        }

        mutating func superEncoder() -> any Encoder {
            encoder.superEncoder(forLevel: id, key: nil)
        }
    }

    /// Makes the array of level `id` the one written to, and places a super encoder waiting in
    /// it first.
    @inline(__always)
    func enterElement(_ id: Int) throws {
        try enter(id)
        if levels[levels.count - 1].supers != nil { try placeSupersBeforeElement() }
    }

    @inline(never)
    private func placeSupersBeforeElement() throws {
        guard let supers = levels[levels.count - 1].supers else { return }
        levels[levels.count - 1].supers = nil
        try place(supers)
    }

    /// The element count of the container on top.
    var topCount: Int { levels.isEmpty ? 0 : levels[levels.count - 1].count }

    /// Counts one more element in the container on top.
    @inline(__always)
    func countElement() {
        if !levels.isEmpty { levels[levels.count - 1].count &+= 1 }
    }
}
