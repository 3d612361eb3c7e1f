/// The element pre-scan (`ElementScanner`, internal) for the benchmarks, which time it on
/// files, and for the fuzz target that checks it against the serial parser.
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
        var elementBytes = 0
        let outcome = run(bytes, at: path, vector: vector, chunkSize: chunkSize) { boundary in elementBytes &+= boundary.count }
        return outcome.map { ($0.elements, elementBytes, $0.doubt?.description) }
    }

    /// Scans as ``scan(_:at:vector:chunkSize:)`` does: every boundary reported (`[start, end)`
    /// byte offsets of an element), and the doubt's byte offset and description, or nil for a
    /// path with a wildcard.
    public static func boundaries(
        _ bytes: UnsafeRawBufferPointer, at path: JSONKeyPath?, vector: Bool, chunkSize: Int
    ) -> (boundaries: [Range<Int>], doubtOffset: Int?, doubt: String?)? {
        var boundaries: [Range<Int>] = []
        let outcome = run(bytes, at: path, vector: vector, chunkSize: chunkSize) { boundaries.append($0) }
        return outcome.map { (boundaries, $0.doubt?.offset, $0.doubt?.description) }
    }

    /// Feeds `bytes` to a scanner `chunkSize` bytes at a time, handing `body` each boundary.
    private static func run(
        _ bytes: UnsafeRawBufferPointer, at path: JSONKeyPath?, vector: Bool, chunkSize: Int, _ body: (Range<Int>) -> Void
    ) -> (elements: Int, doubt: ScanDoubt?)? {
        let implementation: ElementScanner.Implementation = vector ? .blocks : .bytes
        let made = path.map { ElementScanner(path: $0, implementation: implementation) } ?? ElementScanner(topLevelValues: implementation)
        guard var scanner = made else { return nil }
        var boundaries: [Range<Int>] = []
        boundaries.reserveCapacity(4096)
        var start = 0
        let size = max(1, chunkSize)
        while start < bytes.count {
            let end = min(bytes.count, start + size)
            scanner.scan(UnsafeRawBufferPointer(rebasing: bytes[start..<end]), into: &boundaries)
            boundaries.forEach(body)
            boundaries.removeAll(keepingCapacity: true)
            start = end
        }
        scanner.finish(into: &boundaries)
        boundaries.forEach(body)
        return (scanner.elementCount, scanner.doubt)
    }
}
