/// Reading and yajl on a background thread, two batches of two chunks ahead of the reader at
/// most; the tape writer runs on the reader's thread (a reader of ``JSONReader/Work/tokens``)
/// or on the background thread too (``JSONReader/Work/models``).
///
/// ```text
///  background thread                                  reader's thread
///  read(2) ─▶ yajl ─▶ events ─┬─ log (EventLogger) ──┐                     ┌─▶ bytes + events ─▶ TapeWriter ─┐
///  (a YajlFeed)               └─ TapeWriter ─▶ tape ─┴▶ [batch][batch][batch] ┴─▶ tokens ──────────────────────┴▶ tape
///                                (a TapeBuilder)
///                                                  ring of 3 (BatchRing)
/// ```
///
/// Why it exists: on one thread the cursor runs at 0.64-0.72x raw yajl, yajl two thirds of
/// the time and the tape writer a quarter; on two cores the halves overlap. Where the writer
/// runs follows from which half of the reader's work is slower:
/// - **Pulling tokens** (commit b988ab6, 100 MB catalog, 5-7 alternating runs): with yajl
///   alone here, the cursor went from 0.75x to 0.81-0.85x raw yajl (with its text from 0.74x
///   to 0.81x), because yajl is then the slower half.
/// - **Decoding models** is the slower half of ``JSONStream`` and whole-document decoding, so
///   all of parsing goes to this thread: moving the writer to the reader's thread cost 20 % in
///   a trial (commit b988ab6: `JSONStream` 0.57x -> 0.46x raw yajl).
///
/// Either way the thread's ``YajlFeed`` decides yajl's calls by the rules of one thread
/// (strings whole, linear re-lexing); its events go to its own ``TapeBuilder``'s writer, or
/// (an ``EventLogger``) to a log that the reader's tape builder consumes call by call through
/// the same checks as its own calls. So tokens, errors and their locations are those of one thread, whatever the
/// chunking; errors come after the tokens before them.
///
/// Memory stays bounded: at most three batches are in flight. Everything the producer touches
/// (its builder or logger, the source, the batch it fills) belongs to the background thread, and
/// batches change hands only through the ``BatchRing``, which is why this type is
/// `@unchecked Sendable`.
final class BackgroundPipeline: Pipeline, @unchecked Sendable {
    /// One shipment: the bytes read and yajl's calls on them (writer on the reader's thread),
    /// or the tokens built from them (writer here).
    final class Batch {
        /// The bytes read since the last batch, in order (writer on the reader's thread).
        var bytes: [UInt8] = []
        /// yajl's calls on them, with their events (writer on the reader's thread).
        let log = ParseEventLog()
        /// The tokens built here (writer here), and the ends of containers whose start tokens
        /// went in an earlier batch.
        let tape = TokenTape(tokenCapacity: 2048, arenaCapacity: 16 * 1024)
        var patches: [ContainerPatch] = []
        /// Input read and top-level values parsed once this batch is taken in.
        var bytesRead = 0
        var topLevelCount = 0
        /// A read error or (writer here) the parse error, after everything before it.
        var error: (any Error)?
        var isLast = false
    }

    private let ring: BatchRing<Batch>

    // Producer's.
    /// What the background thread runs: a logger of yajl's events (for a reader of tokens), or
    /// a builder of tokens (for a reader of models); one of the two is nil.
    ///
    /// Two optionals rather than an enum of the two: a multi-payload enum keeps its case in the
    /// spare bits of its pointer, where LeakSanitizer sees no reference, and a process that
    /// exited with the thread alive was reported leaking the builder (`spool items objects DIR`
    /// on a large directory, under AddressSanitizer).
    private let logger: EventLogger?
    private let producer: TapeBuilder?
    /// The feed of whichever of the two runs.
    private let feed: YajlFeed
    private let source: any ByteSource
    /// How many whole input chunks one batch may hold. Each hand-over wakes the reader's thread,
    /// which costs the parsing thread a system call; two chunks a batch halve those for about
    /// 1 MiB more in flight.
    private let batchChunks = 2
    /// A second chunk only while the batch holds fewer events than this: dense input (a chunk of
    /// `1,1,1,...` logs 32,768 events) ships one chunk at a time, to bound what is in flight
    /// (commit 47a9161: 40 MB of `[1,1,1,...]`, peak RSS 26.5 -> 21.1 MiB).
    private let batchEvents = 16_384

    // Consumer's.
    /// The reader's tape builder, whose tape is the reader's: it consumes logged calls.
    private let builder: TapeBuilder
    private var lastBatchTaken = false
    /// Whether a batch or its calls ended with an error (thrown by ``fill(keepingTokensFrom:)``).
    private var failed = false
    private var batchBytesRead = 0
    private var batchTopLevelCount = 0
    /// Bytes of batches taken for an error's context, not yet handed to `readAhead(into:)`.
    private var spare: [UInt8] = []
    /// The batch being consumed, until it goes back to the producer.
    private var current: Batch?

    /// Starts the background thread, which keeps this object alive until it has finished.
    /// `buildsTokens`: the background thread writes the tokens, not only yajl's events.
    init(source: any ByteSource, options: JSONParsingOptions, builder: TapeBuilder, buildsTokens: Bool, depth: Int = 3) {
        self.source = source
        self.builder = builder
        if buildsTokens {
            let builder = TapeBuilder(options: options, readingAheadFrom: source, shipsTokens: true)
            (logger, producer, feed) = (nil, builder, builder.feed)
        } else {
            let logger = EventLogger(options: options)
            (self.logger, producer, feed) = (logger, nil, logger.feed)
        }
        ring = BatchRing((0..<depth).map { _ in Batch() })
        if !buildsTokens {
            // An error's context comes from the batches after it (this thread no longer reads
            // the source). Unowned: the builder goes with the reader, which holds this pipeline.
            builder.readAheadForContext = { [unowned self] buffer in self.readAhead(into: buffer) }
        }
        ring.start { batch in self.produce(into: batch) }
    }

    /// Asks the background thread to stop at its next step (see ``BatchRing/cancel()``).
    func cancel() {
        ring.cancel()
    }

    var bytesRead: Int { max(batchBytesRead, builder.bytesReceived) }

    var isInputFinished: Bool { lastBatchTaken || failed }

    var isFinished: Bool { lastBatchTaken && !failed }

    var topLevelCount: Int { max(batchTopLevelCount, builder.writer.topLevelCount) }

    var isInBackground: Bool { true }

    /// Every token is recorded as before: next to yajl, that costs the reader's thread little,
    /// and tokens built here would be built all the same.
    func skipTokens(_ skipping: Bool) {}

    // MARK: - Producer

    /// Reads into `batch` up to `batchChunks` chunks while the source fills whole chunks (a
    /// file), and while the batch holds few events (a log) or no tokens yet (a tape: more while
    /// a long token is held back); a short read (a pipe that has paused) ships at once. Returns
    /// true once the input has ended.
    private func produce(into batch: Batch) -> Bool {
        logger?.eventLog = batch.log
        let finished: Bool
        do {
            let read = try ring.readChunks(chunkSize: feed.chunkSize, { try readChunk(into: batch) }) { chunks, full in
                if let producer { return producer.tape.count == 0 || (full && chunks < batchChunks) }
                return full && chunks < batchChunks && batch.log.count < batchEvents
            }
            guard let read else { return true }
            finished = read
        } catch {
            batch.error = error
            finished = true
        }
        if let producer {
            producer.shipTape(into: batch.tape)
            producer.writer.swapLatePatches(with: &batch.patches)
            batch.topLevelCount = producer.writer.topLevelCount
        }
        batch.bytesRead = feed.bytesReceived
        batch.isLast = finished
        return finished
    }

    /// Reads one chunk and gives yajl what it may have (at the end of the input, finishes);
    /// a log ships the bytes too. Returns the bytes read.
    private func readChunk(into batch: Batch) throws -> Int {
        let before = feed.bytesReceived
        if let producer {
            producer.compactWindow()
            _ = try producer.readChunk(from: source)
        } else if let logger {
            logger.compactWindow()
            _ = try logger.readChunk(from: source)
            let after = feed.bytesReceived
            if after > before { feed.withBytes(from: before, to: after) { batch.bytes.append(contentsOf: $0) } }
        }
        return feed.bytesReceived - before
    }

    // MARK: - Consumer

    /// Waits for the next batch and takes it in (after dropping tokens below `keep`): its bytes
    /// and calls, consumed by the reader's tape builder, or its tokens, appended to the tape.
    /// Returns false once the last batch has been received. Throws the first error, after the
    /// tokens before it.
    func fill(keepingTokensFrom keep: Int) throws -> Bool {
        guard !lastBatchTaken else { return false }
        builder.compact(keepingTokensFrom: keep)
        let batch = take()
        current = batch
        defer { releaseCurrent() }
        do {
            batch.bytes.withUnsafeBytes { builder.feed.append($0) }
            for call in batch.log.calls {
                try builder.consume(call, of: batch.log)
            }
            if batch.tape.count > 0 || batch.tape.arenaCount > 0 { builder.tape.moveContents(of: batch.tape) }
            for patch in batch.patches { patch.apply(to: builder.tape) }
            batchBytesRead = batch.bytesRead
            batchTopLevelCount = batch.topLevelCount
            if let error = batch.error { throw error }
        } catch {
            failed = true
            throw error
        }
        return true
    }

    /// Bytes read after those of the batch being consumed, for an error message's context
    /// (``TapeBuilder/readAheadForContext``): called only when consuming it has failed.
    func readAhead(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        if spare.isEmpty && !lastBatchTaken {
            // Consuming it has failed and its bytes are in the window: its batch can go back first,
            // keeping the ring's order, and the producer can go on reading.
            releaseCurrent()
            let batch = take()
            spare.append(contentsOf: batch.bytes)
            give(batch)
        }
        let count = min(buffer.count, spare.count)
        guard count > 0, let destination = buffer.baseAddress else { return 0 }
        spare.withUnsafeBytes { raw in
            if let start = raw.baseAddress { destination.copyMemory(from: start, byteCount: count) }
        }
        spare.removeFirst(count)
        return count
    }

    private func take() -> Batch {
        let batch = ring.take()
        lastBatchTaken = batch.isLast
        return batch
    }

    private func releaseCurrent() {
        if let batch = current {
            current = nil
            give(batch)
        }
    }

    private func give(_ batch: Batch) {
        batch.bytes.removeAll(keepingCapacity: true)
        batch.log.reset()
        batch.patches.removeAll(keepingCapacity: true)
        batch.error = nil
        ring.give()
    }
}
