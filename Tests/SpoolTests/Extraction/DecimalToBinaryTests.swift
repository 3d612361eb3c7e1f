#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import Spool

/// Spool's own float parser (`NumberText.double`/`float`, ``DecimalToBinary``) against the C
/// library's `strtod`/`strtof` on the same text: the same bits (signed zeros included), or nil
/// exactly where the C result is out of range (infinite, or 0 for a non-zero number).
@Suite("DecimalToBinary")
struct DecimalToBinaryTests {
    // MARK: - The reference

    /// Whether the number's digits before its exponent are all zeros.
    static func isZero(_ text: String) -> Bool {
        !text.prefix { $0 != "e" && $0 != "E" }.contains { ("1"..."9").contains($0) }
    }

    /// `strtod` on the nul-terminated text, under Spool's range rule.
    static func strtodReference(_ text: String) -> Double? {
        let value = text.withCString { strtod($0, nil) }
        return value.isFinite && (value != 0 || isZero(text)) ? value : nil
    }

    /// `strtof` on the nul-terminated text, under Spool's range rule.
    static func strtofReference(_ text: String) -> Float? {
        let value = text.withCString { strtof($0, nil) }
        return value.isFinite && (value != 0 || isZero(text)) ? value : nil
    }

    static func spoolDouble(_ text: String) -> Double? {
        Array(text.utf8).withUnsafeBufferPointer { NumberText.double($0) }
    }

    static func spoolFloat(_ text: String) -> Float? {
        Array(text.utf8).withUnsafeBufferPointer { NumberText.float($0) }
    }

    /// Checks both types on `text`; returns whether both agreed (records an issue otherwise).
    /// (An `if` rather than `#expect`: the random tests call this a million times.)
    @discardableResult
    static func check(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> Bool {
        let double = (spoolDouble(text), strtodReference(text))
        let float = (spoolFloat(text), strtofReference(text))
        var agrees = true
        if double.0?.bitPattern != double.1?.bitPattern {
            Issue.record("Double from \(text): Spool \(String(describing: double.0)), strtod \(String(describing: double.1))", sourceLocation: sourceLocation)
            agrees = false
        }
        if float.0?.bitPattern != float.1?.bitPattern {
            Issue.record("Float from \(text): Spool \(String(describing: float.0)), strtof \(String(describing: float.1))", sourceLocation: sourceLocation)
            agrees = false
        }
        return agrees
    }

    // MARK: - Edge cases

    static let zeros300 = String(repeating: "0", count: 300)

    @Test(arguments: [
        // Subnormals, the smallest and largest of each type, the range's edges.
        "4.9e-324", "5e-324", "4.9406564584124654e-324", "2.4703282292062327e-324", "2.4703282292062328e-324",
        "2.47032822920623272088e-324", "2.2250738585072011e-308", "2.2250738585072012e-308", "2.2250738585072014e-308",
        "2.2250738585072009e-308", "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308",
        "1.401298464324817e-45", "1.4e-45", "7.006492321624085e-46", "7.006492321624086e-46", "1e-45", "1e-46",
        "1.1754943508222875e-38", "1.1754942e-38", "1.17549421e-38", "3.4028235e38", "3.40282357e38", "3.4028236e38",
        "3.4028236692093846346337460743176821145e38", "3.4028236692093846346337460743176821146e38",
        "-4.9e-324", "-1.4e-45", "-3.4028236e38", "-1.7976931348623159e308",
        // Halfway cases (ties to even), and just off them.
        "9007199254740993", "9007199254740992", "9007199254740994", "9007199254740995", "9007199254740993.0000000001",
        "9007199254740992.99999999999", "18014398509481985", "16777217", "16777219", "16777217.000000001",
        "7.4109846876186982e-324", "7.4109846876186981e-324", "7.4109846876186983e-324", "7.41098468761869816e-324",
        "1.00000000000000011102230246251565404236316680908203125",
        "1.000000000000000111022302462515654042363166809082031251",
        "1.0000000000000001110223024625156540423631668090820312",
        "1.00000005960464477539062500", "1.000000059604644775390625001", "1.0000000596046447753906249",
        "0.500000000000000166533453693773481063544750213623046875",
        // Clinger's fast path and its edges.
        "0", "1", "-1", "0.1", "0.2", "0.3", "1e22", "1e23", "-1e-22", "1e-23", "9007199254740991e22",
        "9007199254740992e-22", "9007199254740993e22", "123456789012345e-22", "1e10", "1e11", "16777216e10",
        // 17+ significant digits, up to hundreds; long runs of zeros.
        "3.14159265358979323846", "2.718281828459045235360287471352662497757", "-65.613616999999977",
        "43.420273000000009", "123456789012345678901234567890e-10", "0.1000000000000000055511151231257827",
        "1\(zeros300)", "1\(zeros300)e-300", "0.\(zeros300)1e301", "1.\(zeros300)1", "1\(zeros300)1e-301",
        "9\(String(repeating: "9", count: 300))e-301", "12345678901234567890123456789012345678901234567890e-380",
        "0.\(zeros300)", "-0.\(zeros300)e99",
        // Huge and tiny exponents; zeros of every kind.
        "0e-99999", "0e99999", "-0.0", "-0", "0.0", "-0e-5", "1e400", "-1e400", "1e-400", "-1e-400", "1e309", "1e-325",
        "1e99999999999999999999", "1e-99999999999999999999", "-1E+999999999", "0e99999999999999999999",
        "1e0000000000000000000000001", "100000000000000000000000e-23", "0.00000000000000000000001e23",
    ])
    func agreesWithTheCLibrary(_ text: String) {
        Self.check(text)
    }

    @Test func signedZerosAndRangeAreKept() {
        #expect(Self.spoolDouble("-0.0")?.sign == .minus)
        #expect(Self.spoolFloat("-0e99999")?.sign == .minus)
        #expect(Self.spoolDouble("0e-99999")?.sign == .plus)
        #expect(Self.spoolDouble("4.9e-324") == .leastNonzeroMagnitude)
        #expect(Self.spoolFloat("1.4e-45") == .leastNonzeroMagnitude)
        #expect(Self.spoolDouble("2.2250738585072014e-308") == .leastNormalMagnitude)
        #expect(Self.spoolDouble("1e400") == nil)
        #expect(Self.spoolDouble("1e-400") == nil)
        #expect(Self.spoolFloat("1e39") == nil)
        #expect(Self.spoolFloat("1e-46") == nil)
    }

    @Test(arguments: ["", "-", "+1", ".5", "1.", "1e", "1e+", "--1", "1.2.3", "1e5.0", "0x10", "inf", "nan", "1 ", " 1", "1f"])
    func refusesWhatIsNotANumber(_ text: String) {
        #expect(Self.spoolDouble(text) == nil)
        #expect(Self.spoolFloat(text) == nil)
    }

    // MARK: - Random numbers

    /// SplitMix64: small, seeded, the same sequence on every platform.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Random number texts: 1 to 40 digits (sometimes with leading zeros), a point anywhere
    /// or none, and an exponent in -350...350 (half of them in -60...45, where `Float` has its
    /// range), both types checked on each.
    @Test func randomNumbersAgreeWithTheCLibrary() {
        var random = SeededGenerator(state: 21)
        let count = 300_000
        var failures = 0
        for _ in 0..<count {
            let digitCount = Int.random(in: 1...40, using: &random)
            var digits = ""
            for position in 0..<digitCount {
                let leadingZero = position == 0 && Int.random(in: 0..<8, using: &random) == 0
                digits.append(Character(Unicode.Scalar(UInt8(ascii: "0") + (leadingZero ? 0 : UInt8.random(in: 0...9, using: &random)))))
            }
            var text = Bool.random(using: &random) ? "-" : ""
            if digitCount > 1 && Bool.random(using: &random) {
                let point = digits.index(digits.startIndex, offsetBy: Int.random(in: 1..<digitCount, using: &random))
                digits.insert(".", at: point)
            }
            text += digits
            if Int.random(in: 0..<4, using: &random) != 0 {
                let exponent = Bool.random(using: &random) ? Int.random(in: -350...350, using: &random) : Int.random(in: -60...45, using: &random)
                text += (Bool.random(using: &random) ? "e" : "E") + (exponent >= 0 && Bool.random(using: &random) ? "+" : "") + "\(exponent)"
            }
            if !Self.check(text) {
                failures += 1
                if failures > 10 { return }
            }
        }
    }

    /// Values next to the exact midpoint between two adjacent `Double`s (or `Float`s): the
    /// midpoint itself (a tie: to even), and its decimal expansion cut short (just below) or
    /// with a 1 appended (just above), for random values of every magnitude, subnormals included.
    @Test func midpointsBetweenAdjacentValuesAgree() {
        var random = SeededGenerator(state: 2021)
        for round in 0..<1_500 {
            // Doubles: a random bit pattern (finite, positive); its midpoint with the next one
            // is (2m + 1) × 2^(e - 1).
            let double = Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF)
            let bits = double.bitPattern
            let exponentField = Int(bits >> 52)
            let fraction = bits & ((1 << 52) - 1)
            let m = exponentField == 0 ? fraction : fraction | (1 << 52)
            let e = (exponentField == 0 ? 1 : exponentField) - 1075
            // Doubles below 2^-600 take long to expand in a debug build: keep a few of them.
            if e > -600 || round % 16 == 0 {
                checkAround(Self.decimal(2 * m + 1, timesTwoTo: e - 1))
            }
            let float = Float(bitPattern: UInt32(truncatingIfNeeded: random.next()) & 0x7F7F_FFFF)
            let floatBits = float.bitPattern
            let floatField = Int(floatBits >> 23)
            let floatFraction = UInt64(floatBits & ((1 << 23) - 1))
            let floatM = floatField == 0 ? floatFraction : floatFraction | (1 << 23)
            let floatE = (floatField == 0 ? 1 : floatField) - 150
            checkAround(Self.decimal(2 * floatM + 1, timesTwoTo: floatE - 1))
        }
    }

    /// Checks a number's plain decimal expansion, one digit fewer and one digit more.
    func checkAround(_ digits: String) {
        Self.check(digits)
        var shorter = digits.dropLast()
        if shorter.last == "." { shorter = shorter.dropLast() }
        if !shorter.isEmpty { Self.check(String(shorter)) }
        Self.check(digits + "1")
        Self.check(digits + "e0")
    }

    /// `m × 2^e` exactly, in plain decimal notation (`m` > 0).
    static func decimal(_ m: UInt64, timesTwoTo e: Int) -> String {
        // Little-endian base-10^9 limbs.
        var limbs: [UInt64] = [m % 1_000_000_000, m / 1_000_000_000 % 1_000_000_000, m / 1_000_000_000_000_000_000]
        func multiply(by factor: UInt64) {
            var carry: UInt64 = 0
            for i in limbs.indices {
                let product = limbs[i] * factor + carry
                limbs[i] = product % 1_000_000_000
                carry = product / 1_000_000_000
            }
            while carry > 0 {
                limbs.append(carry % 1_000_000_000)
                carry /= 1_000_000_000
            }
        }
        // m × 2^e = m × 5^-e / 10^-e when e < 0.
        let factor: UInt64 = e >= 0 ? 2 : 5
        var remaining = abs(e)
        while remaining >= 13 {
            multiply(by: factor == 2 ? 1 << 13 : 1_220_703_125)  // 5^13
            remaining -= 13
        }
        while remaining > 0 {
            multiply(by: factor)
            remaining -= 1
        }
        while limbs.count > 1 && limbs.last == 0 { limbs.removeLast() }
        var text = String(limbs.last ?? 0)
        for limb in limbs.dropLast().reversed() {
            let part = String(limb)
            text += String(repeating: "0", count: 9 - part.count) + part
        }
        guard e < 0 else { return text }
        let fractionDigits = -e
        if text.count <= fractionDigits {
            text = String(repeating: "0", count: fractionDigits - text.count + 1) + text
        }
        text.insert(".", at: text.index(text.endIndex, offsetBy: -fractionDigits))
        return text
    }

    /// Shortest representations of random values (what JSON writers print), and the same with
    /// their last digit moved by one.
    @Test func shortestRepresentationsAgree() {
        var random = SeededGenerator(state: 6)
        for _ in 0..<20_000 {
            let double = Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF)
            let text = "\(double)"
            Self.check(text)
            let float = Float(bitPattern: UInt32(truncatingIfNeeded: random.next()) & 0x7F7F_FFFF)
            Self.check("\(float)")
            // The last digit of the significand, moved by one.
            let end = text.firstIndex(of: "e") ?? text.endIndex
            if end > text.startIndex {
                let last = text.index(before: end)
                if let digit = text[last].wholeNumberValue {
                    var moved = text
                    moved.replaceSubrange(last...last, with: "\((digit + 1) % 10)")
                    Self.check(moved)
                }
            }
        }
    }

    @Test func longNumbersTakeLittleWork() {
        // Tens of thousands of digits: read once (then strtod, once, for the undecided).
        let digits = String(repeating: "7", count: 50_000)
        Self.check("0.\(digits)")
        Self.check("\(digits)e-50000")
        Self.check("1e-\(String(repeating: "9", count: 10_000))")
    }
}
