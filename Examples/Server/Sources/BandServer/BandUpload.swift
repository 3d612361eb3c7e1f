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
            let stream = AsyncJSONStream(.chunks(chunks))
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
