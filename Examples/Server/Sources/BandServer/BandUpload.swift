import BandCatalog
import Spool

/// One upload: a catalog body streamed into the store as it arrives.
///
/// The body's chunks (Hummingbird's `ByteBuffer`s, as `readableBytesView`s) go straight to an
/// ``AsyncJSONStream``, which decodes each element of `objects` as soon as its last byte has
/// arrived: nothing collects the body, and memory holds one batch of bands at most.
public struct BandUpload: Sendable {
    /// Bands per transaction.
    public var batchSize = 2_000
    /// The largest body taken, in bytes; nil for no limit. A longer body is refused with
    /// ``TooLarge`` once that many bytes have arrived, and stores nothing.
    public var maximumBodySize: Int?

    /// A body over ``maximumBodySize``.
    public struct TooLarge: Error, CustomStringConvertible {
        public var limit: Int
        public var description: String { "the body is larger than \(limit) bytes, the most this server takes" }
    }

    let store: BandStore

    public init(store: BandStore) {
        self.store = store
    }

    /// Stores the catalog `chunks` hold and returns how many bands it had. A body that is not a
    /// whole, valid catalog stores nothing and throws its located error (``ParseError`` or
    /// ``DecodeError``).
    public func receive<Chunks: AsyncSequence>(_ chunks: Chunks) async throws -> Int
    where Chunks.Element: Sequence, Chunks.Element.Element == UInt8 {
        let upload = try await store.beginUpload()
        do {
            let stream = AsyncJSONStream(.chunks(Limited(chunks: chunks, limit: maximumBodySize)))
            var batch: [Band] = []
            batch.reserveCapacity(batchSize)
            var count = 0
            for try await band in stream.elements(of: Band.self, at: "objects") {
                batch.append(band)
                count += 1
                if batch.count == batchSize {
                    try await store.store(batch, upload: upload)
                    batch.removeAll(keepingCapacity: true)
                }
            }
            try await stream.finish()  // the rest of the body must be valid too
            if !batch.isEmpty { try await store.store(batch, upload: upload) }
            try await store.completeUpload(upload)
            return count
        } catch {
            try? await store.discardUpload(upload)
            throw error
        }
    }
}

/// A body's chunks, refused with ``BandUpload/TooLarge`` once more than `limit` bytes have
/// come (counted as they pass; nothing is held).
struct Limited<Chunks: AsyncSequence>: AsyncSequence where Chunks.Element: Sequence, Chunks.Element.Element == UInt8 {
    typealias Element = Chunks.Element
    let chunks: Chunks
    let limit: Int?

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: Chunks.AsyncIterator
        let limit: Int?
        var received = 0

        mutating func next() async throws -> Chunks.Element? {
            guard let chunk = try await base.next() else { return nil }
            if let limit {
                received += chunk.underestimatedCount
                if received > limit { throw BandUpload.TooLarge(limit: limit) }
            }
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: chunks.makeAsyncIterator(), limit: limit)
    }
}
