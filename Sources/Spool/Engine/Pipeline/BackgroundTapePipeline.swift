/// Reading, yajl and the tape writer on a background thread, for a reader that decodes models
/// (``JSONReader/Work/models``: ``JSONStream``, whole-document decoding); the reader's thread
/// appends the finished tokens to its tape.
///
/// ```
///  background thread                         reader's thread
///  read(2) ─▶ yajl ─▶ writer's tape ──ship──▶ [batch][batch][batch] ──receive──▶ reader's tape
///                      (swapped for an          ring of 3, each a TokenTape       (appended, same
///                       empty batch tape)       + container patches               absolute numbering)
/// ```
///
/// Why it exists: decoding models is the slower half of such a reader, so all of parsing goes to
/// the other core. Moving the tape writer to the reader's thread (as ``BackgroundYajlPipeline``
/// does) cost 20 % in a trial (commit b988ab6: `JSONStream` 0.57x -> 0.46x raw yajl); with it
/// here, `JSONStream` decodes every band of the catalog at 0.56-0.61x / 0.47-0.50x /
/// 0.56-0.59x raw yajl (10 MB / 100 MB / 1 GB), and whole-document decoding runs at 4x
/// `JSONDecoder`.
///
/// Memory stays bounded: at most three batches (up to two input chunks' tokens each) are in
/// flight. Everything the producer touches (tokenizer, source, the batch it fills) belongs to
/// the background thread, and batches change hands only through the ``BatchRing``, which is why
/// this type is `@unchecked Sendable`. Errors travel with the batch that ends with them, so the
/// reader sees every good token first, exactly as without a thread.
final class BackgroundTapePipeline: Pipeline, @unchecked Sendable {
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
    /// The reader's tape.
    private let tape: TokenTape
    private(set) var isFinished = false
    private(set) var bytesRead = 0
    private(set) var topLevelCount = 0

    /// Starts the background thread, which keeps this object alive until it has finished.
    init(source: any ByteSource, options: JSONParsingOptions, tape: TokenTape, depth: Int = 3) {
        tokenizer = Tokenizer(options: options, readingAheadFrom: source)
        self.source = source
        self.tape = tape
        ring = BatchRing((0..<depth).map { _ in Batch() })
        tokenizer.writer.recordsLatePatches = true
        ring.start { batch in self.produce(into: batch) }
    }

    /// Asks the background thread to stop at its next step (see ``BatchRing/cancel()``).
    func cancel() {
        ring.cancel()
    }

    var isInputFinished: Bool { isFinished }

    var isInBackground: Bool { true }

    /// Tokens are built on the other thread, where skipping them would save the reader nothing.
    func skipTokens(_ skipping: Bool) {}

    // MARK: - Producer

    /// Parses into `batch` up to `batchChunks` chunks while the source fills whole chunks (a
    /// file); a short read (a pipe that has paused) ships at once, more while a long token is held
    /// back. Returns true once the input has ended.
    private func produce(into batch: Batch) -> Bool {
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

    /// Waits for the next batch and appends it to the reader's tape (after dropping tokens below
    /// `keep`). Returns false once the last batch has been received. Throws the error a batch
    /// ends with, after appending its tokens.
    func fill(keepingTokensFrom keep: Int) throws -> Bool {
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
