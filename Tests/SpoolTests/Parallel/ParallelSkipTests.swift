import BandCatalog
import Foundation
import Testing
@_spi(Testing) @testable import Spool

/// Issue 25: `.skip` with `parallelism:`. The workers record the elements they skip; the
/// consumer hands each report to the caller's closure, on the caller's thread, between the
/// same elements as the serial stream, and counts it. Then the stream's end, error, `finish()`
/// and remainder are the serial stream's.
@Suite("Parallel skipping")
struct ParallelSkipTests {
    /// What a stream with `.skip` gave, in order: each element (its name) and each report.
    struct Log: Equatable, CustomStringConvertible {
        var events: [String] = []
        var count = 0
        var error: String?
        var finish = "ok"
        var remainder = ""
        var threads: Set<String> = []

        var description: String {
            "\(events.count) events (last: \(events.suffix(3))), count \(count), error \(error ?? "none"), finish \(finish), \(remainder)"
        }
    }

    static func log<Value>(
        _ text: String, options: JSONParsingOptions = .init(), _ parallelism: Parallelism, batchBytes: Int,
        _ make: (JSONStream, ElementErrorPolicy, Parallelism) -> JSONElements<Value>, name: (Value) -> String
    ) -> (log: Log, inParallel: Bool) {
        var log = Log()
        let stream = JSONStream(.data(Data(text.utf8)), options: options)
        stream.parallelBatchBytes = batchBytes
        let caller = Thread.current.description
        let elements = make(stream, .skip { skipped in
            log.events.append("\(skipped)")
            if Thread.current.description != caller { log.threads.insert(Thread.current.description) }
        }, parallelism)
        do {
            while let value = try elements.next() { log.events.append(name(value)) }
        } catch {
            log.error = "\(error)"
        }
        log.count = elements.count
        do { try stream.finish() } catch { log.finish = "\(error)" }
        do { log.remainder = try stream.remainder().compactJSON().suffix(40).description } catch { log.remainder = "\(error)" }
        return (log, elements.parallel != nil)
    }

    static func expectSame<Value>(
        _ text: String, options: JSONParsingOptions = .init(), _ make: (JSONStream, ElementErrorPolicy, Parallelism) -> JSONElements<Value>,
        name: (Value) -> String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> Log {
        let serial = log(text, options: options, .serial, batchBytes: 1 << 20, make, name: name).log
        for workers in [2, 3] {
            for batchBytes in [1, 300, 4096, 1 << 20] {
                let (parallel, inParallel) = log(text, options: options, .workers(workers), batchBytes: batchBytes, make, name: name)
                #expect(inParallel, sourceLocation: sourceLocation)
                #expect(parallel == serial, "\(workers) workers, batches of \(batchBytes)", sourceLocation: sourceLocation)
            }
        }
        return serial
    }

    static func codable(_ stream: JSONStream, _ policy: ElementErrorPolicy, _ parallelism: Parallelism) -> JSONElements<ParallelStreamTests.CodableBand> {
        stream.elements(of: ParallelStreamTests.CodableBand.self, at: "objects", decoder: Fixtures.catalogDecoder, onError: policy, parallelism: parallelism)
    }
    static func operators(_ stream: JSONStream, _ policy: ElementErrorPolicy, _ parallelism: Parallelism) -> JSONElements<Band> {
        stream.elements(of: Band.self, at: "objects", onError: policy, parallelism: parallelism)
    }

    /// The catalog with the bands at `broken` made invalid for both models (a number for a
    /// name), some next to each other and at the array's ends.
    static func catalog(count: Int, broken: Set<Int>) throws -> String {
        var text = try ParallelStreamTests.catalog(count: count)
        for index in broken {
            text = text.replacingOccurrences(of: #""name": "Band \#(index)""#, with: #""name": \#(index)"#)
        }
        return text
    }

    @Test func reportsComeBetweenTheSameElementsOnTheCallersThread() throws {
        let broken: Set<Int> = [0, 1, 57, 58, 59, 130, 299, 300, 301, 598, 599]
        let text = try Self.catalog(count: 600, broken: broken)
        let codable = Self.expectSame(text, Self.codable, name: \.name)
        #expect(codable.events.count == 600 && codable.count == 600 && codable.error == nil && codable.finish == "ok")
        #expect(codable.events.filter { $0.hasPrefix("skipped") }.count == broken.count)
        #expect(codable.events[57].hasPrefix("skipped element 57 at ") && codable.events[56] == "Band 56", "\(codable.events[56...57])")
        #expect(codable.threads.isEmpty)
        let operators = Self.expectSame(text, Self.operators, name: \.name)
        #expect(operators.events.filter { $0.hasPrefix("skipped") }.count == broken.count)
        #expect(operators.threads.isEmpty)
    }

    @Test func everyElementSkippedAndNone() throws {
        let all = try Self.catalog(count: 200, broken: Set(0..<200))
        let log = Self.expectSame(all, Self.codable, name: \.name)
        #expect(log.events.count == 200 && log.events.allSatisfy { $0.hasPrefix("skipped") } && log.count == 200)
        let none = Self.expectSame(try Self.catalog(count: 200, broken: []), Self.operators, name: \.name)
        #expect(none.events.count == 200 && !none.events.contains { $0.hasPrefix("skipped") })
    }

    @Test func aSyntaxErrorAfterSkipsEndsTheStreamAsSerially() throws {
        var text = try Self.catalog(count: 400, broken: [10, 200, 201, 350])
        // A syntax error after some skipped elements, and one before a skipped element.
        text = text.replacingOccurrences(of: #""name": "Band 250""#, with: #""name" "Band 250""#)
        let log = Self.expectSame(text, Self.codable, name: \.name)
        // (Bands 0-249 handed out or skipped, then the syntax error in band 250, never skipped.)
        #expect(log.events.count == 250 && log.count == 250, "\(log)")
        #expect(log.error?.contains("expected ':' after object key, found a string (250 elements of objects read before it)") == true, "\(log)")
        #expect(log.events.filter { $0.hasPrefix("skipped") }.count == 3)
        let early = try Self.catalog(count: 100, broken: [40]).replacingOccurrences(of: #""name": "Band 39""#, with: #""name": "Band 39"]"#)
        _ = Self.expectSame(early, Self.operators, name: \.name)
    }

    /// Found by review: a batch whose last element was skipped read on, within the same
    /// `next()`, into the next batch's first element (cut one byte in): `56` was handed out as
    /// `5`, and an array went serial from there.
    @Test func aBatchWhoseLastElementIsSkippedStopsThere() {
        let ints: (JSONStream, ElementErrorPolicy, Parallelism) -> JSONElements<Int> = {
            $0.elements(of: Int.self, onError: $1, parallelism: $2)
        }
        let ndjson = Self.expectSame("1\n\"x\"\n56\n\"y\"\n\"z\"\n789\n10\n", options: JSONParsingOptions(allowsMultipleValues: true), ints, name: { "\($0)" })
        #expect(ndjson.events.filter { !$0.hasPrefix("skipped") } == ["1", "56", "789", "10"], "\(ndjson)")
        let values = (0..<300).map { $0 % 3 == 1 ? "\"s\($0)\"" : "\($0 * 1000 + 7)" }
        let array = "[" + values.joined(separator: ", ") + "]"
        let log = Self.expectSame(array, ints, name: { "\($0)" })
        #expect(log.events.filter { !$0.hasPrefix("skipped") }.count == 200 && log.count == 300)
        // The workers decoded every batch: none was read again on this thread.
        for batchBytes in [1, 8, 100] {
            let stream = JSONStream(.string(array))
            stream.parallelBatchBytes = batchBytes
            let elements = stream.elements(of: Int.self, onError: .skip { _ in }, parallelism: .workers(2))
            var handedOut: [Int] = []
            while let value = try? elements.next() { handedOut.append(value) }
            #expect(handedOut.count == 200 && elements.parallel?.engine.readSerially == false, "batches of \(batchBytes)")
        }
    }

    @Test func anElementTooDeepForAWorkersStackIsReadOnTheCallersThread() {
        let error = DecodeError(code: .tooDeep, keyPath: [0], message: "nesting too deep to decode on this thread's stack")
        let wrapped = DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "", underlyingError: error))
        #expect(ResumedErrors.isTooDeep(error) && ResumedErrors.isTooDeep(wrapped))
        #expect(!ResumedErrors.isElementError(error) && !ResumedErrors.isElementError(wrapped))
        #expect(!ResumedErrors.isTooDeep(DecodeError(code: .typeMismatch, keyPath: [0], message: "x")))
        let batch = DecodedBatch<Int>(batch: ElementBatch(number: 0, firstIndex: 0, start: nil, extent: .toArrayEnd), capacity: 1)
        batch.skipped(SkippedElement(index: 0, location: nil, error: DecodeError(code: .typeMismatch, keyPath: [0], message: "x")))
        #expect(!batch.skippedTooDeep)
        batch.skipped(SkippedElement(index: 1, location: nil, error: error))
        #expect(batch.skippedTooDeep && batch.elementCount == 2)
    }

    @Test func ndjsonValuesAreSkippedAsSerially() {
        let lines = (0..<500).map { $0 % 37 == 5 ? #"{"id": "x\#($0)", "name": "n", "tags": []}"# : ParallelInputs.element($0) }
        let text = lines.joined(separator: "\n")
        let items: (JSONStream, ElementErrorPolicy, Parallelism) -> JSONElements<ParallelInputs.Item> = {
            $0.elements(of: ParallelInputs.Item.self, decoder: StreamingJSONDecoder(), onError: $1, parallelism: $2)
        }
        let log = Self.expectSame(text, options: JSONParsingOptions(allowsMultipleValues: true), items, name: { "\($0.id)" })
        #expect(log.events.filter { $0.hasPrefix("skipped") }.count == 14 && log.count == 500)
    }
}
