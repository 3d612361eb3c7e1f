/// Reads and parses on a background thread while the reader consumes tokens on its own.
///
/// ```
///  background thread                         reader's thread
///  read(2) ─▶ yajl ─▶ writer's tape ──ship──▶ [batch][batch][batch] ──receive──▶ reader's tape
///                      (swapped for an          ring of 3, each a TokenTape       (appended, same
///                       empty batch tape)       + container patches               absolute numbering)
/// ```
///
/// Parsing costs about as much as yajl itself and a reader's work (pulling tokens, decoding
/// models) comes on top; on two cores the two overlap. Memory stays bounded: at most three
/// batches (up to two input chunks' tokens each) are in flight. This split suits a reader that
/// decodes models (``JSONStream``, `decodeValue`): its own work is then the slower half, so
/// all of parsing goes to the background. For a reader that only pulls tokens,
/// ``BackgroundYajl`` leaves just yajl to the background.
///
/// Everything the producer touches (tokenizer, source, the batch it fills) belongs to the
/// background thread, and batches change hands only through the ``BatchRing``, which is why
/// this type is `@unchecked Sendable`. Errors travel with the batch that ends with them, so the
/// reader sees every good token first, exactly as without a thread.
final class BackgroundParser: @unchecked Sendable {
    /// One shipment of tokens.
    final class Batch {
        let tape = TokenTape(tokenCapacity: 2048, arenaCapacity: 16 * 1024)
        var patches: [ContainerPatch] = []
        var bytesRead = 0
        var topLevelCount = 0
        var error: (any Error)?
        var isLast = false
    }

    private let ring: BatchRing<Batch>

    // Producer's.
    private let tokenizer: Tokenizer
    private let source: any ByteSource
    /// How many whole input chunks one batch may hold. Each hand-over wakes the reader's thread,
    /// which costs the parsing thread a system call; two chunks a batch halves those for about
    /// 1 MiB more in flight.
    private let batchChunks = 2

    // Consumer's.
    private(set) var isFinished = false
    private(set) var bytesRead = 0
    private(set) var topLevelCount = 0

    init(tokenizer: Tokenizer, source: any ByteSource, depth: Int = 3) {
        self.tokenizer = tokenizer
        self.source = source
        ring = BatchRing((0..<depth).map { _ in Batch() })
        tokenizer.writer.recordsLatePatches = true
    }

    /// Starts the background thread. It keeps this object alive until it has finished.
    func start() {
        ring.start { batch in self.fill(batch) }
    }

    /// Asks the background thread to stop at its next step (see ``BatchRing/cancel()``).
    func cancel() {
        ring.cancel()
    }

    // MARK: - Producer

    /// Parses into `batch` up to `batchChunks` chunks while the source fills whole chunks (a
    /// file); a short read (a pipe that has paused) ships at once, more while a long token is held
    /// back. Returns true once the input has ended.
    private func fill(_ batch: Batch) -> Bool {
        let finished: Bool
        do {
            let read = try ring.readChunks(chunkSize: tokenizer.chunkSize, {
                tokenizer.compactWindow()
                let before = tokenizer.bytesReceived
                _ = try tokenizer.readChunk(from: source)
                return tokenizer.bytesReceived - before
            }) { chunks, full in
                tokenizer.tape.count == 0 || (full && chunks < batchChunks)
            }
            guard let read else { return true }
            finished = read
        } catch {
            batch.error = error
            finished = true
        }
        tokenizer.shipTape(into: batch.tape)
        swap(&batch.patches, &tokenizer.writer.latePatches)
        batch.bytesRead = tokenizer.bytesReceived
        batch.topLevelCount = tokenizer.writer.topLevelCount
        batch.isLast = finished
        return finished
    }

    // MARK: - Consumer

    /// Waits for the next batch and appends it to `tape` (after dropping tokens below `keep`).
    /// Returns false once the last batch has been received. Throws the error a batch ends with,
    /// after appending its tokens.
    func receive(into tape: TokenTape, keepingTokensFrom keep: Int) throws -> Bool {
        guard !isFinished else { return false }
        let batch = ring.take()
        tape.discard(below: keep)
        tape.shrinkIfOversized()
        tape.moveContents(of: batch.tape)
        for patch in batch.patches { patch.apply(to: tape) }
        bytesRead = batch.bytesRead
        topLevelCount = batch.topLevelCount
        isFinished = batch.isLast
        let error = batch.error
        batch.error = nil
        batch.patches.removeAll(keepingCapacity: true)
        ring.give()
        if let error { throw error }
        return true
    }
}
