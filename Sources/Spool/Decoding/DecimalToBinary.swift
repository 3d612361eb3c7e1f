/// Decimal text to the nearest `Double` or `Float`, correctly rounded (ties to even), without
/// `strtod` and without a `String` for all but rare inputs.
///
/// The number's text is read once into its first 19 significant digits `w` and a power of ten
/// `q` (``ShortDecimal``). Then, in order:
///
/// 1. **Clinger's fast path.** When `w` and `10^|q|` are both exact in the format (`w ≤ 2^53`
///    and `|q| ≤ 22` for `Double`), `w × 10^q` or `w / 10^-q` is one IEEE operation on exact
///    operands, rounded once: the correct result.
/// 2. **Eisel-Lemire** (Lemire, "Number Parsing at a Gigabyte per Second", 2021; as in
///    fast_float, Go's strconv and Rust's core::num::dec2flt). `w`, shifted so its top bit is
///    set, times a 128-bit approximation of `5^q` (``powersOfFive``) gives the top bits of
///    the product, from which the significand and the power of two follow; the error of
///    the approximation is below one unit of those 128 bits, so the rounding can be decided
///    exactly except in two cases this code answers "undecided" to: the product's low 64
///    bits are all ones where the approximation could have carried into the bits kept, and
///    (for a number with more than 19 significant digits) `w × 10^q` and `(w + 1) × 10^q`
///    rounding differently, since the true value lies between them.
/// 3. **Undecided.** The caller falls back to an exact conversion (glibc's `strtod` through
///    `Double(String)`). Numbers of up to 19 significant digits never get there: Mushtak and
///    Lemire ("Fast Number Parsing Without Fallback", 2023) proved that the 128-bit product
///    always decides them, and the first check stays only as a guard. Longer numbers get
///    there when their dropped digits matter (an exact tie hidden beyond the 19th digit).
///
/// Halfway cases (`9007199254740993`, 2^53 + 1) are found exactly: for the powers of ten
/// where a tie is possible the 128-bit product is exact, and a tie rounds to even.
enum DecimalToBinary {
    /// What a conversion gives.
    enum Outcome<F> {
        /// The correctly rounded value: finite, and zero only for a number that is zero.
        case value(F)
        /// Out of the format's range (infinite, or a non-zero number rounded to zero), or
        /// not JSON number syntax.
        case refused
        /// The fast algorithms cannot tell; convert the text exactly another way.
        case undecided
    }

    /// The number `text` (JSON number syntax) in format `F`.
    static func convert<F: Format>(_ text: UnsafeBufferPointer<UInt8>, to type: F.Type) -> Outcome<F> {
        guard let decimal = ShortDecimal(text) else { return .refused }
        let w = decimal.significand
        let q = decimal.exponent
        if w == 0 { return .value(decimal.isNegative ? -F.zero : F.zero) }
        if !decimal.isTruncated, w <= F.maxExactSignificand, q >= -F.maxExactPowerOfTen, q <= F.maxExactPowerOfTen {
            // Clinger: both operands exact, one rounding. (Int64: a signed conversion is cheaper.)
            let exact = F(Int64(truncatingIfNeeded: w))
            let value = q < 0 ? exact / F.exactPowerOfTen(-q) : exact * F.exactPowerOfTen(q)
            return .value(decimal.isNegative ? -value : value)
        }
        guard let fields = eiselLemire(w, q, F.self) else { return .undecided }
        if decimal.isTruncated {
            // The value lies strictly between w × 10^q and (w + 1) × 10^q (w + 1 ≤ 10^19 < 2^64):
            // where both round alike, so does everything between them.
            guard let upper = eiselLemire(w + 1, q, F.self), upper == fields else { return .undecided }
        }
        let infinite = (1 << F.exponentBitCount) - 1
        if fields.exponent == infinite || (fields.exponent == 0 && fields.significand == 0) { return .refused }
        return .value(F.fromFields(negative: decimal.isNegative, exponent: fields.exponent, significand: fields.significand))
    }

    /// `w × 10^q` (`w` > 0) rounded to format `F`, as its biased exponent field (0 for zero and
    /// subnormals, all ones for infinity) and its significand field (without the implicit
    /// bit); nil when the 128-bit product cannot decide the rounding.
    static func eiselLemire<F: Format>(_ w: UInt64, _ q: Int, _ type: F.Type) -> Fields? {
        if q < F.smallestPowerOfTen { return Fields(exponent: 0, significand: 0) }
        let infinite = (1 << F.exponentBitCount) - 1
        if q > F.largestPowerOfTen { return Fields(exponent: infinite, significand: 0) }
        let significandBits = F.significandBitCount  // explicit bits: 52, 23

        // w normalized (top bit set) times 5^q's 128-bit significand: the product's top 128
        // bits, `high` and `low`. Its top significandBits + 3 bits are all that rounding needs
        // (the +1 of a carry from below the first 64-bit product can only reach them when the
        // bits under them are all ones), so the second multiplication is done only then.
        let leadingZeros = w.leadingZeroBitCount
        let normalized = w &<< leadingZeros
        let index = 2 &* (q &- smallestPowerOfFive)
        var (high, low) = normalized.multipliedFullWidth(by: powersOfFive[index])
        let precisionMask = UInt64.max &>> (significandBits &+ 3)
        if high & precisionMask == precisionMask {
            let (carry, _) = normalized.multipliedFullWidth(by: powersOfFive[index &+ 1])
            let (sum, overflow) = low.addingReportingOverflow(carry)
            low = sum
            // (`high` < 2^64 - 1: the product of two numbers below 2^64 and 2^128 has a high
            // word at most 2^64 - 2, so this cannot wrap.)
            if overflow { high &+= 1 }
        }
        // Still all ones below: the truncated tail of 5^q could carry into the kept bits.
        // Only possible outside the powers where the table holds 5^q exactly (0...55) or the
        // rounding needs no tie (-27...-1) (Lemire 2021, §8-§9).
        if low == UInt64.max && (q < -27 || q > 55) { return nil }

        let upperBit = Int(truncatingIfNeeded: high &>> 63)
        let shift = upperBit &+ 64 &- significandBits &- 3
        var significand = high &>> shift
        // floor(log2(10^q)) is (q × 217706) >> 16 for every q of the table (the generator
        // checks it), then 63 for the normalization; the bias makes it the exponent field.
        let exponentBias = (1 << (F.exponentBitCount &- 1)) &- 1
        var exponent = ((217_706 &* q) &>> 16) &+ 63 &+ upperBit &- leadingZeros &+ exponentBias

        if exponent <= 0 {
            // Subnormal, or zero: shift out the bits below the smallest exponent, then round
            // (no tie is possible this far from 1). Rounding up may reach the smallest normal.
            if 1 &- exponent >= 64 { return Fields(exponent: 0, significand: 0) }
            significand &>>= 1 &- exponent
            significand &+= significand & 1
            significand &>>= 1
            exponent = significand < (1 << significandBits) ? 0 : 1
            return Fields(exponent: exponent, significand: significand & ((1 << significandBits) &- 1))
        }
        // `significand` holds the result's bits and one more (the rounding bit), then bits
        // that decide nothing. Exactly halfway (the rounding bit set, nothing below it in the
        // exact product, which only the powers in `roundToEvenPowers` can give): to even.
        if low <= 1, F.roundToEvenPowers.contains(q), significand & 3 == 1, significand &<< shift == high {
            significand &= ~1
        }
        significand &+= significand & 1
        significand &>>= 1
        if significand >= (2 << significandBits) {  // rounded up to the next power of two
            significand = 1 << significandBits
            exponent &+= 1
        }
        if exponent >= infinite { return Fields(exponent: infinite, significand: 0) }
        return Fields(exponent: exponent, significand: significand & ((1 << significandBits) &- 1))
    }

    /// A binary floating-point value's biased exponent and significand fields.
    struct Fields: Equatable {
        var exponent: Int
        var significand: UInt64
    }
}
