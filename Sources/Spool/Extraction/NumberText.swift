/// Exact conversions from a number's source text (as yajl reports it: valid JSON number syntax).
enum NumberText {
    /// The integer the text denotes, if it is an integer that fits `T`: `12`, `-0`, and also
    /// `1.0`, `1e3`, `2.50e1`. `nil` for fractions and out-of-range values; never truncated.
    static func integer<T: FixedWidthInteger>(_ text: UnsafeBufferPointer<UInt8>) -> T? {
        if let value: T = plainInteger(text) { return value }
        guard let digits = integralDigits(text) else { return nil }
        return digits.withUnsafeBufferPointer { plainInteger($0) }
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

    /// For text with a fraction or exponent: the plain integer text it equals, or nil when it
    /// has a non-zero fraction (or is absurdly large).
    private static func integralDigits(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var negative = false
        var mantissa: [UInt8] = []
        var fractionDigits = 0
        var exponent = 0
        var i = 0
        if text.first == UInt8(ascii: "-") {
            negative = true
            i = 1
        }
        var inFraction = false
        while i < text.count {
            let c = text[i]
            if c == UInt8(ascii: ".") {
                inFraction = true
            } else if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
                i += 1
                var exponentNegative = false
                if i < text.count && (text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+")) {
                    exponentNegative = text[i] == UInt8(ascii: "-")
                    i += 1
                }
                while i < text.count {
                    exponent = min(exponent * 10 + Int(text[i] &- UInt8(ascii: "0")), 10_000)
                    i += 1
                }
                if exponentNegative { exponent = -exponent }
                break
            } else {
                mantissa.append(c)
                if inFraction { fractionDigits += 1 }
            }
            i += 1
        }
        let shift = exponent - fractionDigits
        if shift >= 0 {
            guard mantissa.count + shift <= 40 else { return nil }
            mantissa.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: shift))
        } else {
            let drop = -shift
            guard drop <= mantissa.count else {
                return mantissa.allSatisfy { $0 == UInt8(ascii: "0") } ? Array("0".utf8) : nil
            }
            guard mantissa.suffix(drop).allSatisfy({ $0 == UInt8(ascii: "0") }) else { return nil }
            mantissa.removeLast(drop)
            if mantissa.isEmpty { mantissa = Array("0".utf8) }
        }
        return negative ? [UInt8(ascii: "-")] + mantissa : mantissa
    }

    /// The nearest `Double` (Swift's correctly rounded conversion).
    static func double(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        Double(String(decoding: text, as: UTF8.self))
    }
}
