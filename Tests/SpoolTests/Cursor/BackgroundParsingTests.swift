import Foundation
import Testing
@testable import Spool

@Suite("Background parsing")
struct BackgroundParsingTests {
    static let works: [JSONReader.Work] = [.tokens, .models]

    /// The object running on the background thread, if any.
    static func backgroundObject(of reader: JSONReader) -> AnyObject? {
        guard let pipeline = reader.pipeline, pipeline.isInBackground else { return nil }
        return pipeline
    }

    static func outcome(
        _ bytes: [UInt8], chunkSize: Int, inBackground: Bool, work: JSONReader.Work = .tokens
    ) -> (ReadOutcome, Bool) {
        var options = JSONParsingOptions()
        options.parsesInBackground = inBackground
        var reader: JSONReader?
        let outcome = readAll(bytes, chunkSize: chunkSize, options: options, work: work) {
            reader = $0
        }
        return (outcome, reader?.isParsingInBackground ?? false)
    }

    @Test(arguments: [1, 5], works)
    func sameTokensAndErrorsAsOnTheReadersThread(_ chunkSize: Int, _ work: JSONReader.Work) {
        for name in ConformanceTests.all {
            let bytes = Fixtures.bytes(name)
            let (direct, _) = Self.outcome(bytes, chunkSize: chunkSize, inBackground: false)
            let (background, used) = Self.outcome(bytes, chunkSize: chunkSize, inBackground: true, work: work)
            #expect(background == direct, "\(name)")
            #expect(used == (bytes.count > 4 * chunkSize), "\(name): \(bytes.count) bytes")
        }
    }

    /// A document decoded whole from memory parses on the caller's thread below
    /// `wholeDocumentThreadMinimum` (16 MiB by default): a thread did not pay there (issue 21).
    @Test func smallDocumentsDecodedWholeFromMemoryUseOneThread() throws {
        let text = "[" + Array(repeating: #"{"a": [1, 2, 3], "b": "x"}"#, count: 40_000).joined(separator: ",") + "]"
        #expect(text.utf8.count > 1_000_000)
        for (minimum, threaded) in [(JSONParsingOptions().wholeDocumentThreadMinimum, false), (text.utf8.count, true), (text.utf8.count + 1, false)] {
            var options = JSONParsingOptions()
            options.wholeDocumentThreadMinimum = minimum
            let reader = JSONReader(.string(text), options: options, work: .models)
            for _ in 0..<10 { _ = try reader.next() }
            #expect(reader.isParsingInBackground == threaded, "minimum \(minimum)")
            // Tokens for a cursor are still read ahead on the thread.
            let cursor = JSONReader(.string(text), options: options, work: .tokens)
            for _ in 0..<10 { _ = try cursor.next() }
            #expect(cursor.isParsingInBackground)
        }
    }

    @Test(arguments: works)
    func skipsLargeContainersAcrossBatches(_ work: JSONReader.Work) throws {
        let inner = "[" + (0..<5000).map { "{\"i\": \($0)}" }.joined(separator: ",") + "]"
        var options = JSONParsingOptions()
        options.chunkSize = 256
        options.wholeDocumentThreadMinimum = 0
        let reader = JSONReader(.string("{\"big\": \(inner), \"after\": true}"), options: options, work: work)
        #expect(try reader.next() == .objectStart)
        #expect(try reader.next() == .key)
        try reader.skipValue()
        #expect(reader.isParsingInBackground)
        #expect(try reader.next() == .key)
        #expect(reader.textEquals("after"))
        #expect(reader.path == ["after"])
    }

    @Test(arguments: works)
    func droppingAReaderEarlyStopsTheBackgroundThread(_ work: JSONReader.Work) async throws {
        let text = "[" + Array(repeating: #"{"a": [1, 2, 3], "b": "x"}"#, count: 50_000).joined(separator: ",") + "]"
        var options = JSONParsingOptions()
        options.chunkSize = 1024
        options.wholeDocumentThreadMinimum = 0
        weak var parser: AnyObject?
        do {
            let reader = JSONReader(.string(text), options: options, work: work)
            for _ in 0..<10 { _ = try reader.next() }
            parser = Self.backgroundObject(of: reader)
            #expect(parser != nil)
            #expect(reader.bytesRead < text.utf8.count / 10)  // it read only a prefix
        }
        for _ in 0..<200 where parser != nil { try await Task.sleep(for: .milliseconds(10)) }
        #expect(parser == nil)
    }

    @Test(arguments: works)
    func aBlockedPipeDoesNotHangTheReader(_ work: JSONReader.Work) async throws {
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data(#"[1, 2, 3, "#.utf8))
        weak var parser: AnyObject?
        do {
            let reader = JSONReader(.fileDescriptor(pipe.fileHandleForReading.fileDescriptor, closeWhenDone: false), options: .init(), work: work)
            #expect(try reader.next() == .arrayStart)
            #expect(try reader.next() == .number)
            parser = Self.backgroundObject(of: reader)
            #expect(parser != nil)
        }  // the reader is gone while its thread waits in read(2)
        try pipe.fileHandleForWriting.close()
        for _ in 0..<200 where parser != nil { try await Task.sleep(for: .milliseconds(10)) }
        #expect(parser == nil)
    }
}
