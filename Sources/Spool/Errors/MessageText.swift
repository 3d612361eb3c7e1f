/// An error message put together as UTF-8 bytes, made a `String` once at the end.
///
/// Each `+=` on a `String` costs about 280 instructions; a message about a refused value takes
/// a dozen pieces, and a `try?` fallback (`if let n = try? c.decode(Int.self) … else …`)
/// pays for one message per element it refuses. Appending bytes costs a copy.
struct MessageText {
    private var bytes: [UInt8] = []

    init(capacity: Int = 96) {
        bytes.reserveCapacity(capacity)
    }

    mutating func append(_ piece: String) {
        var piece = piece
        piece.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ piece: StaticString) {
        piece.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// A decimal number.
    mutating func append(_ number: Int) {
        if number < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: enough for 20 digits
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[23 - count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            bytes.append(contentsOf: buffer[(24 - count)...])
        }
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }
}
