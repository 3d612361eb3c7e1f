#if canImport(Glibc)
import Glibc
#endif
import FuzzSupport
@_spi(Testing) import Spool

/// Differential fuzzing of the parallel elements engine (`elements(..., parallelism:)` and
/// `members(..., parallelism:)`) against the serial stream. The first byte holds the request
/// (bits 0-1: the root array's elements, `objects`' elements, `objects`' members, or the
/// top-level values of NDJSON), the batch
/// size (bits 2-4: 1 to 4,096 bytes, so that small inputs are cut into many batches), the
/// workers (bit 5: 2 or 3), the model (bit 6: ``JSONValue`` through `JSONDecodable`, or the
/// `Decodable` ``Tree`` through `StreamingJSONDecoder`) and the error policy (bit 7: `.skip`,
/// reporting each skipped element, or `.stop`); the rest is the input.
///
/// Both streams must give the same elements, with the same skip reports between the same
/// elements, then the same error (its description: message, line:column, path) after the same
/// count, then the same `finish()` and remainder.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParallel(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let input = FuzzInput(data, size) else { return 0 }
    let paths: [JSONKeyPath?] = [.root, "objects", "objects", nil]
    let path = paths[Int(input.flags & 3)]
    let members = input.flags & 3 == 2
    let batchBytes = [1, 2, 5, 16, 64, 200, 1000, 4096][Int((input.flags >> 2) & 7)]
    let workers = input.flags & 0x20 == 0 ? 2 : 3
    var options = JSONParsingOptions()
    options.allowsMultipleValues = path == nil
    options.maxDepth = 64
    options.maxStringLength = 300
    options.maxNumberLength = 100
    let codable = input.flags & 0x40 != 0
    let skips = input.flags & 0x80 != 0
    let serial = Run(
        input.bytes, at: path ?? .root, members: members, options: options, codable: codable, skips: skips, .serial, batchBytes: batchBytes)
    let parallel = Run(
        input.bytes, at: path ?? .root, members: members, options: options, codable: codable, skips: skips, .workers(workers),
        batchBytes: batchBytes)
    if parallel != serial {
        fail("\(workers) workers in batches of \(batchBytes) bytes differ from the serial stream", input,
             "parallel: \(parallel)\nserial:   \(serial)")
    }
    return 0
}

/// What one stream gave: its elements (or members), the error that ended them, its count, then
/// `finish()` and the remainder.
struct Run: Equatable, CustomStringConvertible {
    /// The members' keys.
    var keys: [String] = []
    var values: [JSONValue] = []
    var trees: [Tree] = []
    /// Each skipped element's report, after the number of elements before it.
    var skipped: [String] = []
    var error: String?
    var count = 0
    var finish = "ok"
    var remainder = ""

    init(
        _ bytes: [UInt8], at path: JSONKeyPath, members: Bool, options: JSONParsingOptions, codable: Bool, skips: Bool,
        _ parallelism: Parallelism, batchBytes: Int
    ) {
        let stream = JSONStream(.bytes(bytes), options: options)
        stream.parallelBatchBytes = batchBytes
        var skipped: [String] = []
        var handedOut = 0
        var counted = 0
        let policy = skips ? ElementErrorPolicy.skip { skipped.append("\(handedOut): \($0)") } : .stop
        var keys: [String] = []
        var values: [JSONValue] = []
        var trees: [Tree] = []
        /// Takes `next`'s values to the end or the first error, then the count (also after an
        /// error, where it counts the failed element).
        func drain<Element>(_ next: () throws -> Element?, _ count: () -> Int, _ add: (Element) -> Void) throws {
            defer { counted = count() }
            while let element = try next() {
                add(element)
                handedOut += 1
            }
        }
        do {
            switch (members, codable) {
            case (true, true):
                let members = stream.members(of: Tree.self, at: path, parallelism: parallelism)
                try drain({ try members.next() }, { members.count }) { keys.append($0.key); trees.append($0.value) }
            case (true, false):
                let members = stream.members(of: JSONValue.self, at: path, parallelism: parallelism)
                try drain({ try members.next() }, { members.count }) { keys.append($0.key); values.append($0.value) }
            case (false, true):
                let elements = stream.elements(of: Tree.self, at: path, onError: policy, parallelism: parallelism)
                try drain({ try elements.next() }, { elements.count }) { trees.append($0) }
            case (false, false):
                let elements = stream.elements(of: JSONValue.self, at: path, onError: policy, parallelism: parallelism)
                try drain({ try elements.next() }, { elements.count }) { values.append($0) }
            }
        } catch {
            self.error = "\(error)"
        }
        (self.keys, self.values, self.trees, self.skipped, count) = (keys, values, trees, skipped, counted)
        do { try stream.finish() } catch { finish = "\(error)" }
        do { remainder = try stream.remainder().compactJSON() } catch { remainder = "\(error)" }
    }

    var description: String {
        "\(values.count + trees.count) values, \(skipped.count) skipped \(skipped.suffix(2)), count \(count), error: \(error ?? "none"), finish: \(finish), remainder: \(remainder)"
    }
}

/// Any JSON value as a `Decodable` (a number as a `Double`: one out of its range fails to
/// decode, a `DecodingError` in the middle of the elements), except `false`, which it refuses:
/// so that elements fail often, and `.skip` has elements to skip.
indirect enum Tree: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([Tree])
    case object([String: Tree])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            guard value else { throw DecodingError.dataCorruptedError(in: container, debugDescription: "false is refused") }
            self = .bool(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([Tree].self) {
            self = .array(value)
        } else if let value = try? container.decode([String: Tree].self) {
            self = .object(value)
        } else {
            self = .number(try container.decode(Double.self))
        }
    }
}
