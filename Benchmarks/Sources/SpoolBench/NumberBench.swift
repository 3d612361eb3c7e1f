@_spi(Testing) import Spool

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `numbers COUNT`: COUNT random number texts converted to `Double` and to `Float` the old way
/// (a `String` per number, then `Double(String)`/`Float(String)`, i.e. `strtod`/`strtof`, and
/// the range check) and the new (Spool's own parser, DecimalToBinary), alternately, in five
/// rounds; prints each way's median nanoseconds per number and checks that both agree.
///
/// The texts, a quarter of each shape: coordinates like canada.json's (`-65.613616999999977`:
/// 2-3 integral digits, 12-15 fractional), short decimals (`12.75`), integers of up to 12
/// digits, and numbers with an exponent (`6.02214076e23`, `-1.5E-7`: 1-17 digits, -300...300).
func benchmarkNumbers(count: Int) {
    var random = SplitMix64(state: 42)
    var bytes: [UInt8] = []
    var ends: [Int] = []
    for _ in 0..<count {
        bytes.append(contentsOf: randomNumberText(&random).utf8)
        ends.append(bytes.count)
    }
    let texts = (bytes: bytes, ends: ends)

    // The old conversion, as NumberText had it: a String, Swift's conversion, the range check.
    func oldWay<F: BinaryFloatingPoint & LosslessStringConvertible>(_ text: UnsafeBufferPointer<UInt8>, _: F.Type) -> F? {
        guard let value = F(String(decoding: text, as: UTF8.self)), value.isFinite else { return nil }
        return value != 0 || !text.contains(where: { (UInt8(ascii: "1")...UInt8(ascii: "9")).contains($0) }) ? value : nil
    }
    let ways: [(name: String, run: (UnsafeBufferPointer<UInt8>) -> UInt64)] = [
        ("Double, old: Double(String)", { oldWay($0, Double.self)?.bitPattern ?? 1 }),
        ("Double, new: NumberText.double", { NumberConversion.double($0)?.bitPattern ?? 1 }),
        ("Float, old: Float(String)", { UInt64(oldWay($0, Float.self)?.bitPattern ?? 1) }),
        ("Float, new: NumberText.float", { UInt64(NumberConversion.float($0)?.bitPattern ?? 1) }),
    ]
    var times = Array(repeating: [Double](), count: ways.count)
    var checksums = Array(repeating: UInt64(0), count: ways.count)
    let clock = ContinuousClock()
    for _ in 0..<5 {
        for (w, way) in ways.enumerated() {
            var checksum: UInt64 = 0
            let elapsed = clock.measure {
                texts.bytes.withUnsafeBufferPointer { all in
                    var start = 0
                    for end in texts.ends {
                        checksum = checksum &* 31 &+ way.run(UnsafeBufferPointer(rebasing: all[start..<end]))
                        start = end
                    }
                }
            }
            times[w].append(Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9)
            checksums[w] = checksum
        }
    }
    print("\(count) random number texts (\(bytes.count) bytes), median of 5 alternating rounds:")
    for (w, way) in ways.enumerated() {
        let median = times[w].sorted()[2]
        print("  \(way.name.padding(toLength: 32, withPad: " ", startingAt: 0)) \(String(format: "%7.1f", median / Double(count))) ns/number")
    }
    for pair in [(0, 1), (2, 3)] {
        let ratio = times[pair.0].sorted()[2] / times[pair.1].sorted()[2]
        print("  \(ways[pair.1].name): \(String(format: "%.1f", ratio))x faster, results \(checksums[pair.0] == checksums[pair.1] ? "identical" : "DIFFERENT")")
    }
    if checksums[0] != checksums[1] || checksums[2] != checksums[3] {
        texts.bytes.withUnsafeBufferPointer { all in
            var start = 0
            for end in texts.ends {
                let text = UnsafeBufferPointer(rebasing: all[start..<end])
                for pair in [(0, 1), (2, 3)] where ways[pair.0].run(text) != ways[pair.1].run(text) {
                    print("  differ: \(String(decoding: text, as: UTF8.self)) (\(ways[pair.0].name) / \(ways[pair.1].name))")
                }
                start = end
            }
        }
        fail("numbers: old and new conversions differ", code: 1)
    }
}

/// One random number text (see ``benchmarkNumbers(count:)``).
func randomNumberText(_ random: inout SplitMix64) -> String {
    func digits(_ n: Int) -> String {
        String((0..<n).map { _ in Character(Unicode.Scalar(UInt8(ascii: "0") + UInt8.random(in: 0...9, using: &random))) })
    }
    func leading() -> String { "\(Int.random(in: 1...9, using: &random))" }
    let sign = Bool.random(using: &random) ? "-" : ""
    switch Int.random(in: 0..<4, using: &random) {
    case 0: return sign + leading() + digits(Int.random(in: 1...2, using: &random)) + "." + digits(Int.random(in: 12...15, using: &random))
    case 1: return sign + leading() + digits(Int.random(in: 0...2, using: &random)) + "." + digits(Int.random(in: 1...3, using: &random))
    case 2: return sign + leading() + digits(Int.random(in: 0...11, using: &random))
    default:
        let fraction = digits(Int.random(in: 0...16, using: &random))
        let significand = leading() + (fraction.isEmpty ? "" : "." + fraction)
        return sign + significand + (Bool.random(using: &random) ? "e" : "E") + "\(Int.random(in: -300...300, using: &random))"
    }
}

/// SplitMix64: a small seeded generator, the same texts on every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
