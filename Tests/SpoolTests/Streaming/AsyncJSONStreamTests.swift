import Foundation
import Testing
@testable import Spool

@Suite("AsyncJSONStream")
struct AsyncJSONStreamTests {
    /// Hands out `text` in chunks of the given sizes, on demand, counting what was pulled.
    final class Chunker: @unchecked Sendable {
        private let lock = NSLock()
        private let bytes: [UInt8]
        private let sizes: [Int]
        private var offset = 0
        private var index = 0

        init(_ text: String, sizes: [Int]) {
            bytes = Array(text.utf8)
            self.sizes = sizes
        }

        func next() -> [UInt8]? {
            lock.withLock {
                guard offset < bytes.count else { return nil }
                let end = min(bytes.count, offset + sizes[index % sizes.count])
                defer {
                    offset = end
                    index += 1
                }
                return Array(bytes[offset..<end])
            }
        }
    }

    static func chunks(_ text: String, sizes: [Int], pulled: PullCounter? = nil) -> AsyncStream<[UInt8]> {
        let chunker = Chunker(text, sizes: sizes)
        return AsyncStream {
            guard let chunk = chunker.next() else { return nil }
            pulled?.add(chunk.count)
            return chunk
        }
    }

    final class PullCounter: @unchecked Sendable {
        private let lock = NSLock()
        private var total = 0
        func add(_ count: Int) { lock.withLock { total += count } }
        var bytes: Int { lock.withLock { total } }
    }

    @Test(arguments: [[1], [3, 1, 7], [64], [100_000]])
    func unevenChunksGiveTheSameBands(_ sizes: [Int]) async throws {
        let stream = AsyncJSONStream(.chunks(Self.chunks(JSONStreamTests.sample, sizes: sizes)))
        var names: [String] = []
        for try await band in stream.elements(of: Band.self, at: "objects") { names.append(band.name) }
        #expect(names == SeedModelTests.sampleNames)
        let updated = try await stream.remainder().value("last_updated", .iso8601)
        #expect(updated == SeedModelTests.sampleLastUpdated)
    }

    @Test func breakingOutStopsPullingInput() async throws {
        let text = JSONStreamTests.bigCatalog(5_000)
        let counter = PullCounter()
        let stream = AsyncJSONStream(.chunks(Self.chunks(text, sizes: [1024], pulled: counter)))
        for try await band in stream.elements(of: Band.self, at: "objects") {
            #expect(band.name == "Band 0")
            break
        }
        #expect(counter.bytes <= 2048)
        #expect(counter.bytes < text.utf8.count / 100)
    }

    @Test func streamsNDJSONBytes() async throws {
        var options = JSONParsingOptions()
        options.allowsMultipleValues = true
        let text = "{\"size\": 1, \"color\": \"a\"}\n\n{\"size\": 2, \"color\": \"b\"}\n"
        let bytes = AsyncStream<UInt8> { continuation in
            for byte in text.utf8 { continuation.yield(byte) }
            continuation.finish()
        }
        var sizes: [Int] = []
        for try await leaf in AsyncJSONStream(.bytes(bytes), options: options).elements(of: Leaf.self) { sizes.append(leaf.size) }
        #expect(sizes == [1, 2])
    }

    @Test func errorsNameTheElementAndSkippingGoesOn() async throws {
        let text = #"{"objects": [{"size": 1, "color": "a"}, {"size": "x", "color": "b"}, {"size": 3, "color": "c"}]}"#
        var thrown: DecodeError?
        do {
            for try await _ in AsyncJSONStream(.chunks(Self.chunks(text, sizes: [5]))).elements(of: Leaf.self, at: "objects") {}
        } catch let error as DecodeError {
            thrown = error
        }
        #expect(thrown?.keyPath == ["objects", 1, "size"])
        var skipped: [Int] = []
        var sizes: [Int] = []
        let lenient = AsyncJSONStream(.chunks(Self.chunks(text, sizes: [5]))).elements(
            of: Leaf.self, at: "objects", onError: .skip { skipped.append($0.index) })
        for try await leaf in lenient { sizes.append(leaf.size) }
        #expect(sizes == [1, 3] && skipped == [1])
    }

    /// An async byte sequence that is deliberately not `Sendable`, as many are.
    struct UnsendableBytes: AsyncSequence {
        let bytes: [UInt8]
        struct AsyncIterator: AsyncIteratorProtocol {
            let bytes: [UInt8]
            var offset = 0
            mutating func next() async throws -> UInt8? {
                guard offset < bytes.count else { return nil }
                defer { offset += 1 }
                return bytes[offset]
            }
        }
        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(bytes: bytes) }
    }

    /// The async API runs on its caller's actor, so main-actor code (and any actor) can hold a
    /// stream, pull its elements and its remainder, and feed it a non-`Sendable` sequence.
    /// Before, this did not compile in the Swift 6 language mode.
    @MainActor @Test func worksOnTheMainActor() async throws {
        let bytes = UnsendableBytes(bytes: Array(JSONStreamTests.sample.utf8))
        let stream = AsyncJSONStream(.bytes(bytes))
        var names: [String] = []
        for try await band in stream.elements(of: Band.self, at: "objects") { names.append(band.name) }
        let updated = try await stream.remainder().value("last_updated", .iso8601)
        #expect(names == SeedModelTests.sampleNames)
        #expect(updated == SeedModelTests.sampleLastUpdated)

        let reader = AsyncJSONReader(.bytes(bytes))
        #expect(try await reader.peek() == .objectStart)
        try await reader.skipValue()
        #expect(try await reader.next() == nil)
        let bands = try await [Band].decodeValue(from: .bytes(bytes), rootKeyPath: "objects")
        #expect(bands.map(\.name) == names)
    }

    /// Records on which actor its chunks are pulled.
    struct IsolationRecordingChunks: AsyncSequence {
        final class Log: @unchecked Sendable {
            private let lock = NSLock()
            private var onMain: [Bool] = []
            func add(_ value: Bool) { lock.withLock { onMain.append(value) } }
            var entries: [Bool] { lock.withLock { onMain } }
        }
        let chunks: [[UInt8]]
        let log: Log
        struct AsyncIterator: AsyncIteratorProtocol {
            var chunks: [[UInt8]]
            let log: Log
            mutating func next() async throws -> [UInt8]? {
                log.add(false)
                return chunks.isEmpty ? nil : chunks.removeFirst()
            }
            mutating func next(isolation actor: isolated (any Actor)?) async throws -> [UInt8]? {
                log.add((actor as AnyObject?) === MainActor.shared)
                return chunks.isEmpty ? nil : chunks.removeFirst()
            }
        }
        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(chunks: chunks, log: log) }
    }

    /// `for try await` over the elements reads on the caller's actor, as every other async
    /// member does, so the stream is never touched from two threads.
    @MainActor @Test func elementsAreReadOnTheCallersActor() async throws {
        let bytes = Array(JSONStreamTests.sample.utf8)
        let log = IsolationRecordingChunks.Log()
        let chunks = stride(from: 0, to: bytes.count, by: 50).map { Array(bytes[$0..<min(bytes.count, $0 + 50)]) }
        let stream = AsyncJSONStream(.chunks(IsolationRecordingChunks(chunks: chunks, log: log)))
        var names: [String] = []
        for try await band in stream.elements(of: Band.self, at: "objects") { names.append(band.name) }
        _ = try await stream.remainder()
        #expect(names == SeedModelTests.sampleNames)
        #expect(log.entries.count > 4 && log.entries.allSatisfy { $0 }, "\(log.entries)")
    }

    @Test func worksInADetachedTask() async throws {
        let count = try await Task.detached {
            let stream = AsyncJSONStream(.chunks(Self.chunks(JSONStreamTests.sample, sizes: [9])))
            var members = 0
            for try await band in stream.elements(of: Band.self, at: "objects") { members += band.members.count }
            return members
        }.value
        #expect(count == 16)
    }
}
