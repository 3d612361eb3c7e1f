/// Where an ``AsyncJSONReader`` gets its input: a chunk at a time, pulled from an
/// `AsyncSequence` and then handed to the reader.
///
/// Pulling and handing over are two steps so that a chunk that arrives after the task was
/// cancelled can be dropped (see ``AsyncJSONReader/fill()``), and so that a chunk is copied
/// once, straight into the reader's window, whatever its type: `Data`, `[UInt8]`, a NIO
/// `ByteBuffer`'s `readableBytesView` or any sequence with contiguous storage is read without
/// a loop over its bytes (others are gathered into an array first).
///
/// A protocol rather than a stored `() async throws -> [UInt8]?` closure: with nonisolated async
/// code running on its caller's actor (Package.swift), the stored closure crashed in the Swift
/// 6.3.1 runtime (`_swift_implicitisolationactor_to_executor_cast`) when awaited from a test.
protocol ChunkSource: AnyObject {
    /// Pulls the next chunk and holds it for ``handOver(to:)``; false at the end of the input.
    func pull() async throws -> Bool
    /// Appends the chunk pulled last to `reader` and lets go of it.
    func handOver(to reader: JSONReader) throws(ParseError)
}

/// Gathers an async byte sequence into chunks of the reader's chunk size.
final class BytePuller<Iterator: AsyncIteratorProtocol>: ChunkSource where Iterator.Element == UInt8 {
    private var iterator: Iterator
    private let chunkSize: Int
    private var ended = false
    private var pending: [UInt8] = []

    init(_ iterator: Iterator, chunkSize: Int) {
        self.iterator = iterator
        self.chunkSize = chunkSize
    }

    func pull() async throws -> Bool {
        guard !ended else { return false }
        var chunk: [UInt8] = []
        chunk.reserveCapacity(chunkSize)
        while chunk.count < chunkSize {
            // A byte source that ignores cancellation is not read for a whole chunk more.
            if chunk.count & 0xFFF == 0xFFF && Task.isCancelled { throw CancellationError() }
            guard let byte = try await iterator.next(isolation: #isolation) else {
                ended = true
                break
            }
            chunk.append(byte)
        }
        pending = chunk
        return !chunk.isEmpty
    }

    func handOver(to reader: JSONReader) throws(ParseError) {
        let chunk = pending
        pending = []
        try reader.append(chunk)
    }
}

/// Hands out an async sequence's chunks as they come, of any size and any byte sequence type.
final class ChunkPuller<Iterator: AsyncIteratorProtocol>: ChunkSource
where Iterator.Element: Sequence, Iterator.Element.Element == UInt8 {
    private var iterator: Iterator
    private var pending: Iterator.Element?

    init(_ iterator: Iterator) {
        self.iterator = iterator
    }

    func pull() async throws -> Bool {
        pending = try await iterator.next(isolation: #isolation)
        return pending != nil
    }

    func handOver(to reader: JSONReader) throws(ParseError) {
        guard let chunk = pending else { return }
        pending = nil
        try reader.append(chunk)
    }
}
