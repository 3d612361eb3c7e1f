extension DecimalToBinary {
    /// What the conversion needs to know of a binary floating-point format (`Double`, `Float`)
    /// beyond `BinaryFloatingPoint`'s bit counts.
    protocol Format: BinaryFloatingPoint {
        /// Below 10^this, even the largest 19-digit significand rounds to zero.
        static var smallestPowerOfTen: Int { get }
        /// Above 10^this, every non-zero significand is infinite.
        static var largestPowerOfTen: Int { get }
        /// The powers of ten for which a 19-digit significand times 10^q can fall exactly
        /// halfway between two values of the format (5^|q| small enough): only there does the
        /// Eisel-Lemire algorithm need to look for a tie to round to even.
        static var roundToEvenPowers: ClosedRange<Int> { get }
        /// Clinger's fast path: significands up to this are exact in the format...
        static var maxExactSignificand: UInt64 { get }
        /// ...and so are the powers of ten up to 10^this, so one multiplication or division
        /// of the two rounds once, correctly.
        static var maxExactPowerOfTen: Int { get }
        /// 10^`power`, exactly, for `power` in `0...maxExactPowerOfTen`.
        static func exactPowerOfTen(_ power: Int) -> Self
        /// The value with this sign, biased exponent field and significand field.
        static func fromFields(negative: Bool, exponent: Int, significand: UInt64) -> Self
    }
}

/// 10^0 to 10^22: exact in a `Double` (5^22 < 2^53). Literals, so the compiler lays them out.
private let exactPowersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]

extension Double: DecimalToBinary.Format {
    static var smallestPowerOfTen: Int { -342 }
    static var largestPowerOfTen: Int { 308 }
    static var roundToEvenPowers: ClosedRange<Int> { -4...23 }
    static var maxExactSignificand: UInt64 { 1 << 53 }
    static var maxExactPowerOfTen: Int { 22 }

    static func exactPowerOfTen(_ power: Int) -> Double { exactPowersOfTen[power] }

    static func fromFields(negative: Bool, exponent: Int, significand: UInt64) -> Double {
        let sign: UInt64 = negative ? 1 << 63 : 0
        return Double(bitPattern: sign | (UInt64(truncatingIfNeeded: exponent) << 52) | (significand & ((1 << 52) - 1)))
    }
}

extension Float: DecimalToBinary.Format {
    static var smallestPowerOfTen: Int { -65 }
    static var largestPowerOfTen: Int { 38 }
    static var roundToEvenPowers: ClosedRange<Int> { -17...10 }
    static var maxExactSignificand: UInt64 { 1 << 24 }
    static var maxExactPowerOfTen: Int { 10 }

    /// (10^10 = 2^10 × 5^10, and 5^10 < 2^24: exact in a `Float`, so converting it is too.)
    static func exactPowerOfTen(_ power: Int) -> Float { Float(exactPowersOfTen[power]) }

    static func fromFields(negative: Bool, exponent: Int, significand: UInt64) -> Float {
        let sign: UInt32 = negative ? 1 << 31 : 0
        let fields = (UInt32(truncatingIfNeeded: exponent) << 23) | (UInt32(truncatingIfNeeded: significand) & ((1 << 23) - 1))
        return Float(bitPattern: sign | fields)
    }
}
