#if canImport(Glibc)
import Glibc
#endif
import FuzzSupport
@_spi(Testing) import Spool

/// Differential fuzzing of the element pre-scan of the parallel pipeline (`ElementScanner`,
/// reached through the testing SPI ``ElementScanBenchmark``) against the serial parser. The
/// first byte holds the path (bits 0-1: the root array, `objects`, `a[1]`, or the top-level
/// values of NDJSON) and a small chunk size (bits 2-4, 1 to 7 bytes); the rest is the input.
///
/// - The block loop and the byte loop, at five chunk sizes, report the same boundaries and
///   the same doubt; so do the blocks by each mask path the CPU runs (SSE2, AVX2, AVX-512BW).
/// - Every boundary is the serial parser's (`JSONStream`, `Located<JSONValue>` elements), or
///   ends after the serial parser's first error (or at it, when the input ends there); none
///   ends after the doubt.
/// - Valid input: exactly the serial parser's boundaries, or a prefix of them and a doubt.
/// - Each boundary the serial parser agrees with, parsed alone (as a worker will), gives the
///   serial parser's element.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScan(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let input = FuzzInput(data, size) else { return 0 }
    let paths: [JSONKeyPath?] = [.root, "objects", JSONKeyPath([.key("a"), .index(1)]), nil]
    let path = paths[Int(input.flags & 3)]
    let reference = ScanOutcome(input.bytes, at: path, vector: false, chunkSize: Int.max / 2)
    for vector in [false, true] {
        for chunkSize in [input.smallChunk, 63, 64, 65, Int.max / 2] {
            let outcome = ScanOutcome(input.bytes, at: path, vector: vector, chunkSize: chunkSize)
            if outcome != reference {
                fail("the \(vector ? "block" : "byte") loop in \(chunkSize)-byte chunks differs", input,
                     "\(outcome) against the byte loop in one chunk: \(reference)")
            }
        }
    }
    for masks in ElementScanBenchmark.vectorPaths {
        for chunkSize in [64, Int.max / 2] {
            let outcome = ScanOutcome(input.bytes, at: path, vector: true, vectorPath: masks, chunkSize: chunkSize)
            if outcome != reference {
                fail("the block loop with \(masks) masks in \(chunkSize)-byte chunks differs", input,
                     "\(outcome) against the byte loop in one chunk: \(reference)")
            }
        }
    }
    let serial = SerialElements(input.bytes, at: path)
    if let doubt = reference.doubtOffset, let last = reference.boundaries.last, last.upperBound > doubt {
        fail("a boundary ends after the doubt", input, "\(reference)")
    }
    guard let failure = serial.failure else {
        let expected = reference.doubtOffset == nil
            ? serial.boundaries : Array(serial.boundaries.prefix(reference.boundaries.count))
        if reference.boundaries != expected {
            fail("valid input, other boundaries than the serial parser's", input,
                 "\(reference) against \(serial.boundaries.prefix(8))")
        }
        checkSlices(input, reference, serial)
        return 0
    }
    for (index, boundary) in reference.boundaries.enumerated() {
        let trusted = index < serial.boundaries.count && serial.boundaries[index] == boundary
        // An error at the end of the input (a truncated last value) is held by the boundary
        // that ends there.
        let holdsTheEnd = failure == input.bytes.count && boundary.upperBound == failure
        if !trusted && !holdsTheEnd && boundary.upperBound <= failure {
            fail("boundary \(index) is neither the serial parser's nor after its error at \(failure)", input,
                 "\(reference) against \(serial.boundaries.prefix(8))")
        }
    }
    checkSlices(input, reference, serial)
    return 0
}

/// Each boundary the serial parser agrees with holds one whole value: parsed alone, it is the
/// serial parser's element.
func checkSlices(_ input: FuzzInput, _ scan: ScanOutcome, _ serial: SerialElements) {
    for (index, boundary) in scan.boundaries.enumerated() where index < serial.boundaries.count {
        guard serial.boundaries[index] == boundary else { continue }
        let slice = Array(input.bytes[boundary])
        do {
            let value = try JSONValue.decodeValue(from: .bytes(slice))
            if value != serial.values[index] {
                fail("element \(index) parsed alone differs", input, "\(value) against \(serial.values[index])")
            }
        } catch {
            fail("element \(index) does not parse alone", input, "\(FuzzInput.show(slice)): \(error)")
        }
    }
}

/// What one scan reported.
struct ScanOutcome: Equatable, CustomStringConvertible {
    var boundaries: [Range<Int>] = []
    var doubtOffset: Int?
    var doubt: String?

    init(_ bytes: [UInt8], at path: JSONKeyPath?, vector: Bool, vectorPath: String? = nil, chunkSize: Int) {
        let made = bytes.withUnsafeBytes {
            ElementScanBenchmark.boundaries($0, at: path, vector: vector, vectorPath: vectorPath, chunkSize: chunkSize)
        }
        guard let made else { return }
        boundaries = made.boundaries
        doubtOffset = made.doubtOffset
        doubt = made.doubt
    }

    var description: String { "\(boundaries.count) boundaries \(boundaries.prefix(8)), doubt: \(doubt ?? "none")" }
}

/// The elements the serial parser streams at the path (the top-level values for NDJSON), with
/// their byte ranges, and the byte offset of its first error, if any.
struct SerialElements {
    var boundaries: [Range<Int>] = []
    var values: [JSONValue] = []
    var failure: Int?

    init(_ bytes: [UInt8], at path: JSONKeyPath?) {
        var options = JSONParsingOptions()
        options.allowsMultipleValues = path == nil
        let stream = JSONStream(.bytes(bytes), options: options)
        let elements = stream.elements(of: Located<JSONValue>.self, at: path ?? .root)
        do {
            while let element = try elements.next() {
                let start = element.start.byteOffset
                boundaries.append(start..<(element.end?.byteOffset ?? Self.stringEnd(bytes, from: start)))
                values.append(element.value)
            }
            try stream.finish()
        } catch let error as ParseError {
            failure = error.location.byteOffset
        } catch let error as DecodeError {
            failure = error.location?.byteOffset ?? 0
        } catch {
            printError("the serial stream threw \(type(of: error)): \(error)")
            abort()
        }
    }

    /// One past the closing quote of the string that opens at `start` (a `Located` string has
    /// no end).
    static func stringEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\\") {
                index += 2
            } else if bytes[index] == UInt8(ascii: "\"") {
                return index + 1
            } else {
                index += 1
            }
        }
        return bytes.count
    }
}
