extension DecimalToBinary {
    /// A number's text read as a sign, its first 19 significant digits and a power of ten:
    /// the value is `significand × 10^exponent`, exactly unless ``isTruncated``.
    ///
    /// 19 digits always fit a `UInt64` (10^19 < 2^64), and are enough to decide almost every
    /// conversion: a digit dropped beyond them can move the value by less than one unit of the
    /// 19th. One pass over the text, with no allocation; the exponent as written saturates far
    /// beyond any type's range, so `1e99999999999999999999` costs what its text costs.
    struct ShortDecimal {
        var isNegative = false
        /// The first 19 significant digits (fewer when the number has fewer), as an integer;
        /// 0 only for a number that is zero.
        var significand: UInt64 = 0
        /// The power of ten of the significand's last digit.
        var exponent = 0
        /// Whether a non-zero digit was dropped after the 19th significant digit: then the
        /// value lies strictly between `significand × 10^exponent` and
        /// `(significand + 1) × 10^exponent`.
        var isTruncated = false

        /// The most significant digits kept.
        static let maxDigits = 19
        /// Written exponents saturate here (10^40 is beyond every type, and the sum with a
        /// digit count stays far from `Int`'s limits).
        static let exponentLimit = 1 << 40

        /// Reads JSON number syntax, `-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?` (leading zeros
        /// allowed); nil for anything else.
        init?(_ text: UnsafeBufferPointer<UInt8>) {
            let count = text.count
            var i = 0
            if count > 0 && text[0] == UInt8(ascii: "-") {
                isNegative = true
                i = 1
            }
            // `taken` counts the digits in `significand`, from the first non-zero one. Each
            // step below moves `exponent` by one at most once per byte, so it stays within
            // ±count (far from overflow) before the written exponent is added.
            var taken = 0
            let integralStart = i
            while i < count {
                let digit = text[i] &- UInt8(ascii: "0")
                guard digit <= 9 else { break }
                if taken < Self.maxDigits {
                    if significand != 0 || digit != 0 {  // (leading zeros are not significant)
                        significand = significand &* 10 &+ UInt64(digit)
                        taken += 1
                    }
                } else {
                    exponent += 1
                    if digit != 0 { isTruncated = true }
                }
                i += 1
            }
            guard i > integralStart else { return nil }
            if i < count && text[i] == UInt8(ascii: ".") {
                i += 1
                let fractionStart = i
                while i < count {
                    let digit = text[i] &- UInt8(ascii: "0")
                    guard digit <= 9 else { break }
                    if taken < Self.maxDigits {
                        if significand != 0 || digit != 0 {
                            significand = significand &* 10 &+ UInt64(digit)
                            taken += 1
                        }
                        exponent -= 1
                    } else if digit != 0 {
                        isTruncated = true
                    }
                    i += 1
                }
                guard i > fractionStart else { return nil }
            }
            if i < count && text[i] | 0x20 == UInt8(ascii: "e") {
                i += 1
                var negative = false
                if i < count && (text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+")) {
                    negative = text[i] == UInt8(ascii: "-")
                    i += 1
                }
                let start = i
                var written = 0
                while i < count {
                    let digit = text[i] &- UInt8(ascii: "0")
                    guard digit <= 9 else { break }
                    written = min(written * 10 + Int(digit), Self.exponentLimit)
                    i += 1
                }
                guard i > start else { return nil }
                exponent += negative ? -written : written
            }
            guard i == count else { return nil }
        }
    }
}
