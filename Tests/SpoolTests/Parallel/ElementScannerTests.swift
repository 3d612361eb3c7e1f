import Foundation
import Testing
@testable import Spool

/// Issue 25, item 5: the element pre-scan, its block (SIMD) and byte loops against each other
/// and against the serial parser (`JSONStream` with `Located` elements).
@Suite("Element pre-scan")
struct ElementScannerTests {
    // MARK: - Running the scanner and the serial parser

    /// What a scan reported.
    struct Outcome: Equatable, CustomStringConvertible {
        var boundaries: [Range<Int>]
        var doubt: ScanDoubt?
        var arrayEnd: Int?

        var description: String { "\(boundaries.count) boundaries \(boundaries.prefix(6))…, doubt \(doubt.map { "\($0)" } ?? "none")" }
    }

    /// Scans `bytes` for the array at `path` (or with `ndjson`, for the top-level values),
    /// `chunkSize` bytes at a time.
    static func scan(
        _ bytes: [UInt8], at path: JSONKeyPath = .root, ndjson: Bool = false, members: Bool = false,
        _ implementation: ElementScanner.Implementation, chunkSize: Int, maxDepth: Int = 512,
        vectorPath: VectorBlockMasks.Path = VectorBlockMasks.fastest
    ) -> Outcome {
        let made = ndjson
            ? ElementScanner(topLevelValues: implementation, maxDepth: maxDepth)
            : ElementScanner(path: path, members: members, implementation: implementation, maxDepth: maxDepth)
        guard var scanner = made else {
            Issue.record("path \(path) refused")
            return Outcome(boundaries: [])
        }
        scanner.vectorPath = vectorPath
        var boundaries: [Range<Int>] = []
        bytes.withUnsafeBytes { raw in
            var start = 0
            while start < raw.count {
                let end = min(raw.count, start + chunkSize)
                scanner.scan(UnsafeRawBufferPointer(rebasing: raw[start..<end]), into: &boundaries)
                start = end
            }
        }
        scanner.finish(into: &boundaries)
        #expect(scanner.elementCount == boundaries.count)
        #expect(scanner.offset == bytes.count)
        return Outcome(boundaries: boundaries, doubt: scanner.doubt, arrayEnd: scanner.arrayEnd)
    }

    /// What the serial parser reported: each element's span, and where it failed (nil when the
    /// whole document is valid and holds the array).
    struct Serial {
        var boundaries: [Range<Int>] = []
        var failure: Int?
    }

    static func serial(_ bytes: [UInt8], at path: JSONKeyPath = .root, ndjson: Bool = false) -> Serial {
        var result = Serial()
        var options = JSONParsingOptions()
        options.allowsMultipleValues = ndjson
        let stream = JSONStream(.bytes(bytes), options: options)
        let elements = stream.elements(of: Located<JSONValue>.self, at: path)
        do {
            while let element = try elements.next() {
                let start = element.start.byteOffset
                result.boundaries.append(start..<(element.end?.byteOffset ?? stringEnd(bytes, from: start)))
            }
            try stream.finish()
        } catch let error as ParseError {
            result.failure = error.location.byteOffset
        } catch let error as DecodeError {
            result.failure = error.location?.byteOffset ?? 0
        } catch {
            Issue.record("unexpected error \(error)")
            result.failure = 0
        }
        return result
    }

    /// One past the closing quote of the string that opens at `start`.
    static func stringEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return bytes.count
    }

    static let someChunkSizes = [1, 2, 3, 7, 63, 64, 65, 100, 129, 4096, Int.max / 2]

    /// Both implementations, at each chunk size, report exactly what the serial parser does,
    /// and no doubt (for a valid document that holds the array).
    static func expectExact(
        _ bytes: [UInt8], at path: JSONKeyPath = .root, ndjson: Bool = false, chunkSizes: [Int] = someChunkSizes, _ what: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let serial = serial(bytes, at: path, ndjson: ndjson)
        #expect(serial.failure == nil, "\(what): the serial parser failed at \(serial.failure ?? -1)", sourceLocation: sourceLocation)
        for implementation in [ElementScanner.Implementation.blocks, .bytes] {
            for chunkSize in chunkSizes {
                let outcome = scan(bytes, at: path, ndjson: ndjson, implementation, chunkSize: chunkSize)
                #expect(
                    outcome.boundaries == serial.boundaries && outcome.doubt == nil,
                    "\(what), \(implementation), chunks of \(chunkSize): \(outcome) against \(serial.boundaries.prefix(6))",
                    sourceLocation: sourceLocation)
                if outcome.boundaries != serial.boundaries || outcome.doubt != nil { return }
            }
        }
    }

    /// Both implementations agree at each chunk size, and each boundary they report is the
    /// serial parser's, or holds (or lies after) the serial parser's first error. For valid
    /// input that holds the array, they report exactly the serial parser's boundaries.
    /// Returns the scan's outcome.
    @discardableResult
    static func expectConsistent(
        _ bytes: [UInt8], at path: JSONKeyPath = .root, ndjson: Bool = false, chunkSizes: [Int] = someChunkSizes, _ what: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> Outcome {
        let serial = serial(bytes, at: path, ndjson: ndjson)
        let reference = scan(bytes, at: path, ndjson: ndjson, .bytes, chunkSize: Int.max / 2)
        for implementation in [ElementScanner.Implementation.blocks, .bytes] {
            for chunkSize in chunkSizes {
                let outcome = scan(bytes, at: path, ndjson: ndjson, implementation, chunkSize: chunkSize)
                #expect(outcome == reference, "\(what), \(implementation), chunks of \(chunkSize): \(outcome) against \(reference)",
                    sourceLocation: sourceLocation)
                if outcome != reference { return reference }
            }
        }
        guard let failure = serial.failure else {
            // Valid: the serial parser's boundaries, or (valid JSON the scanner cannot vouch
            // for, such as an escaped key on the path) the first of them and a doubt.
            let prefix = Array(serial.boundaries.prefix(reference.boundaries.count))
            #expect(reference.boundaries == (reference.doubt == nil ? serial.boundaries : prefix),
                "\(what): valid, but \(reference) against \(serial.boundaries.prefix(6))", sourceLocation: sourceLocation)
            return reference
        }
        for (index, boundary) in reference.boundaries.enumerated() {
            let trusted = index < serial.boundaries.count && serial.boundaries[index] == boundary
            let theirs = index < serial.boundaries.count ? "\(serial.boundaries[index])" : "none"
            #expect(trusted || boundary.upperBound > failure,
                "\(what): boundary \(index) \(boundary) is neither the serial parser's (\(theirs)) nor after its error at \(failure)",
                sourceLocation: sourceLocation)
            if let doubt = reference.doubt {
                #expect(boundary.upperBound <= doubt.offset, "\(what): boundary \(boundary) after the doubt \(doubt)",
                    sourceLocation: sourceLocation)
            }
        }
        return reference
    }

    // MARK: - The path

    @Test func aPathMustLeadToOneArray() {
        #expect(ElementScanner(path: ["objects", .wildcard, "members"]) == nil)
        #expect(ElementScanner(path: [.wildcard]) == nil)
        #expect(ElementScanner(path: ["objects", -1]) == nil)
        #expect(ElementScanner(path: .root) != nil)
        #expect(ElementScanner(path: ["a", 0, "b"]) != nil)
    }

    @Test func walksKeysAndIndicesToTheArray() {
        let json = #"""
            {"object": [9], "Objects": [8], "objects2": [7], "a": {"b": [[0], {"c": [5]}, [[1, 2], [3, 4]]]},
             "nested": {"objects": [6]}, "objects": [1, "two", {"three": [3]}, [4], null],
             "objects": [10, 11], "after": [{"objects": [12]}]}
            """#
        let bytes = Array(json.utf8)
        Self.expectExact(bytes, at: "objects", "objects")
        Self.expectExact(bytes, at: ["a", "b", 2, 1], "a.b[2][1]")
        Self.expectExact(bytes, at: ["a", "b", 1, "c"], "a.b[1].c")
        Self.expectExact(bytes, at: ["after", 0, "objects"], "after[0].objects")
        let first = Self.scan(bytes, at: "objects", .blocks, chunkSize: 64)
        #expect(first.boundaries.map { String(decoding: bytes[$0], as: UTF8.self) } == ["1", #""two""#, #"{"three": [3]}"#, "[4]", "null"])
        // Not there, or not an array: a doubt, no boundary (the serial parser says why).
        for path: JSONKeyPath in ["missing", ["a", "b", 3], ["a", "b", 1], ["a", "b", 0, 0], "nested", ["objects", "x"]] {
            let outcome = Self.expectConsistent(bytes, at: path, "\(path)")
            #expect(outcome.boundaries.isEmpty && outcome.doubt?.reason == .notFound, "\(path): \(outcome)")
            #expect(Self.serial(bytes, at: path).failure != nil)
        }
    }

    @Test func theRootArrayAndItsEdges() {
        let cases: [(String, [String], ScanDoubt.Reason?)] = [
            ("[]", [], nil),
            (" [ ] ", [], nil),
            ("[1]", ["1"], nil),
            ("\t[\r\n1 ,\t\"a\\\"\"\n, [ ] ,{ }\r]\n", ["1", "\"a\\\"\"", "[ ]", "{ }"], nil),
            ("\u{FEFF}[true]", ["true"], nil),
            ("[1,,2]", ["1"], .emptyElement),
            ("[,1]", [], .emptyElement),
            ("[1,]", ["1"], .emptyElement),
            ("[1 2]", ["1 2"], nil),  // not checked here: the element's own parse fails
            ("[1}", [], .mismatchedBracket),
            ("[[1}]", [], .mismatchedBracket),
            ("[1]]", ["1"], .trailingBytes),
            ("[1] x", ["1"], .trailingBytes),
            ("[1, \\\"a\"]", ["1"], .strayBackslash),
            ("[1, \"a]", ["1"], .endInsideString),
            ("[1, 2", ["1"], .endOfInput),
            ("", [], .endOfInput),
            ("{}", [], .notFound),
            ("\"[1]\"", [], .notFound),
            ("]", [], .unexpectedByte),
        ]
        for (json, elements, reason) in cases {
            let bytes = Array(json.utf8)
            let outcome = Self.expectConsistent(bytes, "\(json.debugDescription)")
            #expect(outcome.boundaries.map { String(decoding: bytes[$0], as: UTF8.self) } == elements, "\(json.debugDescription)")
            #expect(outcome.doubt?.reason == reason, "\(json.debugDescription): \(outcome)")
        }
    }

    @Test func keysOnThePathAreRawBytes() {
        // A key on the path's level with a backslash is doubted, whatever it decodes to.
        for decoy in [#""\"objects""#, #""objects\\""#, #""obj\u0065cts""#] {
            let bytes = Array(#"{\#(decoy): [0], "objects": [1, 2]}"#.utf8)
            let outcome = Self.expectConsistent(bytes, at: "objects", decoy)
            let backslash = 1 + (Array(decoy.utf8).firstIndex(of: UInt8(ascii: "\\")) ?? -2)
            #expect(outcome.boundaries.isEmpty && outcome.doubt == ScanDoubt(offset: backslash, reason: .escapedKey), "\(decoy): \(outcome)")
        }
        // Beside the path (inside an element, after the array), escapes are only string bytes.
        let beside = Array(#"{"objects": [{"\"objects": [1]}, {"objects\\": "]"}], "\"objects": [3]}"#.utf8)
        Self.expectExact(beside, at: "objects", "decoys beside the path")
        // Non-ASCII keys match byte for byte.
        Self.expectExact(Array(#"{"ob": 1, "objéts": [1, 2], "obj": 0}"#.utf8), at: "objéts", "objéts")
    }

    @Test func theFirstOfTwoEqualKeysIsTheOneStreamed() {
        let bytes = Array(#"{"objects": [1], "objects": [2, 3]}"#.utf8)
        Self.expectExact(bytes, at: "objects", "duplicate keys")
        #expect(Self.scan(bytes, at: "objects", .blocks, chunkSize: 5).boundaries == [13..<14])
    }

    @Test func depthIsBoundedAndMemoryGrowsWithItOnly() {
        // 100,000 levels inside an element: followed with a bit per level.
        let deep = Array(("{\"objects\": [1, " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + ", 2]}").utf8)
        for implementation in [ElementScanner.Implementation.blocks, .bytes] {
            let outcome = Self.scan(deep, at: "objects", implementation, chunkSize: 4096, maxDepth: 100_002)
            #expect(outcome.boundaries.count == 3 && outcome.doubt == nil)
            #expect(outcome.boundaries[1] == 16..<(16 + 200_000))
            // Past the limit: a doubt at the bracket too deep.
            let limited = Self.scan(deep, at: "objects", implementation, chunkSize: 4096, maxDepth: 1000)
            #expect(limited.boundaries.count == 1 && limited.doubt == ScanDoubt(offset: 16 + 998, reason: .tooDeep))
        }
        var kinds = ContainerKinds()
        for level in 0..<1000 { kinds.push(isObject: level % 3 == 0) }
        #expect(kinds.depth == 1000)
        for level in (0..<1000).reversed() { #expect(kinds.pop() == (level % 3 == 0)) }
        #expect(kinds.pop() == nil)
    }

    // MARK: - Masks

    @Test func blockMasksMatchTheBytes() {
        var random = SplitMix(seed: 7)
        let alphabet = Array(#"\"[]{},: a\\"#.utf8) + [0x80, 0xFF, 0x5F, 0x7F, 0x59, 0x20, 0x0A]
        for _ in 0..<500 {
            let bytes = (0..<64).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            let masks = bytes.withUnsafeBytes { BlockMasks($0.baseAddress!) }
            // The C shim's masks, by each path this CPU runs (SSE2 always, AVX2 and
            // AVX-512BW where the CPU has them), and Swift's own agree.
            let portable = bytes.withUnsafeBytes { BlockMasks(portable: $0.baseAddress!) }
            for path in VectorBlockMasks.runnable {
                let vector = bytes.withUnsafeBytes { BlockMasks($0.baseAddress!, path: path) }
                #expect(vector.quote == portable.quote && vector.backslash == portable.backslash)
                #expect(vector.bracket == portable.bracket && vector.comma == portable.comma)
            }
            func mask(_ matches: (UInt8) -> Bool) -> UInt64 {
                bytes.enumerated().reduce(0) { $0 | (matches($1.element) ? 1 << UInt64($1.offset) : 0) }
            }
            #expect(masks.quote == mask { $0 == UInt8(ascii: "\"") })
            #expect(masks.backslash == mask { $0 == UInt8(ascii: "\\") })
            #expect(masks.bracket == mask { Array("[]{}".utf8).contains($0) })
            #expect(masks.comma == mask { $0 == UInt8(ascii: ",") })
            // The escaped bytes, against a byte-by-byte count of backslash runs.
            var carry: UInt64 = random.next() % 2
            var expected: UInt64 = 0
            var pending = carry == 1
            for (index, byte) in bytes.enumerated() {
                if pending {
                    expected |= 1 << UInt64(index)
                    pending = false
                } else if byte == UInt8(ascii: "\\") {
                    pending = true
                }
            }
            #expect(BlockMasks.escaped(masks.backslash, carry: &carry) == expected)
            #expect(carry == (pending ? 1 : 0))
        }
        #expect(BlockMasks.prefixXOR(0b0100_0010) == 0b0011_1110)
        #expect(BlockMasks.prefixXOR(0b1001_0010) == UInt64.max << 7 | 0b1110)
    }

    // MARK: - JSONTestSuite

    @Test func everyValidFileOfJSONTestSuite() throws {
        let names = Fixtures.names(in: Fixtures.parsingDirectory, prefix: "y_")
        #expect(names.count == 95)
        var arrays = 0
        for name in names {
            let bytes = Fixtures.bytes(name)
            let serial = Self.serial(bytes)
            if serial.failure == nil {
                arrays += 1
                Self.expectExact(bytes, name)
            } else {
                // Not a root array: doubted, nothing reported.
                let outcome = Self.expectConsistent(bytes, name)
                #expect(outcome.boundaries.isEmpty && outcome.doubt != nil, "\(name): \(outcome)")
            }
            // Every file as elements of an array at a path, among other values.
            var document = Array(#"{"before": {"objects": [0]}, "objects": ["#.utf8)
            var expected: [Range<Int>] = []
            for (index, separator) in [" ", ",\n", " , "].enumerated() {
                if index > 0 { document += Array(separator.utf8) }
                let trimmed = Self.trimmed(bytes)
                expected.append(document.count..<(document.count + trimmed.count))
                document += trimmed
            }
            document += Array(#"], "after": "]"}"#.utf8)
            if Self.serial(document, at: "objects").failure == nil {
                Self.expectExact(document, at: "objects", chunkSizes: [1, 64, 65, 4096], "\(name) as elements")
                #expect(Self.scan(document, at: "objects", .blocks, chunkSize: 1000).boundaries == expected, "\(name)")
            }
        }
        #expect(arrays > 70)
    }

    /// `bytes` without the whitespace (and byte order mark) around its value.
    static func trimmed(_ bytes: [UInt8]) -> [UInt8] {
        var slice = bytes[...]
        if slice.starts(with: [0xEF, 0xBB, 0xBF]) { slice = slice.dropFirst(3) }
        while let first = slice.first, ElementScanner.isWhitespace(first) { slice = slice.dropFirst() }
        while let last = slice.last, ElementScanner.isWhitespace(last) { slice = slice.dropLast() }
        return Array(slice)
    }

    @Test func everyInvalidAndUndecidedFileOfJSONTestSuite() {
        let names = Fixtures.names(in: Fixtures.parsingDirectory, prefix: "n_") + Fixtures.names(in: Fixtures.parsingDirectory, prefix: "i_")
        #expect(names.count == 188 + 35)
        for name in names {
            let bytes = Fixtures.bytes(name)
            Self.expectConsistent(bytes, chunkSizes: [1, 3, 64, 65, 4096], name)
            Self.expectConsistent(Array(#"{"objects": ["#.utf8) + bytes + Array("]}".utf8), at: "objects", chunkSizes: [1, 64, 4096], "\(name) as an element")
        }
    }

    // MARK: - Documents

    @Test func twitterStatuses() throws {
        let bytes = Fixtures.bytes("corpus/twitter.json", in: Fixtures.root)
        #expect(bytes.count == 631_514)
        Self.expectExact(bytes, at: "statuses", chunkSizes: [1, 63, 64, 65, 1000, 65_536, Int.max / 2], "statuses")
        #expect(Self.scan(bytes, at: "statuses", .blocks, chunkSize: 65_536).boundaries.count == 100)
        Self.expectExact(bytes, at: ["statuses", 0, "entities", "urls"], chunkSizes: [64, 4096], "statuses[0].entities.urls")
        Self.expectExact(bytes, at: ["statuses", 99, "user", "entities", "description", "urls"], chunkSizes: [64, 4096], "statuses[99]...")
    }

    @Test func theBandCatalog() throws {
        let bytes = Fixtures.bytes("himotoki-tutorial/bands.json", in: Fixtures.root)
        Self.expectExact(bytes, at: "objects", chunkSizes: Array(1...70) + [128, 1000, 4096], "objects")
        Self.expectExact(bytes, at: ["objects", 1, "members"], "objects[1].members")
        #expect(Self.scan(bytes, at: "objects", .blocks, chunkSize: 100).boundaries.count == 2)
    }

    @Test func hostileDocuments() {
        var random = SplitMix(seed: 25)
        for round in 0..<40 {
            let (document, path) = Self.hostileDocument(&random, elements: 4 + round % 9)
            let bytes = Array(document.utf8)
            Self.expectExact(bytes, at: path, chunkSizes: Array(1...70) + [100, 127, 128, 129, 1000, 4096, Int.max / 2], "hostile \(round)")
            // Every phase of the 64-byte blocks against the input: shifted by leading whitespace.
            if round % 4 == 0 {
                for shift in 1..<64 {
                    let shifted = Array(repeating: UInt8(ascii: " "), count: shift) + bytes
                    Self.expectExact(shifted, at: path, chunkSizes: [Int.max / 2, 200], "hostile \(round) shifted by \(shift)")
                }
            }
        }
    }

    /// The blocks give the byte loop's outcome by every mask path the CPU runs (SSE2, and AVX2
    /// and AVX-512BW where it has them), not only by the widest, which the other tests use.
    @Test func everyMaskPathScansAlike() {
        var documents: [(bytes: [UInt8], path: JSONKeyPath)] = [
            (Fixtures.bytes("himotoki-tutorial/bands.json", in: Fixtures.root), "objects"),
            (Fixtures.bytes("corpus/twitter.json", in: Fixtures.root), "statuses"),
        ]
        var random = SplitMix(seed: 2_511)
        for round in 0..<24 {
            let (document, path) = Self.hostileDocument(&random, elements: 4 + round % 9)
            let shift = Int(random.next() % 64)
            documents.append((Array(repeating: UInt8(ascii: " "), count: shift) + Array(document.utf8), path))
            // Cut short, so that a doubt is reached inside a block.
            let bytes = Array(document.utf8)
            documents.append((Array(bytes.prefix(Int(random.next() % UInt64(bytes.count)))), path))
        }
        #expect(VectorBlockMasks.runnable.first == (VectorBlockMasks.isAvailable ? .sse2 : nil))
        for (number, document) in documents.enumerated() {
            let reference = Self.scan(document.bytes, at: document.path, .bytes, chunkSize: Int.max / 2)
            for path in VectorBlockMasks.runnable {
                for chunkSize in [64, 1000, Int.max / 2] {
                    let outcome = Self.scan(document.bytes, at: document.path, .blocks, chunkSize: chunkSize, vectorPath: path)
                    #expect(outcome == reference, "document \(number), \(path), chunks of \(chunkSize): \(outcome) against \(reference)")
                }
            }
        }
    }

    @Test func truncatedDocumentsAreDoubted() {
        var random = SplitMix(seed: 2025)
        var documents = [(Array(Self.smallCatalog.utf8), JSONKeyPath("objects"))]
        for _ in 0..<3 {
            let (document, path) = Self.hostileDocument(&random, elements: 3)
            documents.append((Array(document.utf8), path))
        }
        for (bytes, path) in documents {
            let full = Self.scan(bytes, at: path, .bytes, chunkSize: Int.max / 2)
            let end = Self.trimmedTail(bytes)
            for length in 0...bytes.count {
                let prefix = Array(bytes[..<length])
                let outcome = Self.expectConsistent(prefix, at: path, chunkSizes: [1, 64, 4096], "truncated at \(length)")
                #expect(outcome.boundaries == Array(full.boundaries.prefix(outcome.boundaries.count)), "truncated at \(length)")
                #expect((outcome.doubt == nil) == (length >= end), "truncated at \(length): \(outcome)")
            }
        }
    }

    /// The length of `bytes` without its trailing whitespace.
    static func trimmedTail(_ bytes: [UInt8]) -> Int {
        var end = bytes.count
        while end > 0 && ElementScanner.isWhitespace(bytes[end - 1]) { end -= 1 }
        return end
    }

    @Test func strayQuotesAndUnbalancedBrackets() {
        let catalog = Array(Self.smallCatalog.utf8)
        let full = Self.scan(catalog, at: "objects", .blocks, chunkSize: 64)
        #expect(full.boundaries.count == 4 && full.doubt == nil)
        var doubted = 0
        for (index, byte) in catalog.enumerated() {
            // A quote, a bracket or a brace in place of each byte, and each byte left out.
            for replacement in Array(#""[]{},:\"#.utf8) where replacement != byte {
                var broken = catalog
                broken[index] = replacement
                if Self.expectConsistent(broken, at: "objects", chunkSizes: [1, 64, 4096], "\(UnicodeScalar(replacement)) at \(index)").doubt != nil {
                    doubted += 1
                }
            }
            var shorter = catalog
            shorter.remove(at: index)
            Self.expectConsistent(shorter, at: "objects", chunkSizes: [1, 64, 4096], "byte \(index) left out")
        }
        #expect(doubted > catalog.count * 4)
    }

    static let smallCatalog = """
        {"before": [1, {"a": "]"}], "objects": [
          {"name": "A \\"q\\" [x]", "members": [{"name": "a1"}, {"name": "a2,"}], "tags": ["{", "}"]},
        {"name": "B\\\\", "members": []},   "s\\"\\u00e9\\\\",
          [1, [2, [3]]]
        ], "last_updated": "2016-05-17T22:43:04Z"}

        """

    // MARK: - Members

    @Test func membersOfAnObject() {
        let cases: [(String, JSONKeyPath, [String], ScanDoubt.Reason?)] = [
            (#"{"a": 1, "b" : [2, {"c": "}"}], "d\"}":{}}"#, .root, [#""a": 1"#, #""b" : [2, {"c": "}"}]"#, #""d\"}":{}"#], nil),
            ("{\"x\": {\n  \"k\": \"v\",\n  \"l\": null\n}, \"y\": 2}", "x", [#""k": "v""#, #""l": null"#], nil),
            (#"{"x": {}}"#, "x", [], nil),
            (#"{"x": [1, 2]}"#, "x", [], .notFound),
            (#"{"x": {"a": 1,}}"#, "x", [#""a": 1"#], .emptyElement),
            (#"{"x": {"a": 1]}"#, "x", [], .mismatchedBracket),
        ]
        for (json, path, members, reason) in cases {
            let bytes = Array(json.utf8)
            for implementation in [ElementScanner.Implementation.bytes, .blocks] {
                for chunkSize in [1, 3, 64, 4096] {
                    let outcome = Self.scan(bytes, at: path, members: true, implementation, chunkSize: chunkSize)
                    #expect(outcome.boundaries.map { String(decoding: bytes[$0], as: UTF8.self) } == members, "\(json) in \(chunkSize)")
                    #expect(outcome.doubt?.reason == reason, "\(json) in \(chunkSize): \(outcome)")
                }
            }
        }
        // An object's elements are not an array's: `[...]` at the path doubts for members.
        #expect(Self.scan(Array(#"{"x": {"a": 1}}"#.utf8), at: "x", .bytes, chunkSize: 64).doubt?.reason == .notFound)
    }

    // MARK: - NDJSON

    @Test func topLevelValuesOfNDJSON() {
        let cases: [(String, [String], ScanDoubt.Reason?)] = [
            ("", [], nil),
            ("\n\n", [], nil),
            ("{\"a\": [1, \"}\"]}\n[2]\n\"s\\\"\"\n-1.5e3\ntrue\n", [#"{"a": [1, "}"]}"#, "[2]", #""s\"""#, "-1.5e3", "true"], nil),
            ("1 2\r\n\t3", ["1", "2", "3"], nil),
            ("{}{} [][]\"a\"\"b\"", ["{}", "{}", "[]", "[]", "\"a\"", "\"b\""], nil),
            ("{\n  \"multi\": [\n 1\n ]\n}\n{}", ["{\n  \"multi\": [\n 1\n ]\n}", "{}"], nil),
            ("\u{FEFF}{}\n1", ["{}", "1"], nil),
            ("{}\n{", ["{}"], .endOfInput),
            ("{}\n\"a", ["{}"], .endInsideString),
            ("{}\n]", ["{}"], .unexpectedByte),
            ("{]\n{}", [], .mismatchedBracket),
            ("1,2", [], .unexpectedByte),
            // A value touching a number or literal before it: the parser refuses it there, a
            // stream started at it would not.
            ("{}\n1\"a\"", ["{}"], .unexpectedByte),
            ("true[1]", [], .unexpectedByte),
            ("2{}", [], .unexpectedByte),
            ("\"a\"1 [1]2 {}3", ["\"a\"", "1", "[1]", "2", "{}", "3"], nil),
        ]
        for (json, elements, reason) in cases {
            let bytes = Array(json.utf8)
            let outcome = Self.expectConsistent(bytes, ndjson: true, "\(json.debugDescription)")
            #expect(outcome.boundaries.map { String(decoding: bytes[$0], as: UTF8.self) } == elements, "\(json.debugDescription)")
            #expect(outcome.doubt?.reason == reason, "\(json.debugDescription): \(outcome)")
        }
    }

    @Test func generatedNDJSON() {
        var random = SplitMix(seed: 1_000)
        for round in 0..<30 {
            var lines: [String] = []
            for _ in 0..<(3 + round % 7) {
                let (document, _) = Self.hostileDocument(&random, elements: 1 + Int(random.next() % 4))
                // One value a line, pretty or compact (the generator's own newlines kept).
                lines.append(document.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            let separator = ["\n", "\r\n", "\n\n", " \n\t"][round % 4]
            let bytes = Array((lines.joined(separator: separator) + (round % 2 == 0 ? "\n" : "")).utf8)
            Self.expectExact(bytes, ndjson: true, chunkSizes: Array(1...70) + [128, 1000, Int.max / 2], "NDJSON \(round)")
            for length in stride(from: 0, to: bytes.count, by: 7) {
                Self.expectConsistent(Array(bytes[..<length]), ndjson: true, chunkSizes: [1, 64, 4096], "NDJSON \(round) truncated at \(length)")
            }
        }
        // The JSONTestSuite's files, each as a line.
        var bytes: [UInt8] = []
        for name in Fixtures.names(in: Fixtures.parsingDirectory, prefix: "y_") {
            let trimmed = Self.trimmed(Fixtures.bytes(name))
            if !trimmed.contains(UInt8(ascii: "\n")) && !trimmed.isEmpty { bytes += trimmed + [UInt8(ascii: "\n")] }
        }
        Self.expectExact(bytes, ndjson: true, chunkSizes: [1, 63, 64, 65, 4096], "JSONTestSuite as NDJSON")
    }

    // MARK: - Generated documents

    /// A document with an array of `elements` hostile elements at a random path, and decoys.
    static func hostileDocument(_ random: inout SplitMix, elements: Int) -> (String, JSONKeyPath) {
        func pick<T>(_ choices: [T]) -> T { choices[Int(random.next() % UInt64(choices.count))] }
        func whitespace() -> String {
            (0..<Int(random.next() % 4)).map { _ in pick([" ", "\t", "\n", "\r", "  "]) }.joined()
        }
        func string() -> String {
            var text = "\""
            for _ in 0..<Int(random.next() % 6) {
                switch random.next() % 9 {
                case 0: text += String(repeating: "\\\\", count: Int(random.next() % 5)) + "\\\""  // odd run before a quote
                case 1: text += String(repeating: "\\\\", count: 1 + Int(random.next() % 5))  // even run
                case 2: text += pick(["[", "]", "{", "}", ",", ":", "[[", "]}", "\\/", "\\n"])
                case 3: text += pick(["\\u0022", "\\u005C", "\\u005b", "\\uD83D\\uDE00", "é", "日本", "\\t"])
                case 4: text += pick(["\\\"objects", "objects\\\\", "\\\"\\\"", " \\\" ] \\\" "])
                default: text += pick(["a", "bc", " ", "objects", "x y"])
                }
            }
            // Every length of backslash run right before the closing quote, as escapes.
            return text + String(repeating: "\\\\", count: Int(random.next() % 4)) + "\""
        }
        func value(_ depth: Int) -> String {
            switch random.next() % (depth > 3 ? 4 : 7) {
            case 0: return string()
            case 1: return pick(["0", "-1.5e3", "12345678901234567890", "true", "false", "null", "1E-2"])
            case 2: return pick(["[]", "{}", "[ ]", "{\n}"])
            case 3: return string()
            case 4, 5:
                let count = Int(random.next() % 4)
                let items = (0..<count).map { _ in whitespace() + value(depth + 1) + whitespace() }
                return "[" + items.joined(separator: ",") + (count == 0 ? whitespace() : "") + "]"
            default:
                let count = Int(random.next() % 4)
                let members = (0..<count).map { _ in
                    whitespace() + pick([string(), "\"objects\"", "\"\\\"objects\"", "\"objects\\\\\""]) + whitespace() + ":" + whitespace()
                        + value(depth + 1) + whitespace()
                }
                return "{" + members.joined(separator: ",") + (count == 0 ? whitespace() : "") + "}"
            }
        }
        let items = (0..<elements).map { _ in whitespace() + value(0) + whitespace() }
        let array = "[" + items.joined(separator: ",") + "]"
        let decoys = whitespace() + "\"object\": [1, 2]," + whitespace() + "\"objects2\": {\"objects\": [3]}," + whitespace()
            + "\"Objects\": " + value(1) + ","
        switch random.next() % 3 {
        case 0:
            return (whitespace() + array + whitespace(), .root)
        case 1:
            return ("{" + decoys + whitespace() + "\"objects\"" + whitespace() + ":" + whitespace() + array + ", \"after\": "
                + value(1) + "}" + whitespace(), "objects")
        default:
            return ("{\"data\": [" + value(2) + ", {" + decoys + " \"objects\": " + array + "}], \"objects\": [9]}\n",
                ["data", 1, "objects"])
        }
    }
}
