@_spi(Testing) import Spool
import FuzzSupport

#if canImport(Glibc)
import Glibc
#endif

/// Differential fuzzing of Spool's float parser (`DecimalToBinary`, through the testing SPI
/// `NumberConversion`) against the C library: for a JSON number text, `double` must give
/// `strtod`'s bits and `float` `strtof`'s (signed zeros included), and nil exactly when the C
/// result is out of range: infinite, or 0 for a number with a non-zero digit. Decoding the
/// text as a one-number document (`Double.decodeValue(from:)`, `Float.decodeValue(from:)`)
/// must give the same value, or a type mismatch where the parser gives nil: checked on every
/// eighth input (the first one included, so a replayed input is checked), since parsing a
/// document takes three times as long as the rest.
///
/// The input is the number text itself when it is one (strict JSON syntax). Any other input is
/// turned into one (``numberText(from:)``), so no input is wasted:
/// - byte 0: bit 0 a minus sign; bit 1 a fraction; bit 2 an exponent, bit 3 negating it, bit 4
///   a `+` written before a positive one, bit 5 `E` instead of `e`, bits 6-7 leading zeros in it;
/// - bytes 1-2: the exponent, big-endian: below 0x8000, taken modulo 700 and centred
///   (-350...349, the range where `Double`'s answers change); otherwise its low 15 bits;
/// - byte 3: where the point goes among the digits;
/// - the rest: the digits, each byte modulo 10 (at least one digit).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNumber(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    check(isJSONNumber(input) ? input : numberText(from: input), decoding: inputsSeen % 8 == 0)
    inputsSeen += 1
    return 0
}

/// Inputs checked so far (libFuzzer calls the target on one thread).
nonisolated(unsafe) var inputsSeen = 0

/// Options that let a one-number document hold any text the fuzzer makes.
let longNumbers: JSONParsingOptions = {
    var options = JSONParsingOptions()
    options.maxNumberLength = 1 << 20
    return options
}()

/// Compares Spool with the C library on `text`, and when `decoding`, the public decoding path
/// with the parser.
func check(_ text: [UInt8], decoding: Bool) {
    let shown = FuzzInput.show(text)
    let nonZero = text.prefix { $0 | 0x20 != UInt8(ascii: "e") }.contains { $0 >= UInt8(ascii: "1") && $0 <= UInt8(ascii: "9") }
    let cText = text.map { CChar(bitPattern: $0) } + [0]

    let c = strtod(cText, nil)
    let expected = c.isFinite && (c != 0 || !nonZero) ? c : nil
    let actual = text.withUnsafeBufferPointer { NumberConversion.double($0) }
    if actual?.bitPattern != expected?.bitPattern {
        disagree("Double from \(shown): Spool \(String(describing: actual)), strtod \(c)")
    }
    let cFloat = strtof(cText, nil)
    let expectedFloat = cFloat.isFinite && (cFloat != 0 || !nonZero) ? cFloat : nil
    let actualFloat = text.withUnsafeBufferPointer { NumberConversion.float($0) }
    if actualFloat?.bitPattern != expectedFloat?.bitPattern {
        disagree("Float from \(shown): Spool \(String(describing: actualFloat)), strtof \(cFloat)")
    }

    if decoding {
        decodesAlike(Double.self, text, actual, shown)
        decodesAlike(Float.self, text, actualFloat, shown)
    }
}

/// `T.decodeValue(from: text)` gives `value`, or a type mismatch where `value` is nil.
func decodesAlike<T: JSONDecodable & BinaryFloatingPoint>(_ type: T.Type, _ text: [UInt8], _ value: T?, _ shown: String) {
    do {
        let decoded = try T.decodeValue(from: .bytes(text), options: longNumbers)
        guard let value, decoded == value, decoded.sign == value.sign else { disagree("\(T.self).decodeValue(from: \(shown)) is \(decoded), the parser's \(String(describing: value))") }
    } catch let error as DecodeError where error.code == .typeMismatch && value == nil {
        return
    } catch {
        disagree("\(T.self).decodeValue(from: \(shown)) threw \(error), the parser gives \(String(describing: value))")
    }
}

func disagree(_ what: String) -> Never {
    printError("SPOOL FUZZ DISAGREEMENT: \(what)")
    abort()
}

/// Whether `bytes` is exactly a JSON number: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
func isJSONNumber(_ bytes: [UInt8]) -> Bool {
    var i = 0
    func digits() -> Int {
        let start = i
        while i < bytes.count && bytes[i] >= UInt8(ascii: "0") && bytes[i] <= UInt8(ascii: "9") { i += 1 }
        return i - start
    }
    if i < bytes.count && bytes[i] == UInt8(ascii: "-") { i += 1 }
    let start = i
    let integral = digits()
    guard integral > 0, integral == 1 || bytes[start] != UInt8(ascii: "0") else { return false }
    if i < bytes.count && bytes[i] == UInt8(ascii: ".") {
        i += 1
        guard digits() > 0 else { return false }
    }
    if i < bytes.count && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
        i += 1
        if i < bytes.count && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) { i += 1 }
        guard digits() > 0 else { return false }
    }
    return i == bytes.count
}

/// A JSON number made from any bytes (see ``fuzzNumber(_:_:)``).
func numberText(from bytes: [UInt8]) -> [UInt8] {
    func byte(_ i: Int) -> UInt8 { i < bytes.count ? bytes[i] : 0 }
    let flags = byte(0)
    let written = Int(byte(1)) << 8 | Int(byte(2))
    let exponent = written < 0x8000 ? written % 700 - 350 : written & 0x7FFF
    var digits = bytes.dropFirst(4).map { UInt8(ascii: "0") + $0 % 10 }
    if digits.isEmpty { digits = [UInt8(ascii: "0")] }
    // The point: after at least one digit and before at least one.
    var integral = digits[...]
    var fraction: ArraySlice<UInt8> = []
    if flags & 2 != 0 && digits.count > 1 {
        let point = 1 + Int(byte(3)) % (digits.count - 1)
        integral = digits[..<point]
        fraction = digits[point...]
    }
    // No leading zeros in the integral part (JSON): they move to the fraction's side as "0.".
    while integral.count > 1 && integral.first == UInt8(ascii: "0") { integral = integral.dropFirst() }
    var text: [UInt8] = flags & 1 != 0 ? [UInt8(ascii: "-")] : []
    text += integral
    if !fraction.isEmpty { text += [UInt8(ascii: ".")] + fraction }
    if flags & 4 != 0 {
        text.append(flags & 0x20 != 0 ? UInt8(ascii: "E") : UInt8(ascii: "e"))
        let power = flags & 8 != 0 ? -exponent : exponent
        if power < 0 {
            text.append(UInt8(ascii: "-"))
        } else if flags & 0x10 != 0 {
            text.append(UInt8(ascii: "+"))
        }
        text += Array(repeating: UInt8(ascii: "0"), count: Int(flags >> 6))
        text += Array(String(abs(power)).utf8)
    }
    return text
}
