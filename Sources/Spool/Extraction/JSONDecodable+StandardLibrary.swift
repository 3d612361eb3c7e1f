extension String: JSONDecodable {
    /// A JSON string.
    public static func decode(_ e: Extractor) throws -> String { try e.string() }
}

extension Bool: JSONDecodable {
    /// `true` or `false`.
    public static func decode(_ e: Extractor) throws -> Bool { try e.bool() }
}

extension Int: JSONDecodable {
    /// A JSON number that is exactly an `Int`.
    public static func decode(_ e: Extractor) throws -> Int { try e.integer() }
}

extension Int8: JSONDecodable {
    /// A JSON number that is exactly an `Int8`.
    public static func decode(_ e: Extractor) throws -> Int8 { try e.integer() }
}

extension Int16: JSONDecodable {
    /// A JSON number that is exactly an `Int16`.
    public static func decode(_ e: Extractor) throws -> Int16 { try e.integer() }
}

extension Int32: JSONDecodable {
    /// A JSON number that is exactly an `Int32`.
    public static func decode(_ e: Extractor) throws -> Int32 { try e.integer() }
}

extension Int64: JSONDecodable {
    /// A JSON number that is exactly an `Int64`.
    public static func decode(_ e: Extractor) throws -> Int64 { try e.integer() }
}

extension UInt: JSONDecodable {
    /// A JSON number that is exactly a `UInt`.
    public static func decode(_ e: Extractor) throws -> UInt { try e.integer() }
}

extension UInt8: JSONDecodable {
    /// A JSON number that is exactly a `UInt8`.
    public static func decode(_ e: Extractor) throws -> UInt8 { try e.integer() }
}

extension UInt16: JSONDecodable {
    /// A JSON number that is exactly a `UInt16`.
    public static func decode(_ e: Extractor) throws -> UInt16 { try e.integer() }
}

extension UInt32: JSONDecodable {
    /// A JSON number that is exactly a `UInt32`.
    public static func decode(_ e: Extractor) throws -> UInt32 { try e.integer() }
}

extension UInt64: JSONDecodable {
    /// A JSON number that is exactly a `UInt64` (up to 18446744073709551615).
    public static func decode(_ e: Extractor) throws -> UInt64 { try e.integer() }
}

extension Double: JSONDecodable {
    /// A JSON number, rounded to the nearest `Double`. Out of range (it would become infinite,
    /// or a non-zero number would become 0) is a type mismatch; see ``Extractor/double()``.
    public static func decode(_ e: Extractor) throws -> Double { try e.double() }
}

extension Float: JSONDecodable {
    /// A JSON number, rounded to the nearest `Float` (once, from its text). Out of `Float`'s
    /// range is a type mismatch ("does not fit Float"): `1e39` would become infinite, `1e-50`
    /// would become 0. Numbers that round to a subnormal value are kept.
    public static func decode(_ e: Extractor) throws -> Float {
        try e.float()
    }
}

extension Optional: JSONDecodable where Wrapped: JSONDecodable {
    /// `nil` for JSON `null`, otherwise the wrapped type's value.
    public static func decode(_ e: Extractor) throws -> Wrapped? {
        if try e.checkedToken().kind == .null { return nil }
        return try Wrapped.decode(e)
    }
}

extension Array: JSONDecodable where Element: JSONDecodable {
    /// A JSON array whose elements all decode as `Element`.
    public static func decode(_ e: Extractor) throws -> [Element] {
        let token = try e.checkedToken()
        guard token.kind == .arrayStart else { throw e.mismatchFailure(at: e.index, expected: [Element].self) }
        var elements: [Element] = []
        elements.reserveCapacity(Int(token.length))
        try e.context.forEachChild(of: e.index, releasing: true) { child in
            elements.append(try e.decode(Element.self, at: child))
        }
        return elements
    }
}

extension Dictionary: JSONDecodable where Key == String, Value: JSONDecodable {
    /// A JSON object whose members all decode as `Value`.
    public static func decode(_ e: Extractor) throws -> [String: Value] {
        let token = try e.checkedToken()
        guard token.kind == .objectStart else { throw e.mismatchFailure(at: e.index, expected: [String: Value].self) }
        var members: [String: Value] = [:]
        members.reserveCapacity(Int(token.length))
        let tape = e.tape
        try e.context.forEachChild(of: e.index, releasing: true) { key in
            let name = tape.text(of: tape[key])
            guard members[name] == nil else { return }  // of duplicate keys, the first counts
            members[name] = try e.decode(Value.self, at: key + 1)
        }
        return members
    }
}

extension Extractor: JSONDecodable {
    /// The value itself, undecoded, for reading later (while its document's tokens are held).
    public static func decode(_ e: Extractor) throws -> Extractor { e }
}

extension JSONDecodable where Self: RawRepresentable, Self.RawValue: JSONDecodable {
    /// The case whose raw value the JSON value decodes to, e.g. `enum Status: String, JSONDecodable`.
    /// - Throws: ``DecodeError`` with code `.badRawValue` naming the value and the type.
    public static func decode(_ e: Extractor) throws -> Self {
        let raw = try RawValue.decode(e)
        guard let value = Self(rawValue: raw) else { throw e.badRawValueError(Self.self) }
        return value
    }
}
