/// Reading and yajl on a background thread, for a reader that pulls tokens
/// (``JSONReader/Work/tokens``); the reader's thread turns yajl's events into tokens.
///
/// ```
///  background thread                                reader's thread
///  read(2) ─▶ yajl ─▶ event log ──ship──▶ [batch][batch][batch] ──receive──▶ window, and the
///             (YajlEventRecorder: kind,   ring of 3: the bytes read,          events consumed by
///              place, length per event)   yajl's calls and their events       TapeWriter ─▶ tape
/// ```
///
/// Why it exists: with yajl and the tape writer on one thread, that thread was the cursor's
/// bottleneck (yajl two thirds of it, the writer a quarter) while the reader's thread idled.
/// With only yajl here (commit b988ab6, 100 MB catalog, 5-7 alternating runs) the cursor went
/// from 0.75x to 0.81-0.85x raw yajl, and with its text from 0.74x to 0.81x; it runs at
/// 0.78-0.83x / 0.82-0.84x raw yajl on the 100 MB / 1 GB catalogs.
///
/// The reader's tokenizer consumes each call exactly as yajl made it (same bytes, same events,
/// same status), as it consumes the events of yajl running on its own thread, so tokens, checks, limits and errors are
/// the same as parsing on one thread, whatever the chunking.
///
/// The background thread decides the calls: as ``Tokenizer`` does, it hands strings over whole
/// (``StringHoldBack``) and holds input back while another token is unfinished, so that yajl's
/// re-lexing stays linear, and stops parsing at a form feed or vertical tab (outside comments)
/// or at yajl's first error. After stopping it still reads, so that an error message can show
/// the rest of its line.
///
/// Everything the producer touches (recorder, source, the batch it fills) belongs to the
/// background thread, and batches change hands only through the ``BatchRing``, which is why
/// this type is `@unchecked Sendable`.
final class BackgroundYajlPipeline: Pipeline, @unchecked Sendable {
    /// One shipment: bytes read and the calls made on them.
    final class Batch {
        /// The bytes read since the last batch, in order.
        var bytes: [UInt8] = []
        /// yajl's calls, with their events.
        let log = YajlEventLog()
        /// A read error, after everything before it.
        var error: (any Error)?
        var isLast = false
    }

    private let ring: BatchRing<Batch>

    // Producer's.
    private let source: any ByteSource
    private let recorder: YajlEventRecorder
    private let allowsComments: Bool
    private let chunkSize: Int
    /// Bytes read and not yet given to yajl (held back, see the type's note).
    private var window: InputWindow
    private var parsedEnd = 0
    /// The start of a token yajl has begun and not finished, as far as the bytes after the last
    /// event show; `tailScanned` is how far those bytes were looked at.
    private var pendingStart: Int?
    private var tailScanned = 0
    /// What the token at `pendingStart` is, told while its bytes are in the window.
    private var pending = StringHoldBack.Pending.none
    /// Where calls end so that yajl takes strings whole, as the tokenizer's do.
    private var holdBack = StringHoldBack()
    private let maxStringLength: Int
    /// Whether parsing has stopped (error, form feed, end of input); reading goes on for context.
    private var stopped = false
    /// How many whole input chunks one batch may hold. Each hand-over wakes the reader's thread,
    /// which costs the parsing thread a system call.
    private let batchChunks = 2
    /// A second chunk only while the batch holds fewer events than this: dense input (a chunk of
    /// `1,1,1,...` logs 32,768 events) ships one chunk at a time, to bound what is in flight.
    private let batchEvents = 16_384

    // Consumer's.
    /// The reader's tokenizer, which consumes the calls.
    private let tokenizer: Tokenizer
    /// Whether the last batch has been taken.
    private var lastBatchTaken = false
    /// Bytes of batches taken for an error's context, not yet handed to `readAhead(into:)`.
    private var spare: [UInt8] = []
    /// The batch being consumed, until it goes back to the producer.
    private var current: Batch?

    /// Starts the background thread, which keeps this object alive until it has finished.
    init(source: any ByteSource, options: JSONParsingOptions, tokenizer: Tokenizer, depth: Int = 3) {
        self.source = source
        self.tokenizer = tokenizer
        recorder = YajlEventRecorder(options: options, writer: nil)
        allowsComments = options.allowsComments
        chunkSize = options.effectiveChunkSize
        maxStringLength = options.effectiveMaxStringLength
        window = InputWindow(capacity: chunkSize + 256)
        ring = BatchRing((0..<depth).map { _ in Batch() })
        // An error's context comes from the batches after it (not from the source, which this
        // thread no longer reads). Unowned: the tokenizer outlives this pipeline's use of it.
        tokenizer.readAheadForContext = { [unowned self] buffer in self.readAhead(into: buffer) }
        ring.start { batch in self.produce(into: batch) }
    }

    deinit {
        window.deallocate()
    }

    /// Asks the background thread to stop at its next step (see ``BatchRing/cancel()``).
    func cancel() {
        ring.cancel()
    }

    // MARK: - Producer

    /// Reads into `batch` up to `batchChunks` chunks while the source fills whole chunks (a
    /// file) and the batch holds fewer than `batchEvents` events; a short read (a pipe that has
    /// paused) ships at once. Returns true once the input has ended.
    private func produce(into batch: Batch) -> Bool {
        recorder.state.log = batch.log
        let finished: Bool
        do {
            let read = try ring.readChunks(chunkSize: chunkSize, { try readChunk(into: batch) }) { chunks, full in
                full && chunks < batchChunks && batch.log.count < batchEvents
            }
            guard let read else { return true }
            finished = read
        } catch {
            batch.error = error
            finished = true
        }
        batch.isLast = finished
        return finished
    }

    /// Reads one chunk, ships its bytes and gives yajl what it may have; at the end of the
    /// input, finishes. Returns the bytes read.
    private func readChunk(into batch: Batch) throws(InputError) -> Int {
        window.discard(below: stopped ? window.end : parsedEnd, preferredCapacity: chunkSize + 256)
        let count = try window.read(from: source, upTo: chunkSize)
        if count > 0 {
            batch.bytes.append(contentsOf: UnsafeBufferPointer(start: window.pointer(at: window.end - count), count: count))
        }
        guard !stopped else { return count }
        if count == 0 {
            parseHoldingStrings()
            if !stopped && window.end > parsedEnd { parse(to: window.end) }
            if !stopped { complete() }
            stopped = true
        } else if Tokenizer.shouldParse(available: window.end - parsedEnd, parsedEnd: parsedEnd, pendingStart: pendingStart) {
            // The tokenizer's rules, with the pending token as the bytes after the last event show it.
            parseHoldingStrings()
        }
        return count
    }

    /// Gives yajl the bytes read, in calls that take strings whole (``StringHoldBack``): up to
    /// a string whose end has not arrived.
    private func parseHoldingStrings() {
        while !stopped && parsedEnd < window.end {
            let callEnd = holdBack.callEnd(
                in: window, parsedEnd: parsedEnd, end: window.end, pending: pending, maxStringLength: maxStringLength)
            if callEnd == parsedEnd { return }
            parse(to: callEnd)
        }
    }

    /// One call to yajl over the bytes from `parsedEnd` to `end`, cut at a form feed or
    /// vertical tab.
    private func parse(to end: Int) {
        let start = parsedEnd
        var end = end
        let badWhitespace = allowsComments ? nil : window.firstBadWhitespace(from: start, to: end)
        if let badWhitespace { end = badWhitespace }
        let log = recorder.state.log
        let before = log.count
        let status = recorder.parse(UnsafePointer(window.pointer(at: start)), count: end - start, base: start)
        log.calls.append(
            YajlCall(
                start: start, end: end, badWhitespace: badWhitespace, isCompletion: false, events: before..<log.count,
                status: status))
        parsedEnd = end
        if badWhitespace != nil || end > Tokenizer.maxInputLength { stopped = true }
        if case .ok = status {} else { stopped = true }
        // The unfinished token, if any: the first byte after the last event that cannot come
        // between tokens (whitespace, ',' or ':'; a comment counts as a token here).
        if log.count > before {
            pendingStart = nil
            pending = .none
            tailScanned = max(recorder.state.lastEventEnd, start)
        }
        if pendingStart == nil {
            var p = max(tailScanned, window.base)
            while p < end {
                switch window[p] {
                case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ","), UInt8(ascii: ":"): p += 1
                default:
                    pendingStart = p
                    pending = StringHoldBack.Pending(start: p, in: window)
                    tailScanned = p
                    return
                }
            }
            tailScanned = p
        }
    }

    /// Ends yajl's input (its events: a trailing number).
    private func complete() {
        let log = recorder.state.log
        let before = log.count
        let status = recorder.complete()
        log.calls.append(
            YajlCall(start: 0, end: 0, badWhitespace: nil, isCompletion: true, events: before..<log.count, status: status))
    }

    // MARK: - Consumer

    /// Waits for the next batch and has the reader's tokenizer consume it (after dropping
    /// tokens below `keep`). Returns false once the last batch has been received. Throws the
    /// first error: the tokenizer's, or the read error the batch ends with.
    func fill(keepingTokensFrom keep: Int) throws -> Bool {
        guard !lastBatchTaken else { return false }
        tokenizer.compact(keepingTokensFrom: keep)
        let batch = take()
        current = batch
        defer { releaseCurrent() }
        batch.bytes.withUnsafeBytes { tokenizer.append($0) }
        for call in batch.log.calls {
            try tokenizer.consume(call, of: batch.log)
        }
        if let error = batch.error { throw error }
        return true
    }

    /// Bytes read after those of the batch being consumed, for an error message's context
    /// (``Tokenizer/readAheadForContext``): called only when consuming it has failed.
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

    var bytesRead: Int { tokenizer.bytesReceived }

    var isInputFinished: Bool {
        tokenizer.isFinished || tokenizer.failure != nil
    }

    var isFinished: Bool { tokenizer.isFinished }

    var topLevelCount: Int { tokenizer.writer.topLevelCount }

    var isInBackground: Bool { true }

    /// Every token is recorded as before (it costs the reader's thread little next to yajl).
    func skipTokens(_ skipping: Bool) {}

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
        batch.error = nil
        ring.give()
    }
}
