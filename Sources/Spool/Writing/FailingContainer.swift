/// What a container or encoder that cannot work hands out: every call throws `error`.
struct FailingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol, UnkeyedEncodingContainer {
    let error: any Error
    let codingPath: [any CodingKey]
    var count: Int { 0 }

    mutating func encodeNil(forKey key: Key) throws { throw error }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { throw error }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(FailingContainer<NestedKey>(error: error, codingPath: codingPath))
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { self }
    mutating func superEncoder() -> any Encoder { FailingEncoder(error: error, codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { FailingEncoder(error: error, codingPath: codingPath) }

    mutating func encodeNil() throws { throw error }
    mutating func encode<T: Encodable>(_ value: T) throws { throw error }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(FailingContainer<NestedKey>(error: error, codingPath: codingPath))
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
}

/// An encoder whose containers all throw `error`.
struct FailingEncoder: Encoder, SingleValueEncodingContainer {
    let error: any Error
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(FailingContainer<Key>(error: error, codingPath: codingPath))
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { FailingContainer<IndexCodingKey>(error: error, codingPath: codingPath) }
    func singleValueContainer() -> any SingleValueEncodingContainer { self }
    mutating func encodeNil() throws { throw error }
    mutating func encode<T: Encodable>(_ value: T) throws { throw error }
}
