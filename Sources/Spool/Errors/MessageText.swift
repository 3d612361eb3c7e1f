#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An error message put together as UTF-8 bytes, made a `String` once at the end.
///
/// Each `+=` on a `String` costs about 280 instructions; a message about a refused value takes
/// a dozen pieces, and a `try?` fallback (`if let n = try? c.decode(Int.self) … else …`)
/// pays for one message per element it refuses. Appending copies the piece's bytes into a
/// buffer of its own, inline up to 128 bytes (an `[UInt8]` measured 400 instructions per
/// piece through the generic `append(contentsOf:)`, and an allocation per message).
struct MessageText: ~Copyable {
    /// The first bytes, in the value itself: most messages fit, and need no allocation.
    private var inline: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                         UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    private static let inlineCapacity = 128
    /// The bytes once they outgrow ``inline``.
    private var heap: UnsafeMutablePointer<UInt8>?
    private var count = 0
    private var capacity = MessageText.inlineCapacity

    /// A message expected to take about `capacity` bytes (it grows as needed).
    init(capacity: Int = 96) {
        if capacity > Self.inlineCapacity { grow(to: capacity) }
    }

    deinit {
        heap?.deallocate()
    }

    /// Runs `body` with the whole buffer, `capacity` bytes.
    @inline(__always)
    private mutating func withBuffer<T>(_ body: (UnsafeMutableRawBufferPointer) -> T) -> T {
        if let heap { return body(UnsafeMutableRawBufferPointer(start: heap, count: capacity)) }
        return withUnsafeMutableBytes(of: &inline, body)
    }

    /// Moves the bytes to the heap, with room for `needed` bytes.
    private mutating func grow(to needed: Int) {
        var grown = capacity &* 2
        while grown < needed { grown &*= 2 }
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        let count = count
        withBuffer { UnsafeMutableRawBufferPointer(start: moved, count: grown).copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        heap?.deallocate()
        heap = moved
        capacity = grown
    }

    private mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        let end = count &+ bytes.count
        if end > capacity { grow(to: end) }
        let count = count
        withBuffer { UnsafeMutableRawBufferPointer(rebasing: $0[count..<end]).copyMemory(from: bytes) }
        self.count = end
    }

    /// A piece of text. (Disfavoured, so that a literal piece is a `StaticString`, whose bytes
    /// are read in place, with no check of the string's representation.)
    @_disfavoredOverload
    mutating func append(_ piece: String) {
        if let done: Void = piece.utf8.withContiguousStorageIfAvailable({ append(UnsafeRawBufferPointer($0)) }) {
            return done
        }
        var piece = piece  // (a bridged string: made native to be read in place)
        piece.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    mutating func append(_ piece: StaticString) {
        append(UnsafeRawBufferPointer(start: piece.utf8Start, count: piece.utf8CodeUnitCount))
    }

    mutating func append(byte: UInt8) {
        withUnsafeBytes(of: byte) { append($0) }
    }

    /// A decimal number.
    mutating func append(_ number: Int) {
        if number < 0 { append(byte: UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: enough for 20 digits
        var length = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[23 - length] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
                length += 1
            } while magnitude > 0
            append(UnsafeRawBufferPointer(rebasing: buffer[(24 - length)...]))
        }
    }

    var text: String {
        if let heap { return String(decoding: UnsafeBufferPointer(start: heap, count: count), as: UTF8.self) }
        return withUnsafeBytes(of: inline) { String(decoding: UnsafeRawBufferPointer(rebasing: $0[..<count]), as: UTF8.self) }
    }
}
