#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension JSONWriter {
    /// Writes an integer of any width (`Int`, `UInt8`, `Int64`, `UInt64`, `Int128`...) in
    /// decimal, exactly.
    public func number(_ value: some FixedWidthInteger) throws(WriteError) {
        try beginValue()
        try writeInteger(value)
        try endValue()
    }

    /// Writes a `Double` in the shortest form that reads back as the same value, as
    /// `JSONEncoder` writes it: `0.1`, `100` (no `.0`), `-0`, `1e+21`, `5e-324`.
    /// - Throws: ``WriteError/Code-swift.struct/invalidValue`` for infinity and NaN, which
    ///   JSON cannot hold; nothing is written.
    public func number(_ value: Double) throws(WriteError) {
        guard value.isFinite else { throw Self.invalidValue("\(value) is not a JSON number: JSON has no infinity or NaN") }
        try beginValue()
        try writeFloatText(value.description)
        try endValue()
    }

    /// Writes a `Float` in the shortest form that reads back as the same `Float` (`0.1`, not
    /// `0.10000000149011612`), without a trailing `.0`.
    /// - Throws: ``WriteError/Code-swift.struct/invalidValue`` for infinity and NaN.
    public func number(_ value: Float) throws(WriteError) {
        guard value.isFinite else { throw Self.invalidValue("\(value) is not a JSON number: JSON has no infinity or NaN") }
        try beginValue()
        try writeFloatText(value.description)
        try endValue()
    }

    /// Writes a `Decimal` exactly, as `JSONEncoder` does (`3.14159`, `-0.000001`).
    /// - Throws: ``WriteError/Code-swift.struct/invalidValue`` for `Decimal.nan`.
    public func number(_ value: Decimal) throws(WriteError) {
        guard !value.isNaN else { throw Self.invalidValue("Decimal NaN is not a JSON number") }
        try beginValue()
        try writeASCII(value.description)
        try endValue()
    }

    /// Writes a number's exact text, such as a number read with ``JSONReader`` (`1E400`,
    /// `0.10`, `-0`, `123456789012345678901234567890`), kept as it is.
    /// - Throws: ``WriteError/Code-swift.struct/invalidValue`` unless `text` is a JSON number
    ///   (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`); nothing is written.
    public func number(text: String) throws(WriteError) {
        var text = text
        let failure: WriteError? = text.withUTF8 { bytes in
            do throws(WriteError) {
                try writeNumberText(bytes)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// Writes a number's exact text given as bytes (`reader.withUTF8 { try writer.number(utf8: ...) }`
    /// needs a copy; a `[UInt8]` or `ArraySlice` does not).
    /// - Throws: ``WriteError/Code-swift.struct/invalidValue`` unless the bytes are a JSON number.
    public func number<Bytes: Collection>(utf8 text: Bytes) throws(WriteError) where Bytes.Element == UInt8 {
        try withContiguousBytes(text) { (bytes) throws(WriteError) in try writeNumberText(bytes) }
    }

    func writeNumberText(_ bytes: UnsafeBufferPointer<UInt8>) throws(WriteError) {
        guard Self.isJSONNumber(bytes) else {
            let shown = String(decoding: bytes.prefix(40), as: UTF8.self)
            throw Self.invalidValue("\"\(shown)\(bytes.count > 40 ? "..." : "")\" is not a JSON number")
        }
        try writeParsedNumber(bytes)
    }

    /// Writes number text the parser read as a JSON number.
    func writeParsedNumber(_ bytes: UnsafeBufferPointer<UInt8>) throws(WriteError) {
        try beginValue()
        try reserve(bytes.count)
        append(bytes)
        try endValue()
    }

    // MARK: - Internals

    /// The digits of `value`, written backwards into the reserved space and moved into place.
    @inline(__always)
    func writeInteger<T: FixedWidthInteger>(_ value: T) throws(WriteError) {
        guard T.bitWidth <= 64 else {
            try writeASCII(value.description)
            return
        }
        var magnitude: UInt64
        let negative: Bool
        if T.isSigned {
            let signed = Int64(truncatingIfNeeded: value)
            negative = signed < 0
            magnitude = signed.magnitude
        } else {
            negative = false
            magnitude = UInt64(truncatingIfNeeded: value)
        }
        try reserve(21)
        if negative { append(UInt8(ascii: "-")) }
        if magnitude < 10 {
            append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude))
            return
        }
        let end = buffer + (count &+ 20)
        var cursor = end
        while magnitude > 0 {
            let (quotient, digit) = magnitude.quotientAndRemainder(dividingBy: 10)
            cursor -= 1
            cursor.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: digit)
            magnitude = quotient
        }
        let digits = end - cursor
        (buffer + count).update(from: cursor, count: digits)
        count &+= digits
    }

    /// A float's `description` without a trailing `.0`, as `JSONEncoder` writes it.
    @inline(__always)
    func writeFloatText(_ description: String) throws(WriteError) {
        var text = description
        let failure: WriteError? = text.withUTF8 { bytes in
            var length = bytes.count
            if length > 2 && bytes[length - 1] == UInt8(ascii: "0") && bytes[length - 2] == UInt8(ascii: ".") {
                length -= 2
            }
            do throws(WriteError) {
                try reserve(length)
                append(UnsafeBufferPointer(rebasing: bytes[0..<length]))
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// Text known to need no escaping and no validation (a number's description).
    func writeASCII(_ text: String) throws(WriteError) {
        var text = text
        let failure: WriteError? = text.withUTF8 { bytes in
            do throws(WriteError) {
                try reserve(bytes.count)
                append(bytes)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// Whether `text` is exactly one JSON number (RFC 8259 section 6).
    static func isJSONNumber(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = text.count
        var i = 0
        @inline(__always) func isDigit(_ at: Int) -> Bool {
            at < count && text[at] &- UInt8(ascii: "0") < 10
        }
        if i < count && text[i] == UInt8(ascii: "-") { i += 1 }
        guard isDigit(i) else { return false }
        if text[i] == UInt8(ascii: "0") {
            i += 1
        } else {
            while isDigit(i) { i += 1 }
        }
        if i < count && text[i] == UInt8(ascii: ".") {
            i += 1
            guard isDigit(i) else { return false }
            while isDigit(i) { i += 1 }
        }
        if i < count && (text[i] == UInt8(ascii: "e") || text[i] == UInt8(ascii: "E")) {
            i += 1
            if i < count && (text[i] == UInt8(ascii: "+") || text[i] == UInt8(ascii: "-")) { i += 1 }
            guard isDigit(i) else { return false }
            while isDigit(i) { i += 1 }
        }
        return i == count
    }
}
