/// The elements of one array, decoded by several threads at once and handed out in document
/// order, with exactly the values and errors of the serial stream (issue 25): what
/// ``JSONStream/elements(of:at:decoder:onError:parallelism:)`` runs, through a
/// ``ParallelRequest``, when asked for more than one worker.
///
/// ```swift
/// let bands = ParallelJSONElements<Band>(.file(path), at: "objects", workers: 4)
/// while let band = try bands.next() { print(band.name) }
/// ```
///
/// **Threads.** A scanner thread reads the input in chunks through an ``ElementScanner`` and
/// cuts the array into batches of whole elements of about `batchBytes` (``BatchCutter``), each
/// with the line and column where it starts. `workers` threads decode the batches, each batch by
/// a ``JSONStream`` of its own: the first from the document's start (so that everything before
/// the array is parsed, and fails, as in the serial stream), the others resumed at their first
/// element (``JSONStream/init(_:options:resumingAt:in:index:limit:inObject:)``, whose input ends
/// one byte into the next batch). `next()` hands the elements out batch after batch, in order
/// (``BatchBoard``).
///
/// **Memory.** At most two batches per worker are decoded ahead of the consumer, and a few
/// cut batches (offsets and counts) wait for a worker: memory is bounded by the batch size,
/// whatever the input's size.
///
/// **Errors.** As the serial stream: the elements before the first error, then that error,
/// then nothing. A batch whose stream stops on an element's error (a ``DecodeError``, a
/// `DecodingError`) hands out its elements before it, then the error. Any other error of a
/// resumed stream (a ``ParseError`` it met reading ahead, or one it does not show as the serial
/// stream does: ``ResumedErrors``), and anything the scan cannot vouch for (``ScanDoubt``:
/// invalid JSON, an escaped key on the path), is read by one stream on the consumer's thread
/// from the start of that batch on (``SerialRun``), which finds the serial stream's error where
/// the serial stream finds it. Nothing after the array's `]` is read, as the serial stream
/// reads nothing after it.
///
/// **Skipping.** With `.skip`, a batch's stream records the elements it skips
/// (``DecodedBatch/skipped(_:)``), and `next()` hands each report to the caller's closure, on
/// the consumer's thread, before the element after it: where the serial stream calls it. A
/// stream read on this thread (``SerialRun``) reports only the elements not had yet.
///
/// **Members.** For ``JSONStream/members(of:at:parallelism:)``, the elements are the members
/// of the object at the path (each a key and its value): the scan cuts at the object's commas,
/// and each batch's stream resumes at a member's key, inside an object that opens before it.
///
/// **NDJSON.** With several top-level values, the elements are the values (the empty path
/// only): the scan cuts where values end, each batch's stream resumes at a value
/// (``JSONStream/init(_:options:resumingAtValue:index:)``), and the last batch reads to the
/// input's end.
///
/// **Serially.** Input that cannot be read at several places at once (a descriptor, standard
/// input), a path with a wildcard, and options the scanner does not follow (comments, a path
/// into NDJSON values) are read by one serial stream on the consumer's thread.
///
/// **Stopping.** Dropping the engine (or reaching the end or an error) stops the scanner and
/// every worker at their next step: a worker finishes the element it is decoding.
final class ParallelJSONElements<Value> {
    /// How every stream of the engine is made.
    private let streams: ElementStreams<Value>
    /// The threads' shared state (internal for tests: ``BatchBoard/liveThreads``).
    let board: BatchBoard<Value>
    /// Elements handed out (or skipped) so far.
    private(set) var count = 0
    /// The serial stream's ``JSONElements/count`` once an error has been thrown: the elements
    /// handed out, and the one whose decoding failed, if the error is about one.
    private var countAtError: Int?
    /// Elements handed out so far, counting the one an error was thrown for (as
    /// ``JSONElements/count`` counts it).
    var countedElements: Int { countAtError ?? count }
    /// Batches decoded by the workers and taken in (for tests).
    private(set) var batchesTaken = 0
    /// Whether a stream on this thread has read (part of) the array (for tests): the input or
    /// options are read serially, the scan doubted, or a batch's error is placed by reading.
    private(set) var readSerially = false

    /// The next batch to take from the board.
    private var nextNumber = 0
    /// The batch being handed out.
    private var current: DecodedBatch<Value>?
    /// The stream that reads the rest of the array on this thread, once there is one.
    private var serial: SerialRun<Value>?
    /// Whether the array's end or an error has been reached: nothing more is handed out.
    private(set) var isFinished = false
    /// Where the array's `]` is, once every element has been handed out (nil after an error):
    /// as the parser of the stream that read to it found it.
    private(set) var arrayEnd: SourceLocation?
    /// Called on the consumer's thread with each batch taken from the workers (for progress).
    var onBatchTaken: ((ElementBatch) -> Void)?
    /// The caller's `.skip` closure, called on the consumer's thread in document order (nil
    /// with `.stop`).
    private let report: ((SkippedElement) -> Void)?

    /// The elements of the array at `path` of `input`, each decoded as the `Decodable` `Value`
    /// by `decoder`, by `workers` threads (at least one) in batches of about `batchBytes`.
    convenience init(
        _ input: JSONInput, at path: JSONKeyPath = .root, options: JSONParsingOptions = .init(), workers: Int,
        batchBytes: Int = ElementBatch.defaultBytes(holdingTokens: false), decoder: StreamingJSONDecoder = StreamingJSONDecoder()
    ) where Value: Decodable {
        let streams = ElementStreams(input: input, options: options, path: path, batchBytes: batchBytes, request: DecodableElements<Value>(decoder: decoder))
        self.init(streams, workers: workers, batchBytes: batchBytes)
    }

    /// The elements of the array at `path` of `input`, each decoded as the ``JSONDecodable``
    /// `Value`, by `workers` threads (at least one) in batches of about `batchBytes`.
    convenience init(
        _ input: JSONInput, at path: JSONKeyPath = .root, options: JSONParsingOptions = .init(), workers: Int,
        batchBytes: Int = ElementBatch.defaultBytes(holdingTokens: true)
    ) where Value: JSONDecodable {
        let streams = ElementStreams(input: input, options: options, path: path, batchBytes: batchBytes, request: JSONDecodableElements<Value>())
        self.init(streams, workers: workers, batchBytes: batchBytes)
    }

    /// The elements that `streams` read, by `workers` threads (at least one) in batches of
    /// about `batchBytes`; with `report` (when `streams` ``ElementStreams/skips``), elements
    /// that do not decode are skipped and handed to it, where the serial stream would.
    init(_ streams: ElementStreams<Value>, workers: Int, batchBytes: Int, report: ((SkippedElement) -> Void)? = nil) {
        self.streams = streams
        self.report = streams.skips ? report : nil
        let workers = max(1, workers)
        board = BatchBoard(workers: workers)
        guard let source = Self.randomAccessSource(streams),
            BatchCutter(path: streams.path, members: streams.request.isMembers, options: streams.options, batchBytes: batchBytes) != nil
        else {
            serial = SerialRun(streams, from: nil, index: 0, firstUnread: 0, report: self.report)
            readSerially = true
            return
        }
        startScanner(reading: source, batchBytes: batchBytes)
        for _ in 0..<workers { startWorker() }
    }

    deinit {
        board.cancel()
    }

    /// The next element in document order; nil after the last one (or after an error).
    /// - Throws: what the serial stream throws at this element.
    func next() throws -> Value? {
        while !isFinished {
            if let serial { return try next(from: serial) }
            if let batch = current {
                while let skipped = batch.nextSkipped() {
                    count += 1
                    report?(skipped)
                }
                if batch.hasNext {  // (not `if let`: see ParallelRequest.next())
                    count += 1
                    return batch.takeNext()
                }
                current = nil
                try ended(batch)
                continue
            }
            switch board.take(nextNumber) {
            case .decoded(let batch):
                nextNumber += 1
                batchesTaken += 1
                if batch.skippedTooDeep || batch.keepsDecoders {
                    // (Decoded again on this thread, whose stack the serial stream uses; or
                    // by a stream that holds each element's tokens while it is handed out, as
                    // the serial stream does, for the decoders and containers kept.)
                    readSerially(from: batch.batch)
                    continue
                }
                current = batch
                onBatchTaken?(batch.batch)
            case .serialTail(let batch):
                readSerially(from: batch)
            case .end:
                return finish()
            }
        }
        return nil
    }

    /// The next element read serially (after a doubt or an error), or nil at the end.
    /// (Apart from ``next()``: a function that holds an optional `Value` looks up its
    /// metadata on entry, which the elements handed out from batches need not pay.)
    @inline(never)
    private func next(from serial: SerialRun<Value>) throws -> Value? {
        do {
            guard let value = try serial.next() else {
                count = serial.countedElements
                arrayEnd = serial.arrayEnd
                return finish()
            }
            count = serial.countedElements
            return value
        } catch {
            countAtError = serial.countedElements
            _ = finish()
            throw error
        }
    }

    /// After the last element of `batch` has been handed out: its error, the array's end, or on
    /// to the next batch.
    private func ended(_ batch: DecodedBatch<Value>) throws {
        if let error = batch.error {
            // The first batch's stream is the serial stream itself.
            let isSerials = batch.batch.start == nil && !(error is BatchMismatch)
            guard isSerials || ResumedErrors.isElementError(error) else {
                readSerially(from: batch.batch)
                return
            }
            countAtError = batch.batch.firstIndex + batch.streamCount
            _ = finish()
            throw error
        }
        switch batch.batch.extent {
        case .counted(let count) where batch.elementCount != count:
            // (Not for batches the scan vouched for: fewer elements than it found.)
            readSerially(from: batch.batch)
        case .toArrayEnd, .serialTail:
            arrayEnd = batch.arrayEnd
            _ = finish()
        case .counted:
            break
        }
    }

    /// Reads the rest of the array on this thread from `batch`'s first element, passing over
    /// those handed out already; the threads stop.
    private func readSerially(from batch: ElementBatch) {
        board.cancel()
        current = nil
        serial = SerialRun(streams, from: batch.start, index: batch.firstIndex, firstUnread: count, report: report)
        readSerially = true
    }

    /// Ends the iteration and stops the threads; returns nil.
    private func finish() -> Value? {
        isFinished = true
        current = nil
        serial = nil
        board.cancel()
        return nil
    }

    // MARK: - Threads

    /// The input opened for the scanner, when it can be read at several places at once (a
    /// regular file, bytes in memory); nil otherwise (the serial stream then reports a file
    /// that cannot be opened).
    private static func randomAccessSource(_ streams: ElementStreams<Value>) -> (any ByteSource)? {
        switch streams.input.source {
        case .descriptor: return nil
        case .file, .url, .bytes, .data, .string: break
        }
        let source = streams.input.open()
        return source.totalSize == nil ? nil : source
    }

    /// Chunks of input the scanner reads at a time.
    static var scanChunkSize: Int { 1 << 18 }

    /// Starts the scanner thread: it cuts batches from `source` and publishes them until the
    /// array's end, a doubt, or cancellation.
    private func startScanner(reading source: any ByteSource, batchBytes: Int) {
        let reading = ScannedSource(source)
        let (board, path, options, members) = (board, streams.path, streams.options, streams.request.isMembers)
        board.liveThreads.add(1, ordering: .relaxed)
        DetachedThread.start {
            defer { board.liveThreads.subtract(1, ordering: .releasing) }
            guard var cutter = BatchCutter(path: path, members: members, options: options, batchBytes: batchBytes) else { return }
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.scanChunkSize, alignment: 64)
            defer { buffer.deallocate() }
            var published = 0
            while !cutter.isDone {
                if board.isCancelled { return }
                let batches: [ElementBatch]
                do {
                    let count = min(try reading.source.read(into: buffer), buffer.count)
                    batches = count <= 0 ? cutter.finish() : cutter.cut(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                } catch {
                    batches = cutter.fail()
                }
                for batch in batches {
                    guard board.publish(batch) else { return }
                    published += 1
                }
            }
            board.finishPublishing(count: published)
        }
    }

    /// Starts a worker thread: it decodes batches until there are no more, or cancellation.
    private func startWorker() {
        let (board, streams) = (board, streams)
        board.liveThreads.add(1, ordering: .relaxed)
        DetachedThread.start {
            defer { board.liveThreads.subtract(1, ordering: .releasing) }
            let worker = WorkerSession()
            while let batch = board.nextBatch() {
                let result = streams.decode(batch, on: board, worker: worker)
                if worker.batchEnded() { result.keepsDecoders = true }
                if board.isCancelled { return }
                board.deliver(result)
            }
        }
    }
}

/// The scanner thread's input, handed to it whole: only that thread reads it.
private final class ScannedSource: @unchecked Sendable {
    /// The input, opened by the engine and read by the scanner thread alone.
    let source: any ByteSource

    /// Wraps `source` for the scanner thread.
    init(_ source: any ByteSource) { self.source = source }
}
