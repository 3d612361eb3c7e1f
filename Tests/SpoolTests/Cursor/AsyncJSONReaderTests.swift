import Testing
@testable import Spool

@Suite("AsyncJSONReader")
struct AsyncJSONReaderTests {
    static let text = #"{"objects": [{"name": "Nirvana", "members": [{"name": "Kurt"}]}, {"name": "Hole"}], "n": 1.5e3}"#

    static func chunks(_ text: String, sizes: [Int]) -> AsyncStream<[UInt8]> {
        let bytes = Array(text.utf8)
        return AsyncStream { continuation in
            var offset = 0
            var index = 0
            while offset < bytes.count {
                let size = sizes[index % sizes.count]
                continuation.yield(Array(bytes[offset..<min(bytes.count, offset + size)]))
                offset += size
                index += 1
            }
            continuation.finish()
        }
    }

    static func records(_ reader: AsyncJSONReader) async throws -> [String] {
        var records: [String] = []
        while let token = try await reader.next() {
            records.append("\(token) \(reader.text ?? "") \(reader.path) \(reader.location?.description ?? "")")
        }
        return records
    }

    static func syncRecords(_ text: String) throws -> [String] {
        let reader = JSONReader(.string(text))
        var records: [String] = []
        while let token = try reader.next() {
            records.append("\(token) \(reader.text ?? "") \(reader.path) \(reader.location?.description ?? "")")
        }
        return records
    }

    @Test func unevenChunksGiveTheSameTokensAsASyncReader() async throws {
        let expected = try Self.syncRecords(Self.text)
        for sizes in [[1], [3, 1, 7], [0, 5, 2], [1000]] {
            let reader = AsyncJSONReader(.chunks(Self.chunks(Self.text, sizes: sizes.map { max($0, 1) })))
            #expect(try await Self.records(reader) == expected, "sizes \(sizes)")
        }
    }

    @Test func byteSequencesAreGatheredIntoChunks() async throws {
        let bytes = AsyncStream<UInt8> { continuation in
            for byte in Self.text.utf8 { continuation.yield(byte) }
            continuation.finish()
        }
        var options = JSONParsingOptions()
        options.chunkSize = 16
        let reader = AsyncJSONReader(.bytes(bytes), options: options)
        #expect(try await Self.records(reader) == (try Self.syncRecords(Self.text)))
        #expect(reader.bytesRead == Self.text.utf8.count)
    }

    @Test func errorsCarryTheirLocation() async throws {
        let reader = AsyncJSONReader(.chunks(Self.chunks(#"{"a": [1, 2,, 3]}"#, sizes: [2])))
        await #expect {
            while try await reader.next() != nil {}
        } throws: { error in
            (error as? ParseError)?.summary == "1:13: error: expected a value, found ',' (at a[2])"
        }
    }

    @Test func skipValueAwaitsTheWholeValue() async throws {
        let reader = AsyncJSONReader(.chunks(Self.chunks(Self.text, sizes: [4])))
        #expect(try await reader.next() == .objectStart)
        try await reader.skipValue()  // "objects" and its array
        #expect(try await reader.next() == .key)
        #expect(reader.textEquals("n"))
    }

    @Test func worksInsideATask() async throws {
        let count = try await Task.detached {
            let reader = AsyncJSONReader(.chunks(Self.chunks(Self.text, sizes: [5])))
            var strings = 0
            while let token = try await reader.next() {
                if token == .string { strings += 1 }
            }
            return strings
        }.value
        #expect(count == 3)
    }
}
