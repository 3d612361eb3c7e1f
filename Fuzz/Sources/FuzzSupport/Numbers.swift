#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Spool

/// The exact value of a JSON number text: `digits × 10^exponent`, the digits without leading
/// or trailing zeros (empty for zero). Exponents are clamped to ±1e9, which no decision
/// below can tell apart from larger ones.
public struct ExactNumber {
    public var negative: Bool
    public var digits: [UInt8]
    public var exponent: Int
    /// Digits written in the mantissa, leading and trailing zeros included.
    public var writtenDigits: Int
    /// Whether the text has a fraction or an exponent.
    public var hasFractionOrExponent: Bool

    public var isZero: Bool { digits.isEmpty }

    /// Whether both denote the same value (however written).
    public func sameValue(as other: ExactNumber) -> Bool {
        negative == other.negative && digits == other.digits && exponent == other.exponent
    }

    /// Parses `-?digits[.digits][(e|E)[+-]digits]`; nil for anything else.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        var i = 0
        negative = false
        if i < bytes.count && bytes[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        var mantissa: [UInt8] = []
        var fractionDigits = 0
        var sawPoint = false
        var sawExponent = false
        while i < bytes.count {
            let c = bytes[i]
            if c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") {
                mantissa.append(c)
                if sawPoint { fractionDigits += 1 }
            } else if c == UInt8(ascii: ".") && !sawPoint {
                sawPoint = true
            } else if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
                sawExponent = true
                break
            } else {
                return nil
            }
            i += 1
        }
        guard !mantissa.isEmpty else { return nil }
        var exponent = 0
        if sawExponent {
            i += 1
            var exponentNegative = false
            if i < bytes.count && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) {
                exponentNegative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            guard i < bytes.count else { return nil }
            while i < bytes.count {
                let c = bytes[i]
                guard c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") else { return nil }
                exponent = min(exponent * 10 + Int(c - UInt8(ascii: "0")), 1_000_000_000)
                i += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        writtenDigits = mantissa.count
        hasFractionOrExponent = sawPoint || sawExponent
        exponent -= fractionDigits
        while let first = mantissa.first, first == UInt8(ascii: "0") { mantissa.removeFirst() }
        while let last = mantissa.last, last == UInt8(ascii: "0") {
            mantissa.removeLast()
            exponent += 1
        }
        digits = mantissa
        self.exponent = mantissa.isEmpty ? 0 : exponent
        if mantissa.isEmpty { negative = false }
    }

    /// The integer of type `T` this number is exactly, if it is a whole number in `T`'s range.
    public func integer<T: FixedWidthInteger>(_ type: T.Type) -> T? {
        if isZero { return 0 }
        guard exponent >= 0, digits.count + exponent <= 40 else { return nil }
        let text = (negative ? "-" : "") + String(decoding: digits, as: UTF8.self)
            + String(repeating: "0", count: exponent)
        return T(text)
    }

    /// Whether `Decimal` can hold the value exactly: a mantissa below 2^128 and an exponent
    /// in -128...127.
    public var fitsDecimal: Bool {
        if isZero { return true }
        guard digits.count <= 38, exponent >= -128 else { return false }
        return exponent <= 127 || digits.count + (exponent - 127) <= 38
    }
}

/// What a conversion of a number text gives: a value or a type mismatch.
public enum Converted<T: Equatable>: Equatable {
    case value(T)
    case rejected
}

/// The number types the targets decode.
public enum NumberType: String, CaseIterable, Sendable {
    case int = "Int", int8 = "Int8", uint64 = "UInt64", double = "Double", float = "Float", decimal = "Decimal"
}

/// Spool's conversion of each number text, decoded on its own (`T.decodeValue(from: text)`)
/// and checked against the reference rules the first time it is asked for; the reference
/// decoders then build their expected models from these checked leaves.
///
/// The reference rules (the NEW number semantics):
/// - integers: exactly the whole number the text denotes, when it fits (`1e2`, `0e41`, `-0`,
///   `2.50e1` included); plain integer texts must agree with Swift's `T(text)`;
/// - `Double`/`Float`: `Double(text)`/`Float(text)` when finite and not a non-zero number
///   rounded to zero; out of range either way: a type mismatch;
/// - `Decimal`: exactly the value (checked by formatting Spool's `Decimal` and parsing that
///   back), whatever its number of digits; or a type mismatch for more than 38 significant
///   digits (39 fit only below 2^128), or when the text is extreme (the value outside
///   Decimal's exponent range, more than 38 written digits, or a written exponent beyond
///   ±127), which Foundation's parser refuses. Any other refusal is a failure.
public final class NumberOracle {
    let input: FuzzInput
    private var ints: [String: Converted<Int>] = [:]
    private var int8s: [String: Converted<Int8>] = [:]
    private var uint64s: [String: Converted<UInt64>] = [:]
    private var doubles: [String: Converted<Double>] = [:]
    private var floats: [String: Converted<Float>] = [:]
    private var decimals: [String: Converted<Decimal>] = [:]

    public init(input: FuzzInput) { self.input = input }

    /// Checks every conversion of every number text.
    public func checkAll(_ texts: Set<String>) {
        for text in texts {
            _ = int(text)
            _ = int8(text)
            _ = uint64(text)
            _ = double(text)
            _ = float(text)
            _ = decimal(text)
        }
    }

    private func spool<T: JSONDecodable & Equatable>(_ type: T.Type, _ text: String) -> Converted<T> {
        do {
            return .value(try T.decodeValue(from: .bytes(Array(text.utf8))))
        } catch let error as DecodeError where error.code == .typeMismatch {
            return .rejected
        } catch {
            fail("a number text alone gave another error than a type mismatch as \(T.self): \(text)", input, "\(error)")
        }
    }

    private func exact(_ text: String) -> ExactNumber {
        guard let number = ExactNumber(text) else { fail("the reader gave a number text the reference cannot read: \(text)", input) }
        return number
    }

    private func checkInteger<T: FixedWidthInteger & JSONDecodable>(_ type: T.Type, _ text: String) -> Converted<T> {
        let number = exact(text)
        let expected: Converted<T> = number.integer(T.self).map { .value($0) } ?? .rejected
        if !number.hasFractionOrExponent {
            let plain: Converted<T> = T(text).map { .value($0) } ?? .rejected
            // Swift's `UInt64("-0")` is 0, as the exact value; anything else is a reference bug.
            guard plain == expected else { fail("reference integer conversion differs from \(T.self)(text) for \(text)", input) }
        }
        let actual = spool(T.self, text)
        if actual != expected {
            if actual == .rejected && number.hasFractionOrExponent {
                KnownOldBehaviour.wholeNumberNotInteger.note(input, "\(T.self) from \(text): expected \(expected), Spool rejects it")
            } else {
                fail("\(T.self) from \(text): expected \(expected), Spool gives \(actual)", input)
            }
        }
        return actual
    }

    public func int(_ text: String) -> Converted<Int> {
        if let known = ints[text] { return known }
        let result = checkInteger(Int.self, text)
        ints[text] = result
        return result
    }

    public func int8(_ text: String) -> Converted<Int8> {
        if let known = int8s[text] { return known }
        let result = checkInteger(Int8.self, text)
        int8s[text] = result
        return result
    }

    public func uint64(_ text: String) -> Converted<UInt64> {
        if let known = uint64s[text] { return known }
        let result = checkInteger(UInt64.self, text)
        uint64s[text] = result
        return result
    }

    /// Whether the number text has a non-zero digit before its exponent.
    static func isNonZero(_ text: String) -> Bool {
        text.prefix { $0 != "e" && $0 != "E" }.contains { ("1"..."9").contains($0) }
    }

    public func double(_ text: String) -> Converted<Double> {
        if let known = doubles[text] { return known }
        guard let swift = Double(text) else { fail("Double(text) is nil for the number text \(text)", input) }
        // Out of range either way (infinite, or a non-zero number that rounds to zero): refused.
        let expected: Converted<Double> = swift.isFinite && !(swift == 0 && Self.isNonZero(text)) ? .value(swift) : .rejected
        let actual = spool(Double.self, text)
        if actual != expected {
            if actual == .value(swift) && !swift.isFinite {
                KnownOldBehaviour.infiniteFloatingPoint.note(input, "Double from \(text): Spool gives \(swift)")
            } else {
                fail("Double from \(text): expected \(expected), Spool gives \(actual)", input)
            }
        }
        doubles[text] = actual
        return actual
    }

    public func float(_ text: String) -> Converted<Float> {
        if let known = floats[text] { return known }
        guard let swift = Float(text) else { fail("Float(text) is nil for the number text \(text)", input) }
        let expected: Converted<Float> = swift.isFinite && !(swift == 0 && Self.isNonZero(text)) ? .value(swift) : .rejected
        let actual = spool(Float.self, text)
        if actual != expected {
            if actual == .value(swift) && !swift.isFinite {
                KnownOldBehaviour.infiniteFloatingPoint.note(input, "Float from \(text): Spool gives \(swift)")
            } else {
                fail("Float from \(text): expected \(expected), Spool gives \(actual)", input)
            }
        }
        floats[text] = actual
        return actual
    }

    public func decimal(_ text: String) -> Converted<Decimal> {
        if let known = decimals[text] { return known }
        let number = exact(text)
        let actual = spool(Decimal.self, text)
        switch actual {
        case .value(let value):
            let formatted = "\(value)"
            // Exactly the value is right however many digits it has (39 fit the 128-bit
            // significand below 2^128); a value rounded from more than 38 digits is the old rule.
            if ExactNumber(formatted).map({ $0.sameValue(as: number) }) ?? false { break }
            if number.digits.count > 38 {
                KnownOldBehaviour.longDecimal.note(input, "Decimal from \(text) (\(number.digits.count) significant digits): Spool gives \(formatted)")
            } else {
                fail("Decimal from \(text): Spool gives \(formatted), not the exact value", input)
            }
        case .rejected:
            let extreme = !number.fitsDecimal || number.writtenDigits > 38 || abs(number.exponent) > 127
                || writtenExponent(text) > 127
            if number.digits.count <= 38 && !extreme {
                fail("Decimal from \(text): Spool rejects a value Decimal holds exactly", input)
            }
        }
        decimals[text] = actual
        return actual
    }

    /// The magnitude of the exponent as written (`1e-130`: 130).
    private func writtenExponent(_ text: String) -> Int {
        guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) else { return 0 }
        let digits = text[text.index(after: e)...].drop { $0 == "+" || $0 == "-" }
        return digits.count > 9 ? Int.max : Int(digits) ?? 0
    }
}
