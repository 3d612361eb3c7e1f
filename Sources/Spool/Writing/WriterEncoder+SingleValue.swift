extension WriterEncoder {
    // The encoder is its own single-value container: the value goes into the slot of the
    // innermost `encode(to:)` in progress, which must not have encoded anything yet.

    func encodeNil() throws {
        try claimSingleValue()
        try writer.null()
    }

    func encode(_ value: Bool) throws {
        try claimSingleValue()
        try writer.bool(value)
    }

    func encode(_ value: String) throws {
        try claimSingleValue()
        try writer.string(value)
    }

    func encode(_ value: Double) throws {
        let frame = try claimSingleValue()
        do {
            try encodeFloat(value, key: .none)
        } catch {
            levels[frame].state = .empty
            throw error
        }
    }

    func encode(_ value: Float) throws {
        let frame = try claimSingleValue()
        do {
            try encodeFloat(value, key: .none)
        } catch {
            levels[frame].state = .empty
            throw error
        }
    }

    @inline(__always)
    private func encodeInteger(_ value: some FixedWidthInteger) throws {
        try claimSingleValue()
        try writer.number(value)
    }

    func encode(_ value: Int) throws { try encodeInteger(value) }
    func encode(_ value: Int8) throws { try encodeInteger(value) }
    func encode(_ value: Int16) throws { try encodeInteger(value) }
    func encode(_ value: Int32) throws { try encodeInteger(value) }
    func encode(_ value: Int64) throws { try encodeInteger(value) }
    func encode(_ value: Int128) throws { try encodeInteger(value) }
    func encode(_ value: UInt) throws { try encodeInteger(value) }
    func encode(_ value: UInt8) throws { try encodeInteger(value) }
    func encode(_ value: UInt16) throws { try encodeInteger(value) }
    func encode(_ value: UInt32) throws { try encodeInteger(value) }
    func encode(_ value: UInt64) throws { try encodeInteger(value) }
    func encode(_ value: UInt128) throws { try encodeInteger(value) }

    func encode<T: Encodable>(_ value: T) throws {
        let frame = try claimSingleValue()
        do {
            try encodeValue(value, key: .none)
        } catch {
            if frame < levels.count { levels[frame].state = .empty }
            throw error
        }
    }

    /// Marks the innermost frame as holding a single value; returns its index.
    /// - Throws: `EncodingError.invalidValue` when it already encoded something.
    @inline(__always)
    @discardableResult
    func claimSingleValue() throws -> Int {
        let top = levels.count - 1
        if top >= 0 && levels[top].isFrame && levels[top].state == .empty {
            levels[top].state = .single
            levels[top].valueStart = writer.outputPosition
            return top
        }
        throw singleValueMisuse()
    }

    @inline(never)
    private func singleValueMisuse() -> any Error {
        guard let frame = levels.lastIndex(where: { $0.isFrame }) else {
            return noValueError("a single value with no value being encoded")
        }
        let what: String
        switch levels[frame].state {
        case .single: what = "a single value was already encoded"
        case .keyed: what = "a keyed container was already requested"
        case .unkeyed: what = "an unkeyed container was already requested"
        case .empty: what = "a nested container is open"
        }
        return misuse("cannot encode a single value here: \(what) for this value", at: path(through: frame))
    }
}
