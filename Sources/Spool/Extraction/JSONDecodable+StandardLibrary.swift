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
        // In place when its end is on the tape (so its count is known), and not deep in the
        // stack: that way uses more stack, and a recursive model repeats this frame per level.
        if e.tape.closedSpan(ofContainerAt: e.index) != nil, let count = Int(exactly: token.length),
            e.context.stackLimit.isShallow(within: 32 * 1024) {
            return try decodeInPlace(e, count: count)
        }
        var elements: [Element] = []
        elements.reserveCapacity(Int(token.length))
        try e.context.forEachChild(of: e.index, releasing: true) { child in
            elements.append(try e.decode(Element.self, at: child))
        }
        return elements
    }

    /// An array whose end is on the tape, its `count` elements filled in place. An append per
    /// element, in code generic over `Element`, asks the runtime for `[Element]`'s metadata
    /// each time: about 100 instructions, and a write to the runtime's shared cache that
    /// other threads decoding the same type wait on (the parallel elements' workers).
    @inline(never)
    private static func decodeInPlace(_ e: Extractor, count: Int) throws -> [Element] {
        try [Element].filledInPlace(count: count) { buffer, initialized in
            try e.context.forEachChild(of: e.index, releasing: true) { child in
                guard initialized < count else { throw e.uncountedElements(count) }
                buffer.initializeElement(at: initialized, to: try e.decode(Element.self, at: child))
                initialized &+= 1
            }
            guard initialized == count else { throw e.uncountedElements(count) }
        }
    }
}

extension Extractor {
    /// The error for an array whose elements are not the number its start token counted
    /// (a tape out of step with itself, never valid input).
    @inline(never)
    fileprivate func uncountedElements(_ count: Int) -> DecodeError {
        DecodeError(code: .incomplete, keyPath: keyPath, location: location, message: "the array's elements were not \(count), as counted")
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
