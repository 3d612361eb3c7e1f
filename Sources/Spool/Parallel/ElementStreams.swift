/// How ``ParallelJSONElements`` makes each of its streams: over one input, with one set of
/// options, for the elements of the array at one path, each decoded by the same request (a
/// `Decodable` type with its decoder, or a ``JSONDecodable`` type).
///
/// Each stream reads on its own thread, parsing on that thread (no background thread of its
/// own: the engine's threads are the parallelism), which gives the same tokens and errors
/// (``JSONParsingOptions/parsesInBackground``).
struct ElementStreams<Value>: Sendable {
    /// The input, a string's as bytes.
    let input: JSONInput
    /// The caller's options, parsing on the stream's own thread in chunks fit for the batches:
    /// a batch's stream's.
    let options: JSONParsingOptions
    /// The caller's options as they are: a stream that reads on to the array's end on the
    /// consumer's thread (``SerialRun``) parses ahead on a thread of its own, as the serial
    /// stream does.
    let serialOptions: JSONParsingOptions
    /// The path of the array.
    let path: JSONKeyPath
    /// The elements request on each stream.
    let request: any ElementRequest<Value>
    /// Whether an element that does not decode is skipped and reported (`.skip`), not thrown:
    /// a batch's stream records its reports, which the consumer hands to the caller's closure
    /// in order.
    let skips: Bool

    /// Streams of the elements at `path` of `input`, read with `options` in chunks of at most
    /// about `batchBytes` (each stream parses a chunk ahead of the elements it hands out: a
    /// small batch reads small chunks).
    init(
        input: JSONInput, options: JSONParsingOptions, path: JSONKeyPath, batchBytes: Int, request: any ElementRequest<Value>,
        skips: Bool = false
    ) {
        self.skips = skips
        // A string is read as bytes once, not copied by every stream that opens it.
        if case .string(let text) = input.source {
            self.input = .bytes(Array(text.utf8))
        } else {
            self.input = input
        }
        serialOptions = options
        var options = options
        options.parsesInBackground = false
        options.chunkSize = min(options.effectiveChunkSize, max(Self.smallestChunk, batchBytes))
        self.options = options
        self.path = path
        self.request = request
    }

    /// The smallest chunk a stream reads at a time.
    static var smallestChunk: Int { 4096 }

    /// The elements from element `index` of the array, which starts at `start`; from the
    /// document's start when `start` is nil. `serially`: with ``serialOptions``. `policy`:
    /// what an element that does not decode does (`.skip` only when ``skips``). `limit`: for a
    /// stream that resumes, the offset where its input ends. `worker`: what a worker's batches
    /// share, on its thread.
    func elements(
        from start: SourceLocation?, index: Int, serially: Bool = false, onError policy: ElementErrorPolicy = .stop, limit: Int? = nil,
        worker: WorkerSession? = nil
    ) -> JSONElements<Value> {
        let options = serially ? serialOptions : options
        guard let start else {
            return request.elements(on: JSONStream(input, options: options), at: path, onError: policy, worker: worker)
        }
        let stream: JSONStream
        if options.allowsMultipleValues {
            // (NDJSON: the top-level values, the empty path.)
            stream = JSONStream(input, options: options, resumingAtValue: start, index: index, limit: limit)
        } else if limit != nil || request.isMembers, ResumePoint(location: start, inObject: request.isMembers).isPossible(forElement: index) {
            stream = JSONStream(input, options: options, resumingAt: start, in: path, index: index, limit: limit, inObject: request.isMembers)
        } else {
            stream = JSONStream(input, options: options, resumingAt: start, element: path + JSONKeyPath([.index(index)]))
        }
        return request.elements(on: stream, at: path, onError: policy, worker: worker)
    }

    /// Reads `batch` with a stream of its own: its elements, up to the first error; stops early
    /// once `board` is cancelled. `worker`: what the worker's batches share.
    func decode(_ batch: ElementBatch, on board: BatchBoard<Value>, worker: WorkerSession) -> DecodedBatch<Value> {
        let result = DecodedBatch<Value>(batch: batch, capacity: batch.count ?? 64)
        let policy = skips ? ElementErrorPolicy.skip { [result] in result.skipped($0) } : .stop
        // A counted batch's input ends one byte into the next batch's first element: its stream
        // parses its own elements and the separator after them, not a chunk of the next batch
        // (the input ending there is an error at or after that element's start: the next
        // batch's to find, ``readOn(past:with:)``).
        let elements = elements(
            from: batch.start, index: batch.firstIndex, onError: policy, limit: batch.nextStart.map { $0 + 1 }, worker: worker)
        // Room for a chunk's tokens from the start: one token per 8 bytes holds the band
        // catalog's (twitter.json has one per 21, canada.json one per 10). Grown from the
        // default instead, every batch copied 64 KB of tokens (1 % of a 64 KiB batch's work).
        // (At most the 65,536 tokens a tape keeps after a large element.)
        elements.reserveTokens(min(options.effectiveChunkSize / 8, 1 << 16))
        // The batch's elements are handed out after the stream has read them all: their tokens
        // stay when an element may be a view of them (an `Extractor`), about a batch's worth.
        if request.holdsTokens { elements.holdsTokens() }
        // A stream that skips goes on to the next element within one `next()`: it stops at
        // the batch's last element, skipped or not.
        elements.countLimit = batch.count
        do {
            while !board.isCancelled {
                if let count = batch.count, elements.count >= count {
                    // (The element after the batch is the next batch's, skipped or not.)
                    result.isComplete = true
                    try readOn(past: batch, with: elements)
                    break
                }
                guard let value = try elements.next() else {
                    // (At the count: the last element was skipped, then the stream stopped.)
                    if let count = batch.count, elements.count >= count { continue }
                    result.arrayEnd = elements.arrayEnd
                    break
                }
                result.append(value)
            }
        } catch {
            result.error = error
            result.streamCount = elements.count
        }
        return result
    }

    /// After a counted batch's last element: checks that its stream reads on to the next
    /// batch's first element without a parse error before it. The scan does not parse what
    /// it takes for one element (`{…} {…}` is one to it, a missing comma to the parser), so
    /// the batch's stream parses up to the next batch. What the next element holds, or an
    /// error at or after its start, is the next batch's to find.
    /// - Throws: the parse error (or other error about the stream) before the next batch's
    ///   start; ``BatchMismatch`` when the array ends there.
    private func readOn(past batch: ElementBatch, with elements: JSONElements<Value>) throws {
        let count = elements.count
        // One element more at most, decoded, skipped or failing: the next batch's first.
        elements.countLimit = count + 1
        do {
            guard try elements.next() != nil || elements.count > count else { throw BatchMismatch() }
        } catch {
            guard let parse = ResumedErrors.parseError(in: error) else {
                if ResumedErrors.isElementError(error) { return }
                throw error
            }
            if let nextStart = batch.nextStart, parse.location.byteOffset >= nextStart { return }
            throw error
        }
    }
}

/// A batch's stream disagreed with the scan (the array ended before the next batch): never an
/// error the serial stream gives, so the batch is read again as the serial stream reads it.
struct BatchMismatch: Error {}
