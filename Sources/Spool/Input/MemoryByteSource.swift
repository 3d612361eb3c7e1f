#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Serves bytes already in memory, one chunk at a time, so in-memory input goes through
/// exactly the same path (and gives exactly the same tokens and errors) as a file. It reads
/// straight from the caller's `[UInt8]` or `Data`, without a copy of the whole input.
///
/// (Not generic over the bytes' type: the metadata of `MemoryByteSource<Data>` would be found
/// by its mangled name, whose `Data: ContiguousBytes` the runtime checks by scanning every
/// conformance record the first time in a process, about 250,000 instructions.)
final class MemoryByteSource: ByteSource {
    let name = "<memory>"
    var isInMemory: Bool { true }
    private let bytes: Bytes
    let totalSize: Int?
    private var offset = 0

    /// The bytes, as the caller gave them.
    private enum Bytes {
        case array([UInt8])
        case data(Data)

        func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
            switch self {
            case .array(let bytes): try bytes.withUnsafeBytes(body)
            case .data(let data): try data.withUnsafeBytes(body)
            }
        }
    }

    init(_ bytes: [UInt8]) {
        self.bytes = .array(bytes)
        totalSize = bytes.count
    }

    init(_ data: Data) {
        bytes = .data(data)
        totalSize = data.count
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
