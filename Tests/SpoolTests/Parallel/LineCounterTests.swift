import Testing
@testable import Spool

/// ``LineCounter`` against a byte-by-byte count, over chunks and steps of every size.
@Suite("Line counter")
struct LineCounterTests {
    /// The line and the start of the line holding `offset`, counted byte by byte.
    static func reference(_ bytes: [UInt8], _ offset: Int) -> (line: Int, lineStart: Int) {
        var line = 1
        var lineStart = 0
        for index in 0..<offset where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        return (line, lineStart)
    }

    @Test(arguments: [1, 7, 8, 9, 64, 1000])
    func countsAsAByteLoopDoes(_ chunkSize: Int) {
        var generator = SplitMix(seed: UInt64(chunkSize))
        // Line feeds alone, in runs, and among bytes that differ from 0x0A by one bit or carry.
        let alphabet: [UInt8] = [0x0A, 0x0A, 0x0B, 0x09, 0x8A, 0x0E, 0x2A, 0x7F, 0xFF, 0x00, 0x41]
        let bytes = (0..<3000).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
        var counter = LineCounter()
        var base = 0
        while base < bytes.count {
            let chunk = Array(bytes[base..<min(base + chunkSize, bytes.count)])
            chunk.withUnsafeBytes { raw in
                var target = max(counter.offset, base)
                while target <= base + raw.count {
                    let location = counter.location(of: target, in: raw, base: base)
                    let expected = Self.reference(bytes, target)
                    #expect(location?.line == expected.line && location?.column == target - expected.lineStart + 1, "at \(target)")
                    target += Int(generator.next() % 13)
                    if generator.next() % 4 == 0 { break }
                }
                counter.advance(to: base + raw.count, in: raw, base: base)
            }
            base += chunkSize
        }
        #expect(counter.line == Self.reference(bytes, bytes.count).line)
    }

    /// Runs long enough for the byte counters to be summed several times (every 63 steps of
    /// 64 bytes), with every lane counting at every step.
    @Test(arguments: [0.0, 0.5, 1.0])
    func countsLongRunsExactly(_ share: Double) {
        var generator = SplitMix(seed: 11)
        let bytes = (0..<100_003).map { _ in Double(generator.next() % 1000) < share * 1000 ? UInt8(0x0A) : UInt8(0x0B) }
        bytes.withUnsafeBytes { raw in
            for (start, end) in [(0, raw.count), (1, raw.count - 1), (4031, 4033 + 64 * 63), (7, 7)] {
                let counted = LineCounter.count(raw.baseAddress! + start, end - start)
                #expect(counted == bytes[start..<end].filter { $0 == 0x0A }.count)
                let last = LineCounter.lastLineFeed(raw.baseAddress!, from: start, to: end)
                #expect(last == bytes[start..<end].lastIndex(of: 0x0A))
            }
        }
    }
}
