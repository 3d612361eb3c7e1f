@_spi(Testing) import Spool

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `scan-simd PATH FILE [CHUNK]`, `scan-scalar PATH FILE [CHUNK]`: the element pre-scan of the
/// parallel pipeline (issue 25), blocks of SIMD masks or the byte loop, over FILE read into
/// memory first (not timed), CHUNK bytes at a time (default: the whole file in one chunk).
/// PATH `--ndjson` scans for the top-level values of NDJSON instead of an array's elements.
/// `scan-sse2`, `scan-avx2`, `scan-avx512` are `scan-simd` with those masks (where the CPU runs
/// them), not the CPU's widest.
/// Prints the elements found, the bytes, the scan's seconds and GB/s (10^9 bytes a second).
/// `scan-read PATH FILE` only reads the file: the baseline that callgrind counts are taken
/// from (instructions of `scan-simd` minus those of `scan-read`, over the file's bytes).
func runScanMode(_ mode: String, _ arguments: [String]) {
    let path: JSONKeyPath?? = arguments.first == "--ndjson" ? .some(nil) : arguments.first.flatMap { try? JSONKeyPath(parsing: $0) }
    guard arguments.count >= 2, let path else {
        fail("usage: spool-bench \(mode) PATH|--ndjson FILE [CHUNK]   (PATH as Spool prints it: objects, data.items, .)", code: 64)
    }
    let file = arguments[1]
    guard let bytes = readWholeFile(file) else { fail("\(mode): cannot read \(file)", code: 1) }
    let chunkSize = arguments.count > 2 ? Int(arguments[2]) ?? bytes.count : bytes.count
    if mode == "scan-read" {
        print("bytes \(bytes.count)")
        return
    }
    let masks = mode.hasPrefix("scan-avx") || mode == "scan-sse2" ? String(mode.dropFirst("scan-".count)) : nil
    if let masks, !ElementScanBenchmark.vectorPaths.contains(masks) {
        fail("\(mode): this CPU runs \(ElementScanBenchmark.vectorPaths.joined(separator: ", ")), not \(masks)", code: 1)
    }
    let clock = ContinuousClock()
    let start = clock.now
    let result = bytes.withUnsafeBytes {
        ElementScanBenchmark.scan($0, at: path, vector: mode != "scan-scalar", vectorPath: masks, chunkSize: max(1, chunkSize))
    }
    let elapsed = clock.now - start
    guard let result else { fail("\(mode): a path with a wildcard", code: 64) }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let rate = Double(bytes.count) / seconds / 1e9
    print("elements \(result.elements) bytes \(bytes.count) seconds \(seconds) GB/s \(rate)"
        + (result.doubt.map { " doubt \($0)" } ?? ""))
}

/// The bytes of the file at `path`, read with read(2).
private func readWholeFile(_ path: String) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 { return nil }
        if count == 0 { return bytes }
        bytes.append(contentsOf: buffer[0..<count])
    }
}
