import Foundation
import Testing
@testable import Spool

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Writing sequences")
struct WriterSequenceTests {
    struct Record: Codable, Equatable {
        var id: Int
        var name: String
    }

    static func records(_ count: Int) -> some Sequence<Record> {
        (0..<count).lazy.map { Record(id: $0, name: "record \($0)") }
    }

    @Test func aSequenceAsOneArray() throws {
        let writer = JSONWriter()
        let encoder = StreamingJSONEncoder()
        encoder.outputFormatting = .sortedKeys
        try writer.writeArray(Self.records(3), encoder: encoder)
        try writer.finish()
        let foundation = JSONEncoder()
        foundation.outputFormatting = .sortedKeys
        #expect(writer.data == (try foundation.encode(Array(Self.records(3)))))
    }

    @Test func anArrayNestedInAnObjectWithSortedKeys() throws {
        let writer = JSONWriter(format: .pretty())
        let encoder = StreamingJSONEncoder()
        encoder.outputFormatting = .sortedKeys
        try writer.beginObject()
        try writer.key("records")
        try writer.writeArray(Self.records(2), encoder: encoder)
        try writer.key("empty")
        try writer.writeArray([Record](), encoder: encoder)
        try writer.endObject()
        try writer.finish()
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.prettyPrinted, .sortedKeys]
        struct Both: Encodable {
            var records: [Record]
            var empty: [Record]
            enum CodingKeys: String, CodingKey { case records, empty }
        }
        // JSONEncoder sorts the outer keys too; compare the arrays' lines.
        let expected = String(decoding: try foundation.encode(Both(records: Array(Self.records(2)), empty: [])), as: UTF8.self)
        let text = String(decoding: writer.bytes, as: UTF8.self)
        #expect(text.contains(expected.components(separatedBy: "\"records\" : ")[1].dropLast(2)))
        #expect(text.hasPrefix("{\n  \"records\" : [\n    {\n      \"id\" : 0,\n      \"name\" : \"record 0\"\n    },"))
    }

    @Test func aSequenceAsJSONLines() throws {
        let writer = JSONWriter(format: .lines)
        try writer.writeLines(Self.records(3))
        try writer.writeLines(["more"])
        try writer.finish()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == """
            {"id":0,"name":"record 0"}
            {"id":1,"name":"record 1"}
            {"id":2,"name":"record 2"}
            "more"

            """)
    }

    @Test func linesNeedALinesWriterAtItsTopLevel() throws {
        let compact = JSONWriter()
        let error = #expect(throws: WriteError.self) { try compact.writeLines(Self.records(1)) }
        #expect(error?.message == "writeLines needs a writer whose format is .lines (or jq's layout); use writeArray for one JSON array")
        let lines = JSONWriter(format: .lines)
        try lines.beginArray()
        #expect(throws: WriteError.self) { try lines.writeLines(Self.records(1)) }
    }

    @Test func aFailingElementStopsTheLinesAfterTheLastGoodOne() throws {
        let writer = JSONWriter(format: .lines)
        let values: [Double] = [1, 2, .nan, 4]
        #expect(throws: EncodingError.self) { try writer.writeLines(values) }
        try writer.finish()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "1\n2\n")
    }

    @Test func aMillionLinesInConstantMemory() throws {
        let fd = open("/dev/null", O_WRONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        let writer = JSONWriter(fileDescriptor: fd, format: .lines)
        try writer.writeLines(Self.records(300_000))
        try writer.finish()
        #expect(writer.bytesWritten > 9_000_000)
        #expect(writer.capacity == JSONWriter.flushSize)
    }

    /// Records, for each element pulled, how many bytes the writer had written by then.
    struct Watched: AsyncSequence {
        typealias Element = Record
        let count: Int
        let writer: JSONWriter
        let log: Log

        final class Log: @unchecked Sendable {
            var bytesAtPull: [Int] = []
        }

        struct AsyncIterator: AsyncIteratorProtocol {
            var index = 0
            let count: Int
            let writer: JSONWriter
            let log: Log
            mutating func next() async -> Record? {
                guard index < count else { return nil }
                await Task.yield()
                log.bytesAtPull.append(writer.bytesWritten)
                index += 1
                return Record(id: index, name: "async \(index)")
            }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(count: count, writer: writer, log: log) }
    }

    @Test func anAsyncSequenceIsWrittenElementByElement() async throws {
        let writer = JSONWriter(format: .lines)
        let log = Watched.Log()
        try await writer.writeLines(Watched(count: 5, writer: writer, log: log))
        try writer.finish()
        // Each element was written before the next one was asked for.
        #expect(log.bytesAtPull.count == 5)
        #expect(zip(log.bytesAtPull, log.bytesAtPull.dropFirst()).allSatisfy { $0 < $1 })
        #expect(String(decoding: writer.bytes, as: UTF8.self).split(separator: "\n").count == 5)
    }

    @Test func anAsyncSequenceAsOneArray() async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: Record.self)
        for record in Self.records(4) { continuation.yield(record) }
        continuation.finish()
        let writer = JSONWriter()
        try await writer.writeArray(stream)
        try writer.finish()
        #expect(try JSONDecoder().decode([Record].self, from: writer.data) == Array(Self.records(4)))
    }

    @Test func anAsyncSequencesErrorStopsTheArray() async throws {
        struct Broken: Error {}
        let stream = AsyncThrowingStream<Record, any Error> { continuation in
            continuation.yield(Record(id: 1, name: "one"))
            continuation.finish(throwing: Broken())
        }
        let writer = JSONWriter()
        await #expect(throws: Broken.self) { try await writer.writeArray(stream) }
        #expect(writer.depth == 1)
        try writer.endArray()
        try writer.finish()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"[{"id":1,"name":"one"}]"#)
    }
}
