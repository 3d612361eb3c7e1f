extension DecimalToBinary {
    /// A number's text read as a sign, its first 19 significant digits and a power of ten:
    /// the value is `significand × 10^exponent`, exactly unless ``isTruncated``.
    ///
    /// 19 digits always fit a `UInt64` (10^19 < 2^64), and are enough to decide almost every
    /// conversion: a digit dropped beyond them can move the value by less than one unit of the
    /// 19th. One pass over the text (two for a number of more than 19 digits), with no
    /// allocation; the exponent as written saturates far beyond any type's range, so
    /// `1e99999999999999999999` costs what its text costs.
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
        ///
        /// The common case, at most 19 digits written, takes every digit into the significand,
        /// eight at a time where it can. A longer number is read again digit by digit,
        /// skipping leading zeros and keeping count of what it drops (``init(longNumber:)``).
        init?(_ text: UnsafeBufferPointer<UInt8>) {
            guard let base = text.baseAddress, !text.isEmpty else { return nil }
            let count = text.count
            let negative = text[0] == UInt8(ascii: "-")
            var i = negative ? 1 : 0
            var significand: UInt64 = 0  // (wraps past 19 digits: then read again below)
            let integralStart = i
            Self.readDigits(base, count, &i, into: &significand)
            var digits = i - integralStart
            guard digits > 0 else { return nil }
            var fractionDigits = 0
            if i < count && text[i] == UInt8(ascii: ".") {
                i += 1
                let fractionStart = i
                Self.readDigits(base, count, &i, into: &significand)
                fractionDigits = i - fractionStart
                guard fractionDigits > 0 else { return nil }
                digits += fractionDigits
            }
            guard let written = Self.writtenExponent(text, &i), i == count else { return nil }
            guard digits <= Self.maxDigits else {
                self.init(longNumber: text)
                return
            }
            self.init(isNegative: negative, significand: significand, exponent: written - fractionDigits)
        }

        private init(isNegative: Bool, significand: UInt64, exponent: Int) {
            self.isNegative = isNegative
            self.significand = significand
            self.exponent = exponent
        }

        /// Reads text known to be valid number syntax with more than 19 digits written, one
        /// digit at a time: the first 19 significant ones into the significand, the others
        /// only counted (integral ones move the exponent, non-zero ones set ``isTruncated``).
        private init(longNumber text: UnsafeBufferPointer<UInt8>) {
            let count = text.count
            var i = 0
            if text[0] == UInt8(ascii: "-") {
                isNegative = true
                i = 1
            }
            // `taken` counts the digits in `significand`, from the first non-zero one. Each
            // step moves `exponent` by one at most, once per byte, so it stays within ±count
            // (far from overflow) before the written exponent is added.
            var taken = 0
            var inFraction = false
            while i < count {
                let c = text[i]
                if c == UInt8(ascii: ".") {
                    inFraction = true
                } else if let digit = Self.digit(c) {
                    if taken < Self.maxDigits {
                        if significand != 0 || digit != 0 {  // (leading zeros are not significant)
                            significand = significand &* 10 &+ digit
                            taken += 1
                        }
                        if inFraction { exponent -= 1 }
                    } else {
                        if !inFraction { exponent += 1 }
                        if digit != 0 { isTruncated = true }
                    }
                } else {
                    break
                }
                i += 1
            }
            exponent += Self.writtenExponent(text, &i) ?? 0
        }

        /// The value of an ASCII digit; nil for any other byte.
        @inline(__always)
        private static func digit(_ c: UInt8) -> UInt64? {
            let digit = c &- UInt8(ascii: "0")
            return digit <= 9 ? UInt64(digit) : nil
        }

        /// Appends the digits from `i` on to `value` (wrapping past 19 digits), eight at a
        /// time while eight bytes are left, then four, then one, and moves `i` past them.
        @inline(__always)
        private static func readDigits(_ base: UnsafePointer<UInt8>, _ count: Int, _ i: inout Int, into value: inout UInt64) {
            while count - i >= 8, let eight = eightDigits(base + i) {
                value = value &* 100_000_000 &+ eight
                i += 8
            }
            if count - i >= 4, let four = fourDigits(base + i) {
                value = value &* 10_000 &+ four
                i += 4
            }
            while i < count, let digit = digit(base[i]) {
                value = value &* 10 &+ digit
                i += 1
            }
        }

        /// The value of eight ASCII digits at `bytes` (not aligned), or nil when one of the
        /// eight bytes is not a digit. Eight bytes in one word, the first in its low byte.
        @inline(__always)
        private static func eightDigits(_ bytes: UnsafePointer<UInt8>) -> UInt64? {
            let word = UInt64(littleEndian: UnsafeRawPointer(bytes).loadUnaligned(as: UInt64.self))
            // A byte is a digit when adding 0x46 leaves its top bit clear (it is at most 0x39)
            // and subtracting 0x30 does too (at least 0x30); any other byte sets a top bit in
            // one of the two (a carry or borrow it causes cannot clear it).
            let notDigits = (word &+ 0x4646_4646_4646_4646) | (word &- 0x3030_3030_3030_3030)
            guard notDigits & 0x8080_8080_8080_8080 == 0 else { return nil }
            // Digits d0 (low byte) to d7; combine neighbours: pairs, then fours, then eight.
            var value = word &- 0x3030_3030_3030_3030
            value = (value &* 10 &+ value &>> 8) & 0x00FF_00FF_00FF_00FF  // 10·d0 + d1, ... (each ≤ 99)
            value = (value &* 100 &+ value &>> 16) & 0x0000_FFFF_0000_FFFF  // four digits (≤ 9999)
            return (value &* 10_000 &+ value &>> 32) & 0xFFFF_FFFF  // all eight
        }

        /// ``eightDigits(_:)`` for four bytes.
        @inline(__always)
        private static func fourDigits(_ bytes: UnsafePointer<UInt8>) -> UInt64? {
            let word = UInt32(littleEndian: UnsafeRawPointer(bytes).loadUnaligned(as: UInt32.self))
            let notDigits = (word &+ 0x4646_4646) | (word &- 0x3030_3030)
            guard notDigits & 0x8080_8080 == 0 else { return nil }
            var value = word &- 0x3030_3030
            value = (value &* 10 &+ value &>> 8) & 0x00FF_00FF
            return UInt64((value &* 100 &+ value &>> 16) & 0xFFFF)
        }

        /// Reads `[eE][+-]?[0-9]+` at `i`, if there, moving past it: the exponent, saturated at
        /// ±``exponentLimit``; 0 when there is none; nil when it has no digits.
        @inline(__always)
        private static func writtenExponent(_ text: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Int? {
            let count = text.count
            guard i < count && text[i] | 0x20 == UInt8(ascii: "e") else { return 0 }
            i += 1
            var negative = false
            if i < count && (text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+")) {
                negative = text[i] == UInt8(ascii: "-")
                i += 1
            }
            let start = i
            var written = 0
            while i < count, let digit = digit(text[i]) {
                written = min(written * 10 + Int(digit), exponentLimit)
                i += 1
            }
            guard i > start else { return nil }
            return negative ? -written : written
        }
    }
}
