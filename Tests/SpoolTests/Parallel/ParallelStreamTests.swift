import BandCatalog
import Foundation
import Synchronization
import Testing
@_spi(Testing) @testable import Spool

/// Issue 25: `JSONStream.elements(..., parallelism:)`, the parallel elements engine through the
/// public API. The same elements, the same error after the same elements, and the same
/// `finish()` and `remainder()` as the serial stream, for 1, 2 and 4 workers, on the band
/// catalog and on bad input; input the engine cannot read in parallel is read serially; dropping
/// the sequence stops every thread.
@Suite("Parallel streams")
struct ParallelStreamTests {
    /// The band catalog's members as a `Decodable` model.
    struct Member: Decodable, Hashable {
        let name: String
        let birthDate: Date
    }

    /// The band catalog's bands as a `Decodable` model.
    struct CodableBand: Decodable, Hashable {
        let name: String
        let homepage: String?
        let active: String
        let members: [Member]
    }

    /// The tutorial's catalog in the test fixtures.
    static var fixturePath: String { Fixtures.path("himotoki-tutorial/bands.json") }

    /// A catalog of `count` bands made from the fixture's, each named `Band <index>`, written
    /// as the fixture is (two-space indents), with `last_updated` after the array.
    static func catalog(count: Int = 800) throws -> String {
        let fixture = try String(contentsOfFile: fixturePath, encoding: .utf8)
        let start = try #require(fixture.range(of: "\"objects\": [\n")).upperBound
        let end = try #require(fixture.range(of: "\n  ],", options: .backwards)).lowerBound
        let bands = fixture[start..<end].components(separatedBy: "\n    },\n").map { $0.hasSuffix("}") ? String($0.dropLast(6)) : $0 }
        #expect(bands.count == 2)
        var body: [String] = []
        for index in 0..<count {
            var band = bands[index % bands.count]
            band = band.replacingOccurrences(of: #""name": "Beatles""#, with: #""name": "Band \#(index)""#)
            band = band.replacingOccurrences(of: #""name": "The Rolling Stones""#, with: #""name": "Band \#(index)""#)
            body.append(band + "\n    }")
        }
        return String(fixture[..<start]) + body.joined(separator: ",\n") + String(fixture[end...])
    }

    /// What a stream gave: its elements (or the error that ended them), then what `finish()`
    /// and the remainder's `last_updated` gave (read as an `Int`: its error says where it is).
    struct Run<Value: Equatable>: Equatable {
        var elements = ParallelInputs.Outcome<Value>()
        var count = 0
        var finish = "ok"
        var lastUpdated = ""
    }

    /// Streams `input` with `parallelism` (cut into batches of about `batchBytes`), by `make`.
    static func run<Value: Equatable>(
        _ input: JSONInput, options: JSONParsingOptions = .init(), _ parallelism: Parallelism, batchBytes: Int? = nil,
        readingRest: Bool = true, _ make: (JSONStream, Parallelism) -> JSONElements<Value>
    ) -> (run: Run<Value>, elements: JSONElements<Value>, stream: JSONStream) {
        let stream = JSONStream(input, options: options)
        if let batchBytes { stream.parallelBatchBytes = batchBytes }
        let elements = make(stream, parallelism)
        var run = Run<Value>()
        do {
            while let value = try elements.next() { run.elements.values.append(value) }
            if try elements.next() != nil { run.elements.error = "an element after the end" }
        } catch {
            run.elements.fail(error)
            if (try? elements.next()) != nil { run.elements.error = "an element after the error" }
        }
        run.count = elements.count
        guard readingRest else { return (run, elements, stream) }
        do { try stream.finish() } catch { run.finish = "\(error)" }
        do {
            let number: Int = try stream.remainder().value("last_updated")
            run.lastUpdated = "\(number)"
        } catch {
            run.lastUpdated = "\(error)"
        }
        return (run, elements, stream)
    }

    static func codable(_ stream: JSONStream, _ parallelism: Parallelism) -> JSONElements<CodableBand> {
        stream.elements(of: CodableBand.self, at: "objects", decoder: Fixtures.catalogDecoder, parallelism: parallelism)
    }
    static func operators(_ stream: JSONStream, _ parallelism: Parallelism) -> JSONElements<Band> {
        stream.elements(of: Band.self, at: "objects", parallelism: parallelism)
    }

    /// Expects every worker count and batch size to give the serial stream's run; `inParallel`:
    /// that more than one worker ran the engine, and then, when the serial stream's elements
    /// and `finish()` succeed, that the rest was read the quick way (not parsing the array
    /// again), unless `quickRest` is false.
    static func expectSameAsSerial<Value: Equatable>(
        _ input: JSONInput, options: JSONParsingOptions = .init(), batchSizes: [Int?] = [nil, 4096], inParallel: Bool,
        quickRest: Bool = true, _ make: (JSONStream, Parallelism) -> JSONElements<Value>,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let serial = run(input, options: options, .serial, make).run
        for workers in [1, 2, 4] {
            for batchBytes in batchSizes {
                let (parallel, elements, stream) = run(input, options: options, .workers(workers), batchBytes: batchBytes, make)
                let comment: Comment = "\(workers) workers, batches of \(batchBytes ?? 0)"
                #expect(parallel == serial, comment, sourceLocation: sourceLocation)
                #expect((elements.parallel != nil) == (workers > 1 && inParallel), comment, sourceLocation: sourceLocation)
                let quickly = workers > 1 && inParallel && quickRest && serial.elements.error == nil && serial.finish == "ok"
                #expect((stream.parallelRest?.wasReadQuickly ?? false) == quickly, comment, sourceLocation: sourceLocation)
            }
        }
    }

    // MARK: - The band catalog

    @Test func theFixtureCatalogIsTheSameOnEveryNumberOfWorkers() throws {
        for input in [JSONInput.file(Self.fixturePath), .string(try String(contentsOfFile: Self.fixturePath, encoding: .utf8))] {
            Self.expectSameAsSerial(input, batchSizes: [nil, 1], inParallel: true, Self.codable)
            Self.expectSameAsSerial(input, batchSizes: [nil, 1], inParallel: true, Self.operators)
        }
        let serial = Self.run(.file(Self.fixturePath), .serial, Self.operators).run
        #expect(serial.elements.values.map(\.name) == ["Beatles", "The Rolling Stones"] && serial.elements.error == nil)
        #expect(serial.lastUpdated.contains("expected Int at last_updated"))
    }

    @Test func aLargerCatalogIsTheSameOnEveryNumberOfWorkers() throws {
        let text = try Self.catalog()
        let path = try ParallelInputs.temporaryFile(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        Self.expectSameAsSerial(.file(path), inParallel: true, Self.codable)
        Self.expectSameAsSerial(.data(Data(text.utf8)), inParallel: true, Self.operators)
        let serial = Self.run(.file(path), .serial, Self.codable).run
        #expect(serial.elements.values.count == 800 && serial.elements.values[799].name == "Band 799")
        #expect(serial.count == 800 && serial.finish == "ok")
        // The quick way read what is after the array where it is: `last_updated` at its line.
        let line = try #require(text.components(separatedBy: "\n").firstIndex { $0.contains("last_updated") }) + 1
        #expect(serial.lastUpdated.hasPrefix("\(line):19: error: expected Int at last_updated"), "\(serial.lastUpdated)")
    }

    @Test func theLayoutAroundTheArraysEndDoesNotMatter() {
        let band = #"{"name": "B", "active": "active", "members": [{"name": "M", "birth_date": "1970-01-01"}]}"#
        let bands = Array(repeating: band, count: 40).joined(separator: ",")
        for text in [
            #"{"objects": ["# + bands + #"], "last_updated": "2016-05-17T22:43:04Z"}"#,
            #"{"objects": ["# + bands + "\n]\n, \"last_updated\": 1}",
            "{\"a\": {\"b\": [1, {\"c\": \"]\"}]},\n\"objects\"\n:\n[" + bands + "\n\n    ]   }  \n",
            "{\"objects\":\n[]}", "{\"objects\":[]\n}",
        ] {
            Self.expectSameAsSerial(.string(text), batchSizes: [nil, 300], inParallel: true, Self.operators)
            let serial = Self.run(.string(text), .serial, Self.operators).run
            #expect(serial.elements.error == nil && serial.finish == "ok", "\(text)")
        }
        // A `]` at the start of its line, or near it: the containers' opening on a line before.
        let inside: (JSONStream, Parallelism) -> JSONElements<Band> = { $0.elements(of: Band.self, at: ["", "objects"], parallelism: $1) }
        Self.expectSameAsSerial(.string("{\"\":\n{\"objects\":\n[\n" + bands + "]}, \"last_updated\": [1, {}]}"), batchSizes: [nil, 300], inParallel: true, inside)
        Self.expectSameAsSerial(.string("{\"\":\n{\"objects\":\n[\n" + bands + "\n]\n}}"), batchSizes: [nil, 300], inParallel: true, inside)
        for text in ["{\"\":{\"objects\":\n[\n]}}", "{\"\":{\"objects\":[\n]}}", "{\"\":{\"objects\":[ ]}}", "{\"\":{\"objects\":\n[\n  ]}}"] {
            Self.expectSameAsSerial(.string(text), inParallel: true, inside)
        }
        // Lines before the `]` too short to hold the opening: read serially.
        Self.expectSameAsSerial(.string("{\"\":\n[]}"), inParallel: true, quickRest: false, { $0.elements(of: Band.self, at: [""], parallelism: $1) })
        // Arrays at a path through arrays and at the root.
        let nested = "[0, [{\"objects\": [" + bands + "]}, 2],\n 3]"
        Self.expectSameAsSerial(
            .string(nested), batchSizes: [nil, 300], inParallel: true,
            { $0.elements(of: Band.self, at: [1, 0, "objects"], parallelism: $1) })
        Self.expectSameAsSerial(.string("[" + bands + "]  "), batchSizes: [nil, 300], inParallel: true, { $0.elements(of: Band.self, parallelism: $1) })
    }

    @Test func remainderAndFinishAreTheSerialStreamsWhateverIsAfterTheArray() throws {
        let band = #"{"name": "B", "active": "active", "members": []}"#
        let bands = Array(repeating: band, count: 30).joined(separator: ",\n")
        for suffix in [#", "last_updated": 12}"#, #", "last_updated": 12} x"#, #", "last_updated": 12"#, #"], "x": 1}"#, #", "a": tru}"#, "}}"] {
            let text = "{\"objects\": [" + bands + "]" + suffix
            let serial = Self.run(.string(text), .serial, Self.operators).run
            #expect(serial.elements.values.count == 30)
            Self.expectSameAsSerial(.string(text), batchSizes: [nil, 200], inParallel: true, Self.operators)
        }
        let valid = "{\"objects\": [" + bands + "], \"last_updated\": 12}"
        let (run, _, stream) = Self.run(.string(valid), .workers(2), batchBytes: 200, Self.operators)
        #expect(run.lastUpdated == "12" && stream.parallelRest?.wasReadQuickly == true)
        let remainder = try stream.remainder().compactJSON()
        #expect(remainder == #"{"objects":[],"last_updated":12}"#)
    }

    @Test func elementsThatAreViewsOfTheirTokensStayValid() throws {
        // An `Extractor` reads its element's tokens when it is used: a batch's stream keeps them.
        let text = ParallelInputs.document(count: 2000)
        for parallelism in [Parallelism.serial, .workers(2), .workers(3)] {
            let stream = JSONStream(.string(text))
            stream.parallelBatchBytes = 16 * 1024
            let items = stream.elements(of: Located<Extractor>.self, at: "objects", parallelism: parallelism)
            let serial = JSONStream(.string(text)).elements(of: Located<Extractor>.self, at: "objects")
            var count = 0
            while let item = try items.next() {
                let expected = try #require(try serial.next())
                #expect(try item.value.compactJSON() == expected.value.compactJSON())
                #expect(item.path == expected.path && item.start == expected.start && item.end == expected.end)
                count += 1
            }
            #expect(count == 2000 && (items.parallel != nil) == (parallelism != .serial))
        }
    }

    // MARK: - The decoder

    /// A worker decodes all its batches in one decoding session: a custom key strategy
    /// converts each distinct key once per worker, not once per batch. (A batch an element:
    /// with a session per batch, it converted them for each of the 800 bands.)
    @Test func aWorkerConvertsEachKeyOnce() throws {
        let text = try Self.catalog()
        let conversions = Atomic<Int>(0)
        let decoder = StreamingJSONDecoder()
        decoder.keyDecodingStrategy = .custom { path in
            conversions.add(1, ordering: .relaxed)
            return NamedKey(Self.camelCase(path.last?.stringValue ?? ""))
        }
        decoder.dateDecodingStrategy = .pattern("yyyy-MM-dd")
        let serial = try Self.all(JSONStream(.string(text)).elements(of: CodableBand.self, at: "objects", decoder: decoder))
        let serialConversions = conversions.exchange(0, ordering: .relaxed)
        let stream = JSONStream(.string(text))
        stream.parallelBatchBytes = 1
        let bands = stream.elements(of: CodableBand.self, at: "objects", decoder: decoder, parallelism: .workers(2))
        #expect(try Self.all(bands) == serial && serial.count == 800 && bands.parallel != nil)
        // The serial stream converts each distinct key once; two workers at most twice.
        #expect(serialConversions > 0 && conversions.load(ordering: .relaxed) <= 2 * serialConversions)
    }

    /// The strategies are the decoder's when the elements are asked for, on every worker, as
    /// the serial stream reads them: changing the decoder afterwards changes nothing.
    @Test func theDecodersStrategiesAreReadWhenTheElementsAreAskedFor() throws {
        let text = try Self.catalog(count: 200)
        let serial = try Self.all(JSONStream(.string(text)).elements(of: CodableBand.self, at: "objects", decoder: Fixtures.catalogDecoder))
        let decoder = Fixtures.catalogDecoder
        let stream = JSONStream(.string(text))
        stream.parallelBatchBytes = 1
        let bands = stream.elements(of: CodableBand.self, at: "objects", decoder: decoder, parallelism: .workers(2))
        decoder.keyDecodingStrategy = .useDefaultKeys
        decoder.dateDecodingStrategy = .iso8601
        #expect(try Self.all(bands) == serial && serial.count == 200 && bands.parallel != nil)
    }

    /// Every element, to the end.
    static func all<Value>(_ elements: JSONElements<Value>) throws -> [Value] {
        var values: [Value] = []
        while let value = try elements.next() { values.append(value) }
        return values
    }

    /// A coding key by name.
    struct NamedKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// `birth_date` as `birthDate`.
    static func camelCase(_ key: String) -> String {
        let words = key.split(separator: "_")
        return String(words.first ?? "") + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    // MARK: - Bad input

    @Test func aStrayQuote() throws {
        let text = try Self.catalog().replacingOccurrences(of: #""name": "Band 300""#, with: #""name": "Band "300""#)
        Self.expectSameAsSerial(.string(text), inParallel: true, Self.codable)
        let serial = Self.run(.string(text), .serial, Self.codable).run
        #expect(serial.elements.values.count == 300 && serial.elements.error?.contains("error:") == true)
    }

    @Test func aTruncatedDocument() throws {
        let text = Array(try Self.catalog().utf8)
        for cut in [text.count / 2, text.count - 40, text.count - 3] {
            Self.expectSameAsSerial(.bytes(Array(text[..<cut])), batchSizes: [4096], inParallel: true, Self.operators)
        }
        let serial = Self.run(.bytes(Array(text[..<(text.count / 2)])), .serial, Self.operators).run
        #expect(serial.elements.values.count > 300 && serial.elements.error != nil)
    }

    @Test func invalidUTF8() throws {
        var text = Array(try Self.catalog().utf8)
        let name = Array(#""name": "Band 700""#.utf8)
        let at = try #require(text.indices.first { text[$0...].starts(with: name) })
        text[at + name.count - 2] = 0xFF
        Self.expectSameAsSerial(.bytes(text), inParallel: true, Self.codable)
        Self.expectSameAsSerial(.bytes(text), batchSizes: [4096], inParallel: true, Self.operators)
        let serial = Self.run(.bytes(text), .serial, Self.codable).run
        #expect(serial.elements.values.count == 700 && serial.elements.error != nil)
    }

    @Test func aModelErrorInElement500() throws {
        let catalog = try Self.catalog()
        let text = catalog.replacingOccurrences(of: #""name": "Band 500""#, with: #""name": 500"#)
        let path = try ParallelInputs.temporaryFile(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        Self.expectSameAsSerial(.file(path), inParallel: true, Self.codable)
        Self.expectSameAsSerial(.file(path), inParallel: true, Self.operators)
        let codable = Self.run(.file(path), .serial, Self.codable).run
        #expect(codable.elements.values.count == 500 && codable.elements.codingPath == "objects.Index 500.name")
        let operators = Self.run(.file(path), .serial, Self.operators).run
        #expect(operators.elements.values.count == 500)
        #expect(operators.elements.error?.contains("at objects[500].name") == true)
        #expect(operators.finish == "ok" && operators.lastUpdated.contains("expected Int at last_updated"))
    }

    // MARK: - Serially

    @Test func whatTheEngineCannotReadIsReadSerially() throws {
        let text = try Self.catalog(count: 60)
        // A wildcard, comments, a path into NDJSON: the stream's own serial request.
        Self.expectSameAsSerial(
            .string(text), inParallel: false, { $0.elements(of: BandMember.self, at: ["objects", .wildcard, "members"], parallelism: $1) })
        Self.expectSameAsSerial(.string("// bands\n" + text), options: JSONParsingOptions(allowsComments: true), inParallel: false, Self.operators)
        Self.expectSameAsSerial(.string(text + text), options: JSONParsingOptions(allowsMultipleValues: true), inParallel: false, Self.operators)
        // A descriptor.
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        DispatchQueue.global().async {
            writer.write(Data(text.utf8))
            try? writer.close()
        }
        let (piped, elements, _) = Self.run(
            .fileDescriptor(pipe.fileHandleForReading.fileDescriptor, closeWhenDone: false), .automatic, Self.operators)
        #expect(elements.parallel == nil)
        #expect(piped == Self.run(.string(text), .serial, Self.operators).run)
        // A file that cannot be opened, a second request, a stream resumed at an element.
        let missing = Self.run(.file("/no/such/file.json"), .workers(2), Self.operators)
        #expect(missing.elements.parallel == nil && missing.run == Self.run(.file("/no/such/file.json"), .serial, Self.operators).run)
        let stream = JSONStream(.string(text))
        _ = try stream.count(at: "objects")
        let second = stream.elements(of: Band.self, at: "objects", parallelism: .workers(2))
        #expect(second.parallel == nil)
        #expect(throws: UsageError.self) { try second.next() }
        let first = try #require(text.utf8.firstIndex(of: UInt8(ascii: "[")).map { text.utf8.distance(from: text.utf8.startIndex, to: $0) }) + 6
        let resumed = JSONStream(.string(text), resumingAt: SourceLocation(byteOffset: first, line: 3, column: 5), element: ["objects", 0])
        let fromResumed = resumed.elements(of: Band.self, at: "objects", parallelism: .workers(2))
        #expect(fromResumed.parallel == nil)
        #expect(try fromResumed.next()?.name == "Band 0")
    }

    @Test func oneWorkerIsSerial() {
        #expect(Parallelism.serial.workerCount == 1)
        #expect(Parallelism.workers(0).workerCount == 1 && Parallelism.workers(-3).workerCount == 1)
        #expect(Parallelism.workers(3).workerCount == 3 && Parallelism.workers(1 << 40).workerCount == 64)
        #expect(Parallelism.automatic.workerCount == Parallelism.automaticWorkers(cores: ProcessInfo.processInfo.activeProcessorCount))
        // Serial on one or two cores, where the serial stream already keeps two busy.
        #expect(Parallelism.automaticWorkers(cores: 1) == 1 && Parallelism.automaticWorkers(cores: 2) == 1)
        #expect(Parallelism.automaticWorkers(cores: 3) == 3 && Parallelism.automaticWorkers(cores: 16) == 16)
        #expect(Parallelism.automaticWorkers(cores: 200) == 64 && Parallelism.automaticWorkers(cores: 0) == 1)
        for parallelism in [Parallelism.serial, .workers(1), .workers(0)] {
            #expect(JSONStream(.file(Self.fixturePath)).elements(of: Band.self, at: "objects", parallelism: parallelism).parallel == nil)
        }
    }

    // MARK: - Stopping, progress

    @Test func droppingTheSequenceStopsEveryThread() throws {
        let text = try Self.catalog(count: 3000)
        let path = try ParallelInputs.temporaryFile(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        for input in [JSONInput.file(path), .string(text)] {
            // The stream lives on; the sequence goes after three elements.
            let stream = JSONStream(input)
            stream.parallelBatchBytes = 4096
            var bands: JSONElements<CodableBand>? = stream.elements(of: CodableBand.self, at: "objects", decoder: Fixtures.catalogDecoder, parallelism: .workers(3))
            let board = try #require(bands?.parallel?.engine.board)
            for index in 0..<3 {
                #expect(try bands?.next()?.name == "Band \(index)")
            }
            #expect(board.liveThreads.load(ordering: .acquiring) > 0)
            bands = nil
            #expect(ParallelInputs.eventually { board.liveThreads.load(ordering: .acquiring) == 0 })
            // The rest, read serially after an early stop, is the serial stream's.
            let serial = JSONStream(input)
            let serialBands = serial.elements(of: CodableBand.self, at: "objects", decoder: Fixtures.catalogDecoder)
            for _ in 0..<3 { _ = try serialBands.next() }
            #expect(try stream.remainder().compactJSON() == (try serial.remainder().compactJSON()))
            #expect(stream.parallelRest?.wasReadQuickly == false)
        }
        // A `for` loop over the sequence's results that breaks.
        let stream = JSONStream(.string(text))
        stream.parallelBatchBytes = 4096
        var board: BatchBoard<Band>?
        do {
            let bands = stream.elements(of: Band.self, at: "objects", parallelism: .workers(2))
            board = bands.parallel?.engine.board
            for result in bands {
                #expect(try result.get().name == "Band 0")
                break
            }
        }
        #expect(ParallelInputs.eventually { board?.liveThreads.load(ordering: .acquiring) == 0 })
    }

    @Test func progressIsReportedAsBatchesAreHandedOut() throws {
        let text = try Self.catalog(count: 400)
        let path = try ParallelInputs.temporaryFile(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let stream = JSONStream(.file(path))
        stream.parallelBatchBytes = 8192
        var reported: [Int] = []
        stream.onProgress = { reported.append($0) }
        let bands = stream.elements(of: Band.self, at: "objects", parallelism: .workers(2))
        while try bands.next() != nil {}
        #expect(reported.count > 5 && reported == reported.sorted() && stream.bytesRead < text.utf8.count)
        try stream.finish()
        #expect(stream.bytesRead == text.utf8.count && reported.last == text.utf8.count)
    }

    // MARK: - The doc comments' examples

    @Test func theParallelismExampleStreamsACatalog() throws {
        let path = try ParallelInputs.temporaryFile(try Self.catalog(count: 50))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var printed: [String] = []
        func print(_ name: String) { printed.append(name) }
        let bands = JSONStream(.file(path)).elements(of: Band.self, at: "objects", parallelism: .automatic)
        while let band = try bands.next() { print(band.name) }   // in document order
        #expect(printed == (0..<50).map { "Band \($0)" })
    }
}
