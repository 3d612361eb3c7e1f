#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Exact conversions from a number's source text (as yajl reports it: valid JSON number syntax).
///
/// Exactness is decided on the digits, never through a `Double`: a number is split into its
/// significant digits `D` (no leading or trailing zeros) and a power of ten `E`, so that its
/// value is `D × 10^E` (``Parts``). Work is bounded by the text's length, whatever its exponent:
/// `1e999999999` is refused without building a billion zeros.
enum NumberText {
    /// A number's text split into sign, significant digits and power of ten.
    struct Parts {
        let text: UnsafeBufferPointer<UInt8>
        var isNegative = false
        /// Indices in `text` of the first and last non-zero digit; nil when the number is zero.
        var first: Int?
        var last: Int?
        /// The number of significant digits: from the first non-zero digit to the last, inclusive.
        var digitCount = 0
        /// The power of ten of the last significant digit: the value is `D × 10^exponent`.
        /// Saturated far beyond any type's range (an exponent with many digits stays cheap).
        var exponent = 0

        var isZero: Bool { first == nil }

        /// The number of digits of the integral part of the value (when positive), which may be
        /// zero or negative for a value below 1.
        var magnitude: Int { digitCount + exponent }

        /// Calls `body` with each significant digit (0...9) in order: those of `D`.
        func forEachDigit(_ body: (UInt8) -> Bool) -> Bool {
            guard let first, let last else { return true }
            var i = first
            while i <= last {
                let digit = text[i] &- UInt8(ascii: "0")
                if digit <= 9 && !body(digit) { return false }
                i += 1
            }
            return true
        }
    }

    /// The largest exponent kept exactly; larger ones saturate (no type comes near it, and the
    /// sum with a digit count cannot overflow).
    private static let exponentLimit = 1 << 40

    /// Splits valid JSON number text; nil for anything else (never traps).
    static func parts(_ text: UnsafeBufferPointer<UInt8>) -> Parts? {
        var parts = Parts(text: text)
        var i = 0
        if i < text.count && text[i] == UInt8(ascii: "-") {
            parts.isNegative = true
            i += 1
        }
        // Digits are numbered in reading order; the first `integralDigits` of them come before
        // the point, so the one at position q stands for 10^(integralDigits - 1 - q).
        var digitsRead = 0
        var integralDigits = -1
        var lastPosition = 0  // position (in digits read) of the last non-zero digit
        var sawDigit = false
        while i < text.count {
            let c = text[i]
            if c == UInt8(ascii: ".") {
                guard integralDigits < 0, sawDigit else { return nil }
                integralDigits = digitsRead
                sawDigit = false
            } else if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
                break
            } else {
                guard c &- UInt8(ascii: "0") <= 9 else { return nil }
                sawDigit = true
                if c != UInt8(ascii: "0") {
                    if parts.first == nil { parts.first = i }
                    parts.last = i
                    lastPosition = digitsRead
                }
                digitsRead += 1
            }
            i += 1
        }
        guard sawDigit else { return nil }
        if integralDigits < 0 { integralDigits = digitsRead }
        var exponent = 0
        if i < text.count {  // the exponent
            i += 1
            var negative = false
            if i < text.count && (text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+")) {
                negative = text[i] == UInt8(ascii: "-")
                i += 1
            }
            guard i < text.count else { return nil }
            while i < text.count {
                let digit = text[i] &- UInt8(ascii: "0")
                guard digit <= 9 else { return nil }
                exponent = min(exponent &* 10 &+ Int(digit), exponentLimit)
                i += 1
            }
            if negative { exponent = -exponent }
        }
        guard let first = parts.first, let last = parts.last else { return parts }
        // Significant digits: from `first` to `last`, not counting a point between them.
        let span = last - first + 1
        parts.digitCount = text[first..<last].contains(UInt8(ascii: ".")) ? span - 1 : span
        parts.exponent = exponent + (integralDigits - 1 - lastPosition)
        return parts
    }

    /// The integer the text denotes, if it is a whole number that fits `T`: `12`, `-0`, and
    /// also `1.0`, `1e3`, `2.50e1`, `0e41`, `1000e-3`. `nil` for fractions and out-of-range
    /// values; never truncated.
    static func integer<T: FixedWidthInteger>(_ text: UnsafeBufferPointer<UInt8>) -> T? {
        if let value: T = plainInteger(text) { return value }
        guard let parts = parts(text) else { return nil }
        if parts.isZero { return 0 }
        // A value with a fraction has its last significant digit below the units.
        guard parts.exponent >= 0, parts.magnitude <= T.bitWidth / 3 + 1 else { return nil }
        var value: T = 0
        var fits = parts.forEachDigit { digit in
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) =
                parts.isNegative
                ? shifted.subtractingReportingOverflow(T(digit)) : shifted.addingReportingOverflow(T(digit))
            value = next
            return !overflow1 && !overflow2
        }
        var zeros = parts.exponent
        while fits && zeros > 0 {
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            value = shifted
            fits = !overflow
            zeros -= 1
        }
        return fits ? value : nil
    }

    /// `-?[0-9]+` with overflow checks.
    @inline(__always)
    private static func plainInteger<T: FixedWidthInteger>(_ text: UnsafeBufferPointer<UInt8>) -> T? {
        var i = 0
        let negative = text.first == UInt8(ascii: "-")
        if negative { i = 1 }
        guard i < text.count else { return nil }
        var value: T = 0
        while i < text.count {
            let digit = text[i] &- UInt8(ascii: "0")
            guard digit <= 9 else { return nil }
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) =
                negative ? shifted.subtractingReportingOverflow(T(digit)) : shifted.addingReportingOverflow(T(digit))
            guard !overflow1 && !overflow2 else { return nil }
            value = next
            i += 1
        }
        return value
    }

    /// The nearest `Double` (correctly rounded, ties to even), or nil when the number is out
    /// of `Double`'s range: it would become infinite, or a non-zero number would become 0.
    /// Subnormal results are kept; `-0` is negative zero. See ``DecimalToBinary``.
    static func double(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        binaryFloat(text, as: Double.self)
    }

    /// The nearest `Float`, or nil when out of `Float`'s range (as for ``double(_:)``). Rounded
    /// once, from the text, not through a `Double`.
    static func float(_ text: UnsafeBufferPointer<UInt8>) -> Float? {
        binaryFloat(text, as: Float.self)
    }

    private static func binaryFloat<F: DecimalToBinary.Format & LosslessStringConvertible>(
        _ text: UnsafeBufferPointer<UInt8>, as type: F.Type
    ) -> F? {
        switch DecimalToBinary.convert(text, to: F.self) {
        case .value(let value): return value
        case .refused: return nil
        case .undecided: return exactSlowPath(text, as: F.self)
        }
    }

    /// The rare number ``DecimalToBinary`` cannot decide (an exact tie hidden beyond the 19th
    /// significant digit, say): Swift's conversion from a `String`, which glibc's `strtod` or
    /// `strtof` rounds exactly.
    @inline(never)
    private static func exactSlowPath<F: BinaryFloatingPoint & LosslessStringConvertible>(
        _ text: UnsafeBufferPointer<UInt8>, as type: F.Type
    ) -> F? {
        guard let value = F(String(decoding: text, as: UTF8.self)) else { return nil }
        return fits(value, text) ? value : nil
    }

    /// Whether a conversion kept the number: finite, and 0 only for a number that is zero.
    private static func fits<F: BinaryFloatingPoint>(_ value: F, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard value.isFinite else { return false }
        return value != 0 || isZero(text)
    }

    /// Whether the number's digits are all zeros (its exponent does not matter).
    private static func isZero(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        for c in text {
            if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") { break }
            if c >= UInt8(ascii: "1") && c <= UInt8(ascii: "9") { return false }
        }
        return true
    }

    /// `Decimal`'s exponent range, and the largest significand it holds (128 bits).
    private static let decimalExponents = -128...127
    private static let maxDecimalSignificand = Array("340282366920938463463374607431768211455".utf8)

    /// The `Decimal` equal to the number, or nil when `Decimal` cannot hold it exactly: more
    /// significant digits than its 128-bit significand holds, or a power of ten out of its
    /// range. Trailing zeros cost nothing (`1.000…0` is 1; `1e130` is `1000 × 10^127`).
    static func decimal(_ text: UnsafeBufferPointer<UInt8>) -> Decimal? {
        guard let parts = parts(text) else { return nil }
        if parts.isZero { return Decimal.zero }
        // D × 10^E = (D × 10^shift) × 10^(E - shift): move the exponent into range by
        // appending zeros to the significand, never by dropping digits.
        let shift = max(0, parts.exponent - decimalExponents.upperBound)
        let exponent = parts.exponent - shift
        guard decimalExponents.contains(exponent) else { return nil }
        let length = parts.digitCount + shift
        guard length <= maxDecimalSignificand.count else { return nil }
        var significand: [UInt8] = []
        significand.reserveCapacity(length)
        _ = parts.forEachDigit { digit in
            significand.append(UInt8(ascii: "0") + digit)
            return true
        }
        significand.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: shift))
        // Digit strings of equal length compare as their numbers do.
        if length == maxDecimalSignificand.count && maxDecimalSignificand.lexicographicallyPrecedes(significand) {
            return nil
        }
        return makeDecimal(significand, exponent, parts.isNegative)
    }

    /// `Decimal(string:)` of a significand and an exponent both within range, which it reads exactly.
    private static func makeDecimal(_ significand: [UInt8], _ exponent: Int, _ negative: Bool) -> Decimal? {
        let text = (negative ? "-" : "") + String(decoding: significand, as: UTF8.self) + "e\(exponent)"
        return Decimal(string: text)
    }
}
