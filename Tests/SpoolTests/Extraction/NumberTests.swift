import Foundation
import Testing
@testable import Spool

/// Numbers at the edges of the types they decode as: exact or refused, never rounded away.
@Suite("Numbers")
struct NumberTests {
    /// Decodes `number` (JSON text) as the value of key "n", as `T`.
    static func decode<T: JSONDecodable>(_ number: String, as type: T.Type, options: JSONParsingOptions = .init()) throws -> T {
        let e = try Extractor.decodeValue(from: .string(#"{"n": \#(number)}"#), options: options)
        return try e <| "n"
    }

    /// The type mismatch decoding `number` as `T` throws, checked for its reason and location.
    static func refusal<T: JSONDecodable>(
        _ number: String, as type: T.Type, reason: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> DecodeError? {
        do {
            let value = try decode(number, as: T.self)
            Issue.record("\(number) decoded as \(T.self) \(value)", sourceLocation: sourceLocation)
            return nil
        } catch let error as DecodeError {
            #expect(error.code == .typeMismatch, sourceLocation: sourceLocation)
            #expect(error.message.hasSuffix("(\(reason))"), "\(error.message)", sourceLocation: sourceLocation)
            #expect(error.keyPath == ["n"], sourceLocation: sourceLocation)
            #expect(error.location?.column == 7, sourceLocation: sourceLocation)
            return error
        } catch {
            Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    static let manyZeros = String(repeating: "0", count: 41)

    // MARK: - Whole numbers

    @Test(arguments: [
        ("0e41", 0), ("0.0e100", 0), ("-0.0", 0), ("-0", 0), ("0.\(manyZeros)1e42", 1), ("1000e-3", 1),
        ("12.30e1", 123), ("1.0", 1), ("2.5e1", 25), ("1e2", 100), ("-1.20e1", -12), ("0.0000e-999999999", 0),
        ("12300e-2", 123), ("9.223372036854775807e18", Int.max), ("-92233720368547758.08e2", Int.min),
    ])
    func wholeNumbersDecodeAsInt(_ text: String, _ expected: Int) throws {
        #expect(try Self.decode(text, as: Int.self) == expected)
        #expect(try Self.decode(text, as: Int64.self) == Int64(expected))
    }

    @Test(arguments: ["0e41", "0.0e100", "-0.0", "0.\(manyZeros)1e42", "1000e-3", "12.30e1", "1.27e2", "-0e7"])
    func wholeNumbersDecodeAsEveryFixedWidthType(_ text: String) throws {
        let expected = try Self.decode(text, as: Int.self)
        #expect(try Self.decode(text, as: Int8.self) == Int8(expected))
        #expect(try Self.decode(text, as: Int16.self) == Int16(expected))
        #expect(try Self.decode(text, as: Int32.self) == Int32(expected))
        #expect(try Self.decode(text, as: Int64.self) == Int64(expected))
        #expect(try Self.decode(text, as: UInt.self) == UInt(expected))
        #expect(try Self.decode(text, as: UInt8.self) == UInt8(expected))
        #expect(try Self.decode(text, as: UInt16.self) == UInt16(expected))
        #expect(try Self.decode(text, as: UInt32.self) == UInt32(expected))
        #expect(try Self.decode(text, as: UInt64.self) == UInt64(expected))
    }

    @Test func wholeNumbersAreRangeChecked() throws {
        #expect(try Self.decode("1.27e2", as: Int8.self) == 127)
        #expect(try Self.decode("-1.28e2", as: Int8.self) == -128)
        #expect(try Self.decode("2.55e2", as: UInt8.self) == 255)
        #expect(try Self.decode("1.8446744073709551615e19", as: UInt64.self) == .max)
        _ = Self.refusal("1.28e2", as: Int8.self, reason: "does not fit Int8 exactly")
        _ = Self.refusal("2.56e2", as: UInt8.self, reason: "does not fit UInt8 exactly")
        _ = Self.refusal("-1e0", as: UInt.self, reason: "does not fit UInt exactly")
        _ = Self.refusal("1e19", as: Int64.self, reason: "does not fit Int64 exactly")
        _ = Self.refusal("1.8446744073709551616e19", as: UInt64.self, reason: "does not fit UInt64 exactly")
    }

    @Test(arguments: ["1e-1", "1.5", "0.1e0", "12.34e1", "1000e-4", "-0.5", "0.\(manyZeros)1e41", "1e-999999999"])
    func fractionsAreNotIntegers(_ text: String) {
        _ = Self.refusal(text, as: Int.self, reason: "does not fit Int exactly")
        _ = Self.refusal(text, as: UInt8.self, reason: "does not fit UInt8 exactly")
    }

    @Test func hugeExponentsAreRefusedWithoutWork() throws {
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for text in ["1e999999999", "1e9999999999999999999999999", "-1E+999999999", "0.5e999999999"] {
                _ = Self.refusal(text, as: Int.self, reason: "does not fit Int exactly")
                _ = Self.refusal(text, as: Decimal.self, reason: "does not fit Decimal exactly")
            }
        }
        #expect(elapsed < .seconds(1))
        #expect(try Self.decode("0e9999999999999999999999999", as: Int.self) == 0)
    }

    @Test func longDigitStringsAreExactBothWays() throws {
        // 3,000 zeros after the point, then a 1, times 10^3001: the integer 1.
        var options = JSONParsingOptions()
        options.maxNumberLength = 10_000
        let zeros = String(repeating: "0", count: 3000)
        #expect(try Self.decode("0.\(zeros)1e3001", as: Int.self, options: options) == 1)
        #expect(try Self.decode("1\(zeros)e-3000", as: Int.self, options: options) == 1)
        #expect(try Self.decode("1.\(zeros)", as: UInt8.self, options: options) == 1)
        #expect(throws: DecodeError.self) { try Self.decode("0.\(zeros)1e3000", as: Int.self, options: options) }
        #expect(throws: DecodeError.self) { try Self.decode("1\(zeros)", as: Int.self, options: options) }
    }

    // MARK: - Double and Float

    @Test(arguments: ["1e400", "-1e400", "1.8e308", "1e999999999"])
    func doubleOverflowIsRefused(_ text: String) {
        let error = Self.refusal(text, as: Double.self, reason: "does not fit Double")
        #expect(error?.excerpt == text)
        #expect(error?.description == "1:7: error: expected Double at n, found number \(text) (does not fit Double)")
    }

    @Test(arguments: ["1e39", "-1e39", "3.5e38", "1e400"])
    func floatOverflowIsRefused(_ text: String) {
        let error = Self.refusal(text, as: Float.self, reason: "does not fit Float")
        #expect(error?.description == "1:7: error: expected Float at n, found number \(text) (does not fit Float)")
    }

    /// Underflow follows swift-foundation's `JSONDecoder`: a non-zero number that would become
    /// 0 is refused, one that becomes a subnormal value is kept.
    @Test func underflowToZeroIsRefusedButSubnormalsAreKept() throws {
        _ = Self.refusal("1e-400", as: Double.self, reason: "does not fit Double")
        _ = Self.refusal("-2e-324", as: Double.self, reason: "does not fit Double")
        _ = Self.refusal("1e-50", as: Float.self, reason: "does not fit Float")
        _ = Self.refusal("1e-46", as: Float.self, reason: "does not fit Float")
        #expect(try Self.decode("4.9e-324", as: Double.self) == .leastNonzeroMagnitude)
        #expect(try Self.decode("1e-45", as: Float.self) == .leastNonzeroMagnitude)
        #expect(try Self.decode("0e-400", as: Double.self) == 0)
        #expect(try Self.decode("-0.0e-999", as: Double.self).sign == .minus)
        #expect(try Self.decode("0.000e5", as: Float.self) == 0)
    }

    @Test func largestFiniteValuesAreKept() throws {
        #expect(try Self.decode("1.7976931348623157e308", as: Double.self) == .greatestFiniteMagnitude)
        #expect(try Self.decode("3.4028235e38", as: Float.self) == .greatestFiniteMagnitude)
        #expect(try Self.decode("-3.40282356e38", as: Float.self) == -.greatestFiniteMagnitude)  // rounds down
        #expect(try Self.decode("16777217", as: Float.self) == 16_777_216)  // rounded, as documented
        #expect(try Self.decode("0.1", as: Float.self) == Float(0.1))
    }

    // MARK: - Decimal

    @Test(arguments: [
        "99999999999999999999999999999999999999",  // 38 nines
        "340282366920938463463374607431768211455",  // the largest 128-bit significand
        "-340282366920938463463374607431768211455",
        "3.14159265358979323846264338327950288419",
        "1e127", "1e128", "1e165", "3.4e165", "1e-128", "10e-129", "-100e-130",
        "123456789012345678901234567890123456789e-128",
        "0.1", "-0", "-0.0", "0e999", "0e-999999999",
    ])
    func exactDecimals(_ text: String) throws {
        let value = try Self.decode(text, as: Decimal.self)
        #expect(value.description == Self.plainDecimal(text))
    }

    @Test func trailingZerosAreExact() throws {
        let zeros = String(repeating: "0", count: 200)
        var options = JSONParsingOptions()
        options.maxNumberLength = 10_000
        #expect(try Self.decode("1.\(zeros)", as: Decimal.self, options: options) == 1)
        #expect(try Self.decode("1\(zeros.prefix(100))", as: Decimal.self, options: options).description == "1" + zeros.prefix(100))
        #expect(try Self.decode("0.\(zeros)1e202", as: Decimal.self, options: options) == 10)
        #expect(try Self.decode("12.5\(zeros)e-2", as: Decimal.self, options: options).description == "0.125")
    }

    @Test(arguments: [
        String(repeating: "9", count: 39),
        "340282366920938463463374607431768211456",  // one past the largest significand
        "3.40282366920938463463374607431768211456",
        "3402823669.20938463463374607431768211456",
        "1e166", "3.5e165", "1e-129", "1.5e-128", "-12e-129", "1e400", "-1e-400",
    ])
    func inexactDecimalsAreRefused(_ text: String) {
        let error = Self.refusal(text, as: Decimal.self, reason: "does not fit Decimal exactly")
        #expect(error?.description == "1:7: error: expected Decimal at n, found number \(text) (does not fit Decimal exactly)")
    }

    /// The number in plain decimal notation, as `Decimal.description` writes it: no exponent,
    /// no leading zeros, no trailing zeros after the point; "0" for zero.
    static func plainDecimal(_ text: String) -> String {
        let lower = text.lowercased()
        let parts = lower.split(separator: "e", maxSplits: 1).map(String.init)
        var exponent = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        let negative = parts[0].hasPrefix("-")
        var digits = parts[0].filter { $0 != "-" }
        if let point = digits.firstIndex(of: ".") {
            exponent -= digits.distance(from: point, to: digits.endIndex) - 1
            digits.remove(at: point)
        }
        // value = digits × 10^exponent
        while digits.hasPrefix("0") { digits.removeFirst() }
        if digits.isEmpty { return "0" }
        while digits.hasSuffix("0") {
            digits.removeLast()
            exponent += 1
        }
        var plain: String
        if exponent >= 0 {
            plain = digits + String(repeating: "0", count: exponent)
        } else if -exponent < digits.count {
            plain = String(digits.dropLast(-exponent)) + "." + String(digits.suffix(-exponent))
        } else {
            plain = "0." + String(repeating: "0", count: -exponent - digits.count) + digits
        }
        return (negative ? "-" : "") + plain
    }
}
