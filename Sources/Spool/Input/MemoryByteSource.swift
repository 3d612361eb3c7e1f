#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Serves bytes already in memory, one chunk at a time, so in-memory input goes through
/// exactly the same path (and gives exactly the same tokens and errors) as a file. It reads
/// straight from the caller's `[UInt8]` or `Data`, without a copy of the whole input.
final class MemoryByteSource<Bytes: ContiguousBytes>: ByteSource {
    let name = "<memory>"
    var isInMemory: Bool { true }
    private let bytes: Bytes
    let totalSize: Int?
    private var offset = 0

    init(_ bytes: Bytes) {
        self.bytes = bytes
        totalSize = bytes.withUnsafeBytes { $0.count }
    }

    func withWholeInput<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R? {
        bytes.withUnsafeBytes(body)
    }

    func rewind() -> Bool {
        offset = 0
        return true
    }

    func skip(_ count: Int) throws(InputError) -> Int {
        let skipped = max(0, min(count, (totalSize ?? 0) - offset))
        offset += skipped
        return skipped
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        bytes.withUnsafeBytes { source in
            let count = min(buffer.count, source.count - offset)
            guard count > 0, let destination = buffer.baseAddress, let start = source.baseAddress else { return 0 }
            destination.copyMemory(from: start + offset, byteCount: count)
            offset += count
            return count
        }
    }
}
