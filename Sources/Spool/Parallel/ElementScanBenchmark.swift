/// The element pre-scan (`ElementScanner`, internal) for the benchmarks, which time it on
/// files, and for the fuzz target that checks it against the serial parser.
///
/// Not API: `@_spi(Testing)`, and it may change or go at any time.
@_spi(Testing) public enum ElementScanBenchmark {
    /// The names of the C shim's mask paths this CPU runs, narrowest first (`sse2`, `avx2`,
    /// `avx512`; none off x86-64), for ``scan(_:at:vector:vectorPath:chunkSize:)``.
    public static var vectorPaths: [String] { VectorBlockMasks.runnable.map { "\($0)" } }

    /// Scans `bytes` for the elements of the array at `path` (for the top-level values of
    /// NDJSON when `path` is nil), `chunkSize` bytes at a time, with the block loop (`vector`)
    /// or the byte loop: the number of elements, the sum of their lengths, and the doubt (nil
    /// when the document was complete and valid as far as the scan looks), or nil for a path
    /// with a wildcard or a `vectorPath` not in ``vectorPaths`` (nil: the CPU's widest).
    public static func scan(
        _ bytes: UnsafeRawBufferPointer, at path: JSONKeyPath?, vector: Bool, vectorPath: String? = nil, chunkSize: Int
    ) -> (elements: Int, elementBytes: Int, doubt: String?)? {
        guard let chosen = maskPath(named: vectorPath) else { return nil }
        var elementBytes = 0
        let outcome = run(bytes, at: path, vector: vector, vectorPath: chosen, chunkSize: chunkSize) { boundary in elementBytes &+= boundary.count }
        return outcome.map { ($0.elements, elementBytes, $0.doubt?.description) }
    }

    /// Scans as ``scan(_:at:vector:vectorPath:chunkSize:)`` does: every boundary reported (`[start, end)`
    /// byte offsets of an element), and the doubt's byte offset and description, or nil for a
    /// path with a wildcard or a `vectorPath` not in ``vectorPaths``.
    public static func boundaries(
        _ bytes: UnsafeRawBufferPointer, at path: JSONKeyPath?, vector: Bool, vectorPath: String? = nil, chunkSize: Int
    ) -> (boundaries: [Range<Int>], doubtOffset: Int?, doubt: String?)? {
        guard let chosen = maskPath(named: vectorPath) else { return nil }
        var boundaries: [Range<Int>] = []
        let outcome = run(bytes, at: path, vector: vector, vectorPath: chosen, chunkSize: chunkSize) { boundaries.append($0) }
        return outcome.map { (boundaries, $0.doubt?.offset, $0.doubt?.description) }
    }

    /// The path named `name` if the CPU runs it; the widest for nil.
    private static func maskPath(named name: String?) -> VectorBlockMasks.Path? {
        guard let name else { return VectorBlockMasks.fastest }
        return VectorBlockMasks.runnable.first { "\($0)" == name }
    }

    /// Feeds `bytes` to a scanner `chunkSize` bytes at a time, handing `body` each boundary.
    private static func run(
        _ bytes: UnsafeRawBufferPointer, at path: JSONKeyPath?, vector: Bool, vectorPath: VectorBlockMasks.Path, chunkSize: Int,
        _ body: (Range<Int>) -> Void
    ) -> (elements: Int, doubt: ScanDoubt?)? {
        let implementation: ElementScanner.Implementation = vector ? .blocks : .bytes
        let made = path.map { ElementScanner(path: $0, implementation: implementation) } ?? ElementScanner(topLevelValues: implementation)
        guard var scanner = made else { return nil }
        scanner.vectorPath = vectorPath
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
