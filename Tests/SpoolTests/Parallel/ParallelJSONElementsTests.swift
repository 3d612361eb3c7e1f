import Foundation
import Testing
@testable import Spool

/// Issue 25: the elements of one array decoded by several threads, handed out in document
/// order, against the serial `JSONStream`: the same values, and the same error after the same
/// elements, whatever the number of workers and the batch size.
@Suite("Parallel elements")
struct ParallelJSONElementsTests {
    typealias Item = ParallelInputs.Item

    static let workerCounts = [1, 2, 3, 4]
    /// From one element a batch (the elements have 40 to 300 bytes) to the whole array in one.
    static let batchSizes = [1, 700, 5000, 1 << 20]

    /// Checks the engine against the serial stream for every worker count and batch size;
    /// `inParallel`: that the workers decoded every batch, none read on this thread.
    static func expectSameAsSerial(
        _ input: JSONInput, at path: JSONKeyPath = "objects", options: JSONParsingOptions = .init(),
        batchSizes: [Int] = batchSizes, inParallel: Bool = false, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let serial = ParallelInputs.serial(Item.self, input, at: path, options: options)
        for workers in workerCounts {
            for batchBytes in batchSizes {
                let elements = ParallelJSONElements<Item>(input, at: path, options: options, workers: workers, batchBytes: batchBytes)
                let parallel = ParallelInputs.parallel(elements)
                #expect(parallel == serial, "workers \(workers), batches of \(batchBytes) bytes", sourceLocation: sourceLocation)
                if inParallel {
                    #expect(!elements.readSerially, sourceLocation: sourceLocation)
                    if batchBytes == 1 {
                        // One batch an element (the last one also reads the array's end), to
                        // the failing one.
                        let expected = max(1, serial.values.count + (serial.error == nil ? 0 : 1))
                        #expect(elements.batchesTaken == expected, sourceLocation: sourceLocation)
                    }
                }
            }
        }
    }

    // MARK: - Values

    @Test func generatedArrayInMemory() {
        let text = ParallelInputs.document(count: 2000)
        let serial = ParallelInputs.serial(Item.self, .string(text), at: "objects")
        #expect(serial.values.count == 2000 && serial.error == nil)
        Self.expectSameAsSerial(.string(text), batchSizes: [16 * 1024, 1 << 20], inParallel: true)
        let small = ParallelInputs.document(count: 150)
        Self.expectSameAsSerial(.string(small), inParallel: true)
        Self.expectSameAsSerial(.bytes(Array(small.utf8)), batchSizes: [1, 5000], inParallel: true)
        Self.expectSameAsSerial(.data(Data(small.utf8)), batchSizes: [1, 5000], inParallel: true)
    }

    @Test func generatedArrayFromAFile() throws {
        let path = try ParallelInputs.temporaryFile(ParallelInputs.document(count: 2000))
        defer { try? FileManager.default.removeItem(atPath: path) }
        Self.expectSameAsSerial(.file(path), batchSizes: [16 * 1024, 1 << 20], inParallel: true)
        let small = try ParallelInputs.temporaryFile(ParallelInputs.document(count: 150))
        defer { try? FileManager.default.removeItem(atPath: small) }
        Self.expectSameAsSerial(.file(small), inParallel: true)
        Self.expectSameAsSerial(.url(URL(fileURLWithPath: small)), batchSizes: [300], inParallel: true)
    }

    @Test func bandCatalogWithJSONDecodableModels() throws {
        let bands = try String(contentsOfFile: ParallelInputs.bandsPath, encoding: .utf8)
        let serial = ParallelInputs.serialJSONDecodable(JSONValue.self, .string(bands), at: "objects")
        #expect(serial.values.count > 1 && serial.error == nil)
        for workers in Self.workerCounts {
            for batchBytes in [1, 200, 1 << 20] {
                for input in [JSONInput.string(bands), .file(ParallelInputs.bandsPath)] {
                    let parallel = ParallelInputs.parallel(
                        ParallelJSONElements<JSONValue>(input, at: "objects", workers: workers, batchBytes: batchBytes))
                    #expect(parallel == serial, "workers \(workers), batches of \(batchBytes) bytes")
                }
            }
        }
    }

    @Test func theDocCommentExampleReadsTheBandCatalog() throws {
        let path = ParallelInputs.bandsPath
        var printed: [String] = []
        func print(_ name: String) { printed.append(name) }
        let bands = ParallelJSONElements<Band>(.file(path), at: "objects", workers: 4)
        while let band = try bands.next() { print(band.name) }
        let serial = JSONStream(.file(path)).elements(of: Band.self, at: "objects")
        var names: [String] = []
        while let band = try serial.next() { names.append(band.name) }
        #expect(printed == names && names.count > 1)
    }

    @Test func rootArraysAndNestedPaths() {
        let elements = (0..<100).map(ParallelInputs.element).joined(separator: ",")
        Self.expectSameAsSerial(.string("[" + elements + "]"), at: .root, batchSizes: [1, 999], inParallel: true)
        Self.expectSameAsSerial(.string("\u{FEFF}  [" + elements + "]\n"), at: .root, batchSizes: [1, 999], inParallel: true)
        Self.expectSameAsSerial(.string(#"{"a": [0, {"b": {"c": "[", "objects": ["# + elements + "]}}]}"), at: ["a", 1, "b", "objects"], batchSizes: [1, 999], inParallel: true)
        Self.expectSameAsSerial(.string(#"{"objects": []}"#))
        Self.expectSameAsSerial(.string(#"{"objects": [ ] , "x": 1}"#))
        Self.expectSameAsSerial(.string(#"{"objects": ["# + ParallelInputs.element(1) + "]}"))
    }

    @Test func inputThatIsReadSerially() {
        let text = ParallelInputs.document(count: 100)
        // An escaped key on the path (the scan does not vouch for it: larger than four chunks,
        // read serially it parses on a thread of its own, as the serial stream does), comments,
        // a descriptor, a file that cannot be opened.
        let large = ParallelInputs.document(count: 2000)
        Self.expectSameAsSerial(.string(large.replacingOccurrences(of: #""objects""#, with: #""obj\u0065cts""#)), batchSizes: [1, 999])
        Self.expectSameAsSerial(.string("// c\n" + text), options: JSONParsingOptions(allowsComments: true), batchSizes: [1])
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        DispatchQueue.global().async {
            writer.write(Data(text.utf8))
            try? writer.close()
        }
        let parallel = ParallelInputs.parallel(
            ParallelJSONElements<Item>(
                .fileDescriptor(pipe.fileHandleForReading.fileDescriptor, closeWhenDone: false), at: "objects", workers: 2, batchBytes: 1))
        #expect(parallel == ParallelInputs.serial(Item.self, .string(text), at: "objects"))
        #expect(ParallelInputs.parallel(ParallelJSONElements<Item>(.file("/no/such/file.json"), at: "objects", workers: 2)).error
            == ParallelInputs.serial(Item.self, .file("/no/such/file.json"), at: "objects").error)
    }

    @Test func nothingAfterTheArrayIsRead() {
        let text = ParallelInputs.document(count: 100, suffix: #", "broken": [1, 2"#)
        let serial = ParallelInputs.serial(Item.self, .string(text), at: "objects")
        #expect(serial.values.count == 100 && serial.error == nil)
        Self.expectSameAsSerial(.string(text), batchSizes: [1, 500, 1 << 20], inParallel: true)
        Self.expectSameAsSerial(.string(#"{"objects": [{"id": 1, "name": "", "tags": []}]} trailing"#), batchSizes: [1])
    }

    // MARK: - Errors

    /// A document of 120 elements with element 111 broken.
    static func broken(_ element: String) -> String {
        ParallelInputs.document(count: 120, replacing: [111: element])
    }

    static let errorBatchSizes = [1, 700, 1 << 20]

    @Test func decodingErrorInTheMiddle() {
        Self.expectSameAsSerial(.string(Self.broken(#"{"id": "211", "name": "x", "tags": []}"#)), batchSizes: Self.errorBatchSizes, inParallel: true)
        Self.expectSameAsSerial(.string(Self.broken(#"{"id": 211, "tags": []}"#)), batchSizes: Self.errorBatchSizes)
        Self.expectSameAsSerial(.string(Self.broken(#"{"id": 211, "name": "x", "tags": [1]}"#)), batchSizes: Self.errorBatchSizes)
        let serial = ParallelInputs.serial(Item.self, .string(Self.broken(#"{"id": "211", "name": "x", "tags": []}"#)), at: "objects")
        #expect(serial.values.count == 111 && serial.codingPath == "objects.Index 111.id")
    }

    @Test func syntaxErrorInTheMiddle() {
        // A stray quote, a missing comma between elements, a stray comma, a bad literal.
        for element in [
            #"{"id": 211, "name": "x"", "tags": []}"#, #"{"id": 211, "name": "x", "tags": []} {"id": 1}"#,
            #"{"id": 211, "name": "x",, "tags": []}"#, #"{"id": 211, "name": nul, "tags": []}"#,
            #"{"id": 211, "name": "x", "tags": [}"#, #"{"id": 211, "name": "x", "tags": []]"#,
            #"{"id": 211, "name": "x\", "tags": []}"#, #"{"id": 211, "name": "x\q", "tags": []}"#,
        ] {
            let text = Self.broken(element)
            let serial = ParallelInputs.serial(Item.self, .string(text), at: "objects")
            #expect(serial.values.count <= 112 && serial.error != nil, "\(element): \(serial)")
            Self.expectSameAsSerial(.string(text), batchSizes: Self.errorBatchSizes)
        }
        // Between elements: an empty element, a missing one at the end.
        Self.expectSameAsSerial(.string(Self.broken("")), batchSizes: Self.errorBatchSizes)
        Self.expectSameAsSerial(.string(#"{"objects": [{"id": 1, "name": "", "tags": []},]}"#), batchSizes: [1, 100])
    }

    @Test func truncatedDocuments() {
        let text = Array(ParallelInputs.document(count: 150).utf8)
        for cut in [text.count / 2, text.count / 2 + 1, text.count - 30, text.count - 3, 40] {
            Self.expectSameAsSerial(.bytes(Array(text[..<cut])), batchSizes: [1, 5000])
        }
    }

    @Test func invalidUTF8InTheMiddle() {
        var text = Array(Self.broken(#"{"id": 211, "name": "x@y", "tags": []}"#).utf8)
        if let at = text.firstIndex(of: UInt8(ascii: "@")) { text[at] = 0xFF }
        Self.expectSameAsSerial(.bytes(text), batchSizes: Self.errorBatchSizes)
        let serial = ParallelInputs.serial(Item.self, .bytes(text), at: "objects")
        #expect(serial.values.count == 111 && serial.error != nil)
    }

    @Test func depthBombInTheMiddle() {
        let bomb = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        let text = Self.broken(#"{"id": 211, "name": "x", "tags": [], "extra": "# + bomb + "}")
        let serial = ParallelInputs.serial(Item.self, .string(text), at: "objects")
        #expect(serial.values.count == 111 && serial.error != nil)
        Self.expectSameAsSerial(.string(text), batchSizes: Self.errorBatchSizes)
        var shallow = JSONParsingOptions()
        shallow.maxDepth = 6
        Self.expectSameAsSerial(.string(ParallelInputs.document(count: 100)), options: shallow, batchSizes: [1, 700])
    }

    /// A string at the default limit (20,000,000 bytes) inside element 111: one batch far
    /// larger than asked for, decoded by a worker. (Once, on 2 workers: 20 MB takes seconds in
    /// a debug build.)
    @Test func aTwentyMegabyteStringInTheMiddle() {
        let limit = JSONParsingOptions().maxStringLength
        let text = Self.broken(#"{"id": 211, "name": ""# + String(repeating: "x", count: limit) + #"", "tags": []}"#)
        let serial = ParallelInputs.serial(Item.self, .string(text), at: "objects")
        #expect(serial.values.count == 120 && serial.error == nil && serial.values[111].name.utf8.count == limit)
        let elements = ParallelJSONElements<Item>(.string(text), at: "objects", workers: 2, batchBytes: 1 << 20)
        #expect(ParallelInputs.parallel(elements) == serial && !elements.readSerially)
    }

    /// A string at the limit, one byte past it, and one never closed, on every number of
    /// workers and batch size: the serial stream's value or error (a limit of 100 KB, the
    /// same checks as the default's 20 MB).
    @Test func longStringsAtAndPastTheLimit() {
        var options = JSONParsingOptions()
        options.maxStringLength = 100_000
        let long = String(repeating: "x", count: options.maxStringLength)
        let atLimit = Self.broken(#"{"id": 211, "name": ""# + long + #"", "tags": []}"#)
        let accepted = ParallelInputs.serial(Item.self, .string(atLimit), at: "objects", options: options)
        #expect(accepted.values.count == 120 && accepted.error == nil)
        Self.expectSameAsSerial(.string(atLimit), options: options, batchSizes: Self.errorBatchSizes, inParallel: true)
        let pastLimit = Self.broken(#"{"id": 211, "name": "y"# + long + #"", "tags": []}"#)
        let refused = ParallelInputs.serial(Item.self, .string(pastLimit), at: "objects", options: options)
        #expect(refused.values.count == 111 && refused.error?.contains("longer than the maximum") == true, "\(refused)")
        Self.expectSameAsSerial(.string(pastLimit), options: options, batchSizes: Self.errorBatchSizes)
        let unclosed = Self.broken(#"{"id": 211, "name": ""# + long)
        let truncated = ParallelInputs.serial(Item.self, .string(unclosed), at: "objects", options: options)
        #expect(truncated.values.count == 111 && truncated.error != nil, "\(truncated)")
        Self.expectSameAsSerial(.string(unclosed), options: options, batchSizes: Self.errorBatchSizes)
    }

    @Test func errorsBeforeTheArray() {
        let tail = ParallelInputs.document(count: 100)
        for prefix in [#""a": tru, "#, #""a": [1, 2}, "#, #""a": "\u12", "#, #""objects": 3, "#] {
            Self.expectSameAsSerial(.string(ParallelInputs.document(count: 100, prefix: prefix)), batchSizes: [1, 700])
        }
        Self.expectSameAsSerial(.string(#"{"objects": 3}"#), batchSizes: [1])
        Self.expectSameAsSerial(.string(#"{"other": []}"#), batchSizes: [1])
        Self.expectSameAsSerial(.string(#"[1, 2]"#), batchSizes: [1])
        Self.expectSameAsSerial(.string("\u{FEFF}" + tail), batchSizes: [1, 700])
    }

    @Test func errorsNearABatchStartOnOneLongLine() {
        // One line: a resumed stream's excerpt would start at its batch, the serial one's not.
        let elements = (0..<60).map { #"{"id": \#($0), "name": "n", "tags": []}"# }
        for broken in [#"{"id": 5, "name": "n", "tags": [}"#, #"{"id": 5, "name": "n" "tags": []}"#, #"{"id": "5"}"#, "x"] {
            for at in [1, 30, 59] {
                var copy = elements
                copy[at] = broken
                let text = #"{"objects": ["# + copy.joined(separator: ",") + "]}"
                Self.expectSameAsSerial(.string(text), batchSizes: [1, 90, 400])
                Self.expectSameAsSerial(.string(String(text.dropLast(2))), batchSizes: [1, 90])
            }
        }
    }

    // MARK: - Stopping

    @Test func droppingTheEngineStopsEveryThread() throws {
        let text = ParallelInputs.document(count: 20_000)
        let path = try ParallelInputs.temporaryFile(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        for input in [JSONInput.string(text), .file(path)] {
            var elements: ParallelJSONElements<Item>? = ParallelJSONElements(input, at: "objects", workers: 3, batchBytes: 4096)
            let board = try #require(elements?.board)
            for index in 0..<3 {
                #expect(try elements?.next()?.id == index)
            }
            #expect(board.liveThreads.load(ordering: .acquiring) > 0)
            elements = nil
            #expect(ParallelInputs.eventually { board.liveThreads.load(ordering: .acquiring) == 0 })
        }
    }

    @Test func atMostTwoBatchesAWorkerAreDecodedAhead() throws {
        for workers in [1, 3] {
            let elements = ParallelJSONElements<Item>(
                .string(ParallelInputs.document(count: 1500)), at: "objects", workers: workers, batchBytes: 2000)
            var count = 0
            while try elements.next() != nil {
                count += 1
                // A slow consumer: the workers wait for it.
                if count % 100 == 0 { usleep(3_000) }
            }
            #expect(count == 1500)
            #expect(elements.batchesTaken > 10 * workers)
            #expect(elements.board.mostBatchesAhead <= 2 * workers)
            #expect(elements.board.mostBatchesAhead >= 2)
        }
    }

    @Test func theEndAndErrorsStopEveryThread() throws {
        let whole = ParallelJSONElements<Item>(.string(ParallelInputs.document(count: 1500)), at: "objects", workers: 4, batchBytes: 1000)
        var count = 0
        while try whole.next() != nil { count += 1 }
        #expect(count == 1500)
        #expect(ParallelInputs.eventually { whole.board.liveThreads.load(ordering: .acquiring) == 0 })
        let failing = ParallelJSONElements<Item>(.string(Self.broken("{")), at: "objects", workers: 4, batchBytes: 100)
        #expect(throws: (any Error).self) { while try failing.next() != nil {} }
        #expect(ParallelInputs.eventually { failing.board.liveThreads.load(ordering: .acquiring) == 0 })
    }
}
