@testable import Spool
import Testing

/// The member lookup compares keys up to 16 bytes as overlapping words read from each end:
/// every length from 0 to 40, against a key differing in any one byte, or only in length.
@Suite("Key comparison")
struct KeyComparisonTests {
    @Test(arguments: 0...40)
    func keysAreEqualExactlyWhenTheirBytesAre(_ count: Int) {
        let key = (0..<count).map { UInt8(97 + $0 % 26) }
        key.withUnsafeBufferPointer { a in
            let same = Array(key)
            same.withUnsafeBufferPointer { b in #expect(KeyComparison.equal(a, b)) }
            for position in 0..<count {
                var other = key
                other[position] ^= 0x20
                other.withUnsafeBufferPointer { b in #expect(!KeyComparison.equal(a, b), "byte \(position) of \(count)") }
            }
            let longer = key + [UInt8(ascii: "x")]
            longer.withUnsafeBufferPointer { b in #expect(!KeyComparison.equal(a, b)) }
            if count > 0 {
                Array(key.dropLast()).withUnsafeBufferPointer { b in #expect(!KeyComparison.equal(a, b)) }
            }
        }
    }
}
