import Foundation
import Testing
@testable import Spool

/// Cancelling the task that reads an `AsyncSequence` ends every async entry point with a
/// `CancellationError`, and stops reading: whether the source ends when its task is cancelled
/// (`AsyncThrowingStream(unfolding:)`, where the end used to be reported as a truncated
/// document) or ignores cancellation (which used to be read and decoded to its end).
///
/// No sleeps: the source parks on a chosen pull until the test has cancelled the task, so the
/// cancellation lands at a known point however loaded the machine is.
@Suite("Async cancellation")
struct AsyncCancellationTests {
    /// A one-shot signal. `wait()` returns once `signal()` has been called, before or after;
    /// it does not end on cancellation (so a source waiting on it ignores cancellation).
    final class Event: @unchecked Sendable {
        private let lock = NSLock()
        private var signalled = false
        private var waiter: CheckedContinuation<Void, Never>?

        func signal() {
            let waiter = lock.withLock { () -> CheckedContinuation<Void, Never>? in
                signalled = true
                defer { self.waiter = nil }
                return self.waiter
            }
            waiter?.resume()
        }

        func wait() async {
            await withCheckedContinuation { continuation in
                let now = lock.withLock { () -> Bool in
                    if signalled { return true }
                    waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        }
    }

    /// The input: an array (or object) of `chunkCount * perChunk` elements, handed out a chunk
    /// of `perChunk` elements per pull, then its closing bracket, then the end. Counts the
    /// pulls; pull number `parkAt` waits for `resume` before returning its chunk.
    final class Feed: @unchecked Sendable {
        let isObject: Bool
        let chunkCount: Int
        let perChunk: Int
        let parkAt: Int?
        let parked = Event()
        let resume = Event()
        private let lock = NSLock()
        private var pulled = 0
        private var bytes = 0

        init(object: Bool = false, chunkCount: Int = 400, perChunk: Int = 100, parkAt: Int? = nil) {
            isObject = object
            self.chunkCount = chunkCount
            self.perChunk = perChunk
            self.parkAt = parkAt
        }

        var elementCount: Int { chunkCount * perChunk }

        /// Chunks pulled so far.
        var pulls: Int { lock.withLock { pulled } }

        /// Bytes pulled so far.
        var bytesPulled: Int { lock.withLock { bytes } }

        /// Whether no more was pulled than the first chunk the reader asks for: one pull of
        /// chunks, or the first 64 KiB gathered from bytes (and the rest of the pull that ends it).
        func pulledOnlyTheFirstChunk(bytes isBytes: Bool) -> Bool {
            isBytes ? bytesPulled <= JSONParsingOptions().effectiveChunkSize + 4_096 : pulls <= 1
        }

        func pull() async -> [UInt8]? {
            let number = lock.withLock { () -> Int in
                pulled += 1
                return pulled
            }
            if number == parkAt {
                parked.signal()
                await resume.wait()
            }
            let chunk = chunk(number - 1)
            lock.withLock { bytes += chunk?.count ?? 0 }
            return chunk
        }

        private func chunk(_ index: Int) -> [UInt8]? {
            if index == chunkCount { return Array((isObject ? "}" : "]").utf8) }
            guard index < chunkCount else { return nil }
            var text = index == 0 ? (isObject ? "{" : "[") : ","
            for element in index * perChunk..<(index + 1) * perChunk {
                if element > index * perChunk { text += "," }
                if isObject { text += "\"k\(element)\":" }
                text += "{\"size\":\(element),\"color\":\"c\"}"
            }
            return Array(text.utf8)
        }
    }

    /// Chunks from a feed, by an iterator that never looks at cancellation.
    struct IgnoringChunks: AsyncSequence, Sendable {
        let feed: Feed
        struct AsyncIterator: AsyncIteratorProtocol {
            let feed: Feed
            mutating func next() async -> [UInt8]? { await feed.pull() }
        }
        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(feed: feed) }
    }

    /// The bytes of a feed's chunks, by an iterator that never looks at cancellation.
    struct IgnoringBytes: AsyncSequence, Sendable {
        let feed: Feed
        struct AsyncIterator: AsyncIteratorProtocol {
            let feed: Feed
            var chunk: [UInt8] = []
            var offset = 0
            mutating func next() async -> UInt8? {
                while offset == chunk.count {
                    guard let next = await feed.pull() else { return nil }
                    chunk = next
                    offset = 0
                }
                defer { offset += 1 }
                return chunk[offset]
            }
        }
        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(feed: feed) }
    }

    /// Where the input comes from: the `AsyncThrowingStream(unfolding:)` of the README (which
    /// ends when its task is cancelled) or a sequence that ignores cancellation; chunks or bytes.
    enum Source: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case unfoldingChunks, ignoringChunks, unfoldingBytes, ignoringBytes

        var testDescription: String { rawValue }

        var isBytes: Bool { self == .unfoldingBytes || self == .ignoringBytes }

        /// Runs `entry` over `feed`: the elements (members, tokens) it handed out.
        func run(_ entry: Entry, _ feed: Feed, onElement: () -> Void = {}) async throws -> Int {
            switch self {
            case .unfoldingChunks:
                return try await entry.run(chunks: AsyncThrowingStream<[UInt8], any Error>(unfolding: { await feed.pull() }), onElement)
            case .ignoringChunks:
                return try await entry.run(chunks: IgnoringChunks(feed: feed), onElement)
            case .unfoldingBytes:
                let box = IteratorBox(IgnoringBytes(feed: feed).makeAsyncIterator())
                return try await entry.run(bytes: AsyncThrowingStream<UInt8, any Error>(unfolding: { await box.next() }), onElement)
            case .ignoringBytes:
                return try await entry.run(bytes: IgnoringBytes(feed: feed), onElement)
            }
        }
    }

    /// A byte iterator for an unfolding closure (called by one task at a time).
    final class IteratorBox: @unchecked Sendable {
        var iterator: IgnoringBytes.AsyncIterator
        init(_ iterator: IgnoringBytes.AsyncIterator) { self.iterator = iterator }
        func next() async -> UInt8? { await iterator.next() }
    }

    /// A `Decodable` element, for the Codable entry points.
    struct Piece: Decodable {
        let size: Int
        let color: String
    }

    /// Every async entry point that reads an `AsyncSequence`.
    enum Entry: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case elements, decodableElements, members, decodableMembers, count, remainder
        case readerTokens, readerSkipValue, decoderDecode, decodeValue

        var testDescription: String { rawValue }

        /// Whether the input is an object (else an array).
        var readsObject: Bool { self == .members || self == .decodableMembers }

        func run<Chunks: AsyncSequence>(chunks: Chunks, _ onElement: () -> Void) async throws -> Int
        where Chunks.Element == [UInt8] {
            switch self {
            case .elements, .decodableElements, .members, .decodableMembers, .count, .remainder:
                return try await stream(AsyncJSONStream(.chunks(chunks)), onElement)
            case .readerTokens, .readerSkipValue:
                return try await reader(AsyncJSONReader(.chunks(chunks)), onElement)
            case .decoderDecode:
                return try await StreamingJSONDecoder().decode([Piece].self, from: .chunks(chunks)).count
            case .decodeValue:
                return try await [Leaf].decodeValue(from: .chunks(chunks)).count
            }
        }

        func run<Bytes: AsyncSequence>(bytes: Bytes, _ onElement: () -> Void) async throws -> Int where Bytes.Element == UInt8 {
            switch self {
            case .elements, .decodableElements, .members, .decodableMembers, .count, .remainder:
                return try await stream(AsyncJSONStream(.bytes(bytes)), onElement)
            case .readerTokens, .readerSkipValue:
                return try await reader(AsyncJSONReader(.bytes(bytes)), onElement)
            case .decoderDecode:
                return try await StreamingJSONDecoder().decode([Piece].self, from: .bytes(bytes)).count
            case .decodeValue:
                return try await [Leaf].decodeValue(from: .bytes(bytes)).count
            }
        }

        private func stream(_ stream: AsyncJSONStream, _ onElement: () -> Void) async throws -> Int {
            var count = 0
            switch self {
            case .elements:
                for try await _ in stream.elements(of: Leaf.self) { count += 1; onElement() }
            case .decodableElements:
                for try await _ in stream.elements(of: Piece.self, decoder: StreamingJSONDecoder()) { count += 1; onElement() }
            case .members:
                for try await _ in stream.members(of: Leaf.self) { count += 1; onElement() }
            case .decodableMembers:
                for try await _ in stream.members(of: Piece.self, decoder: StreamingJSONDecoder()) { count += 1; onElement() }
            case .count:
                count = try await stream.count()
            default:
                count = try await stream.remainder().decode(as: [Leaf].self).count
            }
            return count
        }

        private func reader(_ reader: AsyncJSONReader, _ onElement: () -> Void) async throws -> Int {
            if self == .readerSkipValue {
                try await reader.skipValue()
                return 1
            }
            var count = 0
            while try await reader.next() != nil { count += 1; onElement() }
            return count
        }
    }

    /// What a run ended with.
    enum Outcome: Equatable, CustomStringConvertible {
        case value(Int)
        case cancelled
        case other(String)

        init(_ result: Result<Int, any Error>) {
            switch result {
            case .success(let value): self = .value(value)
            case .failure(let error) where error is CancellationError: self = .cancelled
            case .failure(let error): self = .other("\(type(of: error)): \(error)")
            }
        }

        var description: String {
            switch self {
            case .value(let value): return "a value (\(value))"
            case .cancelled: return "CancellationError"
            case .other(let error): return error
            }
        }
    }

    /// The harness reads the whole input when nothing is cancelled.
    @Test(arguments: Entry.allCases, Source.allCases)
    func uncancelledRunsReadEverything(_ entry: Entry, _ source: Source) async throws {
        let feed = Feed(object: entry.readsObject, chunkCount: 20)
        let result = try await source.run(entry, feed)
        switch entry {
        case .readerTokens: #expect(result == 2 + feed.elementCount * (entry.readsObject ? 7 : 6))
        case .readerSkipValue: #expect(result == 1)
        default: #expect(result == feed.elementCount)
        }
        #expect(feed.pulls >= feed.chunkCount + 1)
    }

    /// Cancelled while it awaits a chunk: `CancellationError`, and nothing pulled afterwards
    /// (bytes: at most the rest of the 4 KiB the byte gatherer checks after). Before, the
    /// unfolding source's end came out as `unexpected end of input`, and the other source was
    /// read to its end.
    @Test(arguments: Entry.allCases, Source.allCases)
    func cancellingWhileAwaitingInputThrowsCancellationError(_ entry: Entry, _ source: Source) async throws {
        let feed = Feed(object: entry.readsObject, parkAt: 3)
        let afterCancel = Counter()
        let task = Task {
            try await source.run(entry, feed) { if Task.isCancelled { afterCancel.add() } }
        }
        await feed.parked.wait()
        task.cancel()
        let pullsAtCancel = feed.pulls
        feed.resume.signal()
        let outcome = Outcome(await task.result)
        #expect(outcome == .cancelled)
        #expect(feed.pulls - pullsAtCancel <= (source.isBytes ? 2 : 0), "pulled \(feed.pulls) of \(feed.chunkCount + 2)")
        #expect(afterCancel.value == 0, "handed out \(afterCancel.value) after the cancellation")
    }

    /// Cancelled before it starts: `CancellationError`, and not a single chunk pulled. Before,
    /// the unfolding source reported an input holding no value, the other was read whole.
    @Test(arguments: Entry.allCases, Source.allCases)
    func cancellingBeforeTheFirstElementPullsNothing(_ entry: Entry, _ source: Source) async throws {
        let feed = Feed(object: entry.readsObject)
        let start = Event()
        let task = Task {
            await start.wait()
            return try await source.run(entry, feed)
        }
        task.cancel()
        start.signal()
        let outcome = Outcome(await task.result)
        #expect(outcome == .cancelled)
        #expect(feed.pulls == 0)
    }

    /// Cancelled between two elements that are already parsed (one chunk holds 100): fewer
    /// than ``AsyncJSONStream/cancellationCheckInterval`` more are handed out, and no input is
    /// pulled. Before, the rest of the input was handed out (ignoring source), or the rest of
    /// the chunk and then a truncation error (unfolding).
    @Test(arguments: [Entry.elements, .decodableElements, .members, .decodableMembers], Source.allCases)
    func cancellingBetweenElementsHandsOutNoMore(_ entry: Entry, _ source: Source) async throws {
        let feed = Feed(object: entry.readsObject)
        let handedOut = Counter()
        let task = Task {
            try await source.run(entry, feed) {
                handedOut.add()
                if handedOut.value == 5 { withUnsafeCurrentTask { $0?.cancel() } }
            }
        }
        let outcome = Outcome(await task.result)
        #expect(outcome == .cancelled)
        #expect(handedOut.value < 5 + AsyncJSONStream.cancellationCheckInterval)
        #expect(feed.pulledOnlyTheFirstChunk(bytes: source.isBytes), "pulled \(feed.pulls) of \(feed.chunkCount + 2)")
    }

    /// A reader cancelled between two tokens hands out the tokens of the chunk in hand (a check
    /// per token would cost more than the token) and throws when it needs the next one.
    /// Before, it read on to the end of the input (ignoring source), or threw a truncation
    /// error (unfolding).
    @Test(arguments: Source.allCases)
    func cancellingAReaderStopsAtTheNextChunk(_ source: Source) async throws {
        let feed = Feed()
        let handedOut = Counter()
        let task = Task {
            try await source.run(.readerTokens, feed) {
                handedOut.add()
                if handedOut.value == 5 { withUnsafeCurrentTask { $0?.cancel() } }
            }
        }
        let outcome = Outcome(await task.result)
        #expect(outcome == .cancelled)
        #expect(feed.pulledOnlyTheFirstChunk(bytes: source.isBytes), "pulled \(feed.pulls) of \(feed.chunkCount + 2)")
        #expect(handedOut.value < 6 * feed.elementCount / 10)
    }

    /// Once cancelled, a stream stays ended: its elements end, and the remainder throws
    /// `CancellationError` without pulling more input.
    @Test(arguments: Source.allCases)
    func aCancelledStreamStaysCancelled(_ source: Source) async throws {
        let feed = Feed()
        let task = Task { () -> [String] in
            switch source {
            case .unfoldingChunks:
                return await Self.cancelAfterThree(AsyncJSONStream(.chunks(AsyncThrowingStream<[UInt8], any Error>(unfolding: { await feed.pull() }))))
            case .ignoringChunks:
                return await Self.cancelAfterThree(AsyncJSONStream(.chunks(IgnoringChunks(feed: feed))))
            case .unfoldingBytes:
                let box = IteratorBox(IgnoringBytes(feed: feed).makeAsyncIterator())
                return await Self.cancelAfterThree(AsyncJSONStream(.bytes(AsyncThrowingStream<UInt8, any Error>(unfolding: { await box.next() }))))
            case .ignoringBytes:
                return await Self.cancelAfterThree(AsyncJSONStream(.bytes(IgnoringBytes(feed: feed))))
            }
        }
        #expect(await task.value == ["CancellationError", "then nil", "remainder: CancellationError"])
        #expect(feed.pulledOnlyTheFirstChunk(bytes: source.isBytes), "pulled \(feed.pulls) of \(feed.chunkCount + 2)")
    }

    /// Asynchronous input is parsed on the task that reads it, even with background parsing
    /// asked for: when a cancellation ends the read there is no thread left to stop.
    @Test func asyncInputIsParsedOnTheReadingTask() async throws {
        var options = JSONParsingOptions()
        options.parsesInBackground = true
        let feed = Feed(chunkCount: 40)
        let stream = AsyncJSONStream(.chunks(IgnoringChunks(feed: feed)), options: options)
        #expect(try await stream.count() == feed.elementCount)
        #expect(!stream.input.reader.isParsingInBackground)
        let reader = AsyncJSONReader(.chunks(IgnoringChunks(feed: Feed(chunkCount: 40))), options: options)
        while try await reader.next() != nil {}
        #expect(!reader.reader.isParsingInBackground)
    }

    /// Cancels its task after three elements of `stream`, then asks for more: what each call gave.
    static func cancelAfterThree(_ stream: AsyncJSONStream) async -> [String] {
        var log: [String] = []
        let elements = stream.elements(of: Leaf.self)
        var iterator = elements.makeAsyncIterator()
        do {
            while try await iterator.next() != nil {
                if elements.count == 3 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            log.append("ended")
        } catch {
            log.append("\(type(of: error))")
        }
        do {
            log.append(try await iterator.next() == nil ? "then nil" : "then an element")
        } catch {
            log.append("then \(type(of: error))")
        }
        do {
            _ = try await stream.remainder()
            log.append("remainder")
        } catch {
            log.append("remainder: \(type(of: error))")
        }
        return log
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }
}
