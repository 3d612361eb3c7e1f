/// The element pre-scan (`ElementScanner`, internal) for the benchmarks, which time it on files.
///
/// Not API: `@_spi(Testing)`, and it may change or go at any time.
@_spi(Testing) public enum ElementScanBenchmark {
    /// Scans `bytes` for the elements of the array at `path` (for the top-level values of
    /// NDJSON when `path` is nil), `chunkSize` bytes at a time, with the block loop (`vector`)
    /// or the byte loop: the number of elements, the sum of their lengths, and the doubt (nil
    /// when the document was complete and valid as far as the scan looks), or nil for a path
    /// with a wildcard.
    public static func scan(
        _ bytes: UnsafeRawBufferPointer, at path: JSONKeyPath?, vector: Bool, chunkSize: Int
    ) -> (elements: Int, elementBytes: Int, doubt: String?)? {
        let implementation: ElementScanner.Implementation = vector ? .blocks : .bytes
        let made = path.map { ElementScanner(path: $0, implementation: implementation) } ?? ElementScanner(topLevelValues: implementation)
        guard var scanner = made else { return nil }
        var boundaries: [Range<Int>] = []
        boundaries.reserveCapacity(4096)
        var elementBytes = 0
        var start = 0
        let size = max(1, chunkSize)
        while start < bytes.count {
            let end = min(bytes.count, start + size)
            scanner.scan(UnsafeRawBufferPointer(rebasing: bytes[start..<end]), into: &boundaries)
            for boundary in boundaries { elementBytes &+= boundary.count }
            boundaries.removeAll(keepingCapacity: true)
            start = end
        }
        scanner.finish(into: &boundaries)
        return (scanner.elementCount, elementBytes, scanner.doubt?.description)
    }
}
