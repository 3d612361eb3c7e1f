/// JSON text that arrives as an `AsyncSequence`: of bytes (`FileHandle.bytes`,
/// `URLSession.AsyncBytes` on Apple platforms) or of byte chunks of any size and type (a
/// network body: AsyncHTTPClient's and Hummingbird's `ByteBuffer`s through their
/// `readableBytesView`, `Data`, `[UInt8]`). ``AsyncJSONReader``, ``AsyncJSONStream`` and the
/// `async` decodes take one.
///
/// ```swift
/// let stream = AsyncJSONStream(.chunks(response.body.map(\.readableBytesView)))
/// for try await band in stream.elements(of: Band.self, at: "objects") { print(band.name) }
/// ```
///
/// A chunk with contiguous storage is copied once, straight into the parser's window; bytes
/// are gathered into chunks of ``JSONParsingOptions/chunkSize``. Each reader made from an
/// input iterates its sequence afresh (`makeAsyncIterator()`): a sequence that can be iterated
/// only once, as a network body, is read by one reader.
public struct AsyncJSONInput {
    let makeSource: (_ options: JSONParsingOptions) -> any ChunkSource

    /// An asynchronous sequence of bytes.
    public static func bytes<Bytes: AsyncSequence>(_ bytes: Bytes) -> AsyncJSONInput where Bytes.Element == UInt8 {
        AsyncJSONInput { options in BytePuller(bytes.makeAsyncIterator(), chunkSize: options.effectiveChunkSize) }
    }

    /// An asynchronous sequence of byte chunks, of any size (empty chunks are fine).
    public static func chunks<Chunks: AsyncSequence>(_ chunks: Chunks) -> AsyncJSONInput
    where Chunks.Element: Sequence, Chunks.Element.Element == UInt8 {
        AsyncJSONInput { _ in ChunkPuller(chunks.makeAsyncIterator()) }
    }
}
