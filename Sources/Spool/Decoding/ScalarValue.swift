#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A scalar read exactly from its token on the tape: `String`, `Bool`, the standard number
/// types and `Decimal`. The one place their conversions live: ``Extractor``'s scalars (and so these types'
/// ``JSONDecodable`` conformances) and the Codable containers both read them here.
///
/// A number is converted from its exact text: an integer type takes only a value it holds
/// exactly (`1.0` and `1e3` count, `1.5` does not), a floating-point type the nearest value,
/// refusing one that would become infinite or a non-zero one that would become 0. Anything
/// else is the located mismatch error (``DecodingContext/mismatchError(at:expected:reason:)``),
/// whose message is built only then.
protocol ScalarValue {
    /// The value of the token at `index`, which the caller has checked is on the tape.
    /// - Throws: the ``DecodeError`` for a token of another kind, or a number this type refuses.
    static func read(at index: Int, in context: DecodingContext) throws -> Self
}

extension DecodingContext {
    /// The number at `index` converted by `convert`; a mismatch names `T`, with `reason` when
    /// the value is a number that `convert` refuses. `reason` is built only then: a message such
    /// as `"does not fit Int8 exactly"` costs thousands of instructions, more than most
    /// conversions.
    @inline(__always)
    func number<T>(
        at index: Int, as type: T.Type, reason: @autoclosure () -> String, _ convert: (UnsafeBufferPointer<UInt8>) -> T?
    ) throws -> T {
        let token = tape[index]
        guard token.kind == .number else { throw mismatchError(at: index, expected: T.self) }
        guard let value = convert(tape.bytes(of: token)) else {
            throw mismatchError(at: index, expected: T.self, reason: reason())
        }
        return value
    }

    /// The number at `index` as the integer type `T`, exactly (any `FixedWidthInteger`, also
    /// those that are not ``ScalarValue``s, such as `Int128`).
    @inline(__always)
    func integer<T: FixedWidthInteger>(at index: Int, as type: T.Type) throws -> T {
        try number(at: index, as: T.self, reason: "does not fit \(TypeName.of(T.self)) exactly") { text -> T? in
            NumberText.integer(text)
        }
    }
}

extension String: ScalarValue {
    @inline(__always)
    static func read(at index: Int, in context: DecodingContext) throws -> String {
        let token = context.tape[index]
        guard token.kind == .string else { throw context.mismatchError(at: index, expected: String.self) }
        return context.tape.text(of: token)
    }
}

extension Bool: ScalarValue {
    @inline(__always)
    static func read(at index: Int, in context: DecodingContext) throws -> Bool {
        switch context.tape[index].kind {
        case .true: return true
        case .false: return false
        default: throw context.mismatchError(at: index, expected: Bool.self)
        }
    }
}

extension Double: ScalarValue {
    @inline(__always)
    static func read(at index: Int, in context: DecodingContext) throws -> Double {
        try context.number(at: index, as: Double.self, reason: "does not fit Double", NumberText.double)
    }
}

extension Float: ScalarValue {
    @inline(__always)
    static func read(at index: Int, in context: DecodingContext) throws -> Float {
        try context.number(at: index, as: Float.self, reason: "does not fit Float", NumberText.float)
    }
}

/// The standard integer types read as ``DecodingContext/integer(at:as:)`` reads them.
protocol ScalarInteger: ScalarValue, FixedWidthInteger {}

extension ScalarInteger {
    @inline(__always)
    static func read(at index: Int, in context: DecodingContext) throws -> Self {
        try context.integer(at: index, as: Self.self)
    }
}

extension Int: ScalarInteger {}
extension Int8: ScalarInteger {}
extension Int16: ScalarInteger {}
extension Int32: ScalarInteger {}
extension Int64: ScalarInteger {}
extension UInt: ScalarInteger {}
extension UInt8: ScalarInteger {}
extension UInt16: ScalarInteger {}
extension UInt32: ScalarInteger {}
extension UInt64: ScalarInteger {}

extension Decimal: ScalarValue {
    @inline(__always)
    static func read(at index: Int, in context: DecodingContext) throws -> Decimal {
        try context.number(at: index, as: Decimal.self, reason: "does not fit Decimal exactly", NumberText.decimal)
    }
}
