/// `[String: Value]`, whose keys `JSONEncoder` writes as they are under any key strategy.
protocol EncodableStringKeyedDictionary {
    func encodeMembers(to encoder: WriterEncoder) throws
}

extension Dictionary: EncodableStringKeyedDictionary where Key == String, Value: Encodable {
    func encodeMembers(to encoder: WriterEncoder) throws {
        try encoder.encodeStringKeyed(self)
    }
}

extension WriterEncoder {
    /// Writes a dictionary's members, keys unconverted, as the object of the frame on top.
    func encodeStringKeyed<Value: Encodable>(_ members: [String: Value]) throws {
        let frame = levels.count - 1
        try checkNesting(at: path(through: frame))
        try writer.openContainer(.object, sorted: sortsKeys)
        levels[frame].state = .keyed
        for (key, value) in members {
            let mark = writer.checkpoint()
            do {
                try writer.key(key)
                try encodeValue(value, key: .key(NamedCodingKey(key)))
            } catch {
                writer.rewind(to: mark, reason: JSONWriter.summary(of: error))
                throw error
            }
        }
    }
}
