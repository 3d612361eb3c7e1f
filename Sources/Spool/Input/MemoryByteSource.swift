/// Serves bytes already in memory, one chunk at a time, so in-memory input goes through
/// exactly the same path (and gives exactly the same tokens and errors) as a file.
final class MemoryByteSource: ByteSource {
    let name = "<memory>"
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var totalSize: Int? { bytes.count }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        let count = min(buffer.count, bytes.count - offset)
        guard count > 0, let destination = buffer.baseAddress else { return 0 }
        bytes.withUnsafeBytes { source in
            if let start = source.baseAddress {
                destination.copyMemory(from: start + offset, byteCount: count)
            }
        }
        offset += count
        return count
    }
}
