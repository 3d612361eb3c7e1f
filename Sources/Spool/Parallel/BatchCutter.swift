/// Cuts the array at a path into ``ElementBatch``es of whole elements, about `batchBytes` each,
/// from the input read in chunks in order: the ``ElementScanner`` finds each element's bytes,
/// a ``LineCounter`` the line and column where each batch starts.
///
/// ```text
///  {"objects": [ {…}, {…}, {…}, {…}, {…}, {…}, {…} ], "last_updated": …}
///  └─ batch 0: from the document's start ─┘└─ 1 ──┘└── 2: to the array's end
/// ```
///
/// A batch is handed out one element late: it is cut once the element after it (or the
/// array's `]`) has been seen, so that the last batch always reads to the array's end, as the
/// serial stream does (``ElementBatch/Extent/toArrayEnd``). The first batch starts at the
/// document's start, so that whatever comes before the array is parsed by a stream from the
/// start. Once the scan doubts (``ScanDoubt``: invalid JSON, or JSON it does not vouch for),
/// the batch being gathered, or else the last one cut and not yet handed out, becomes the
/// ``ElementBatch/Extent/serialTail``: the rest of the array is read by one stream from there,
/// which finds the serial stream's error where the serial stream finds it. Nothing after the
/// array's `]` is read, as the serial stream reads nothing after it.
struct BatchCutter {
    /// Finds the elements' bytes.
    private var scanner: ElementScanner
    /// Counts lines up to each batch's first element.
    private var lines = LineCounter()
    /// About how many bytes of elements a batch holds (the first batch counts from offset 0).
    let batchBytes: Int
    /// The scanner's boundaries for the chunk being read.
    private var boundaries: [Range<Int>] = []

    /// The number of the next batch.
    private var nextNumber = 0
    /// Elements reported by the scanner so far.
    private var reported = 0
    /// The batch being gathered: its first element's index, offset and location, and count.
    private var gatheringFirst = 0
    private var gatheringOffset = 0
    private var gatheringStart: SourceLocation?
    private var gatheringCount = 0
    /// A batch cut, not yet handed out: it waits for the next element or the array's end.
    private var held: ElementBatch?
    /// The start of the element being read when the last chunk ended, located while that chunk
    /// was at hand (an element read over several chunks starts in an earlier one).
    private var openElement: SourceLocation?
    /// Whether the last batch has been handed out: nothing more is read.
    private(set) var isDone = false
    /// Whether the input has ended (``finish()``).
    private var inputEnded = false

    /// A cutter for the array at `path` (with `members`, the object there), read with `options`
    /// (with several top-level values, NDJSON, for those values: the empty path, no members);
    /// nil when the scanner cannot follow the path (a wildcard, a negative index, a path into
    /// NDJSON) or the options (comments).
    init?(path: JSONKeyPath, members: Bool = false, options: JSONParsingOptions, batchBytes: Int) {
        guard !options.allowsComments else { return nil }
        if options.allowsMultipleValues {
            guard path.isEmpty, !members else { return nil }
            scanner = ElementScanner(
                topLevelValues: .default, maxDepth: options.effectiveMaxDepth, allowsByteOrderMark: options.allowsByteOrderMark)
        } else {
            guard
                let scanner = ElementScanner(
                    path: path, members: members, maxDepth: options.effectiveMaxDepth,
                    allowsByteOrderMark: options.allowsByteOrderMark)
            else { return nil }
            self.scanner = scanner
        }
        self.batchBytes = max(1, batchBytes)
    }

    /// Reads the next chunk of the input; returns the batches it completes, in order.
    mutating func cut(_ chunk: UnsafeRawBufferPointer) -> [ElementBatch] {
        guard !isDone else { return [] }
        let base = scanner.offset
        boundaries.removeAll(keepingCapacity: true)
        scanner.scan(chunk, into: &boundaries)
        var batches: [ElementBatch] = []
        for boundary in boundaries {
            guard take(boundary, in: chunk, base: base, into: &batches) else {
                // (A start that could not be located: read serially from the last batch on.)
                endWithTail(into: &batches)
                return batches
            }
        }
        if scanner.elementStart >= base, scanner.elementStart < base + chunk.count {
            openElement = lines.location(of: scanner.elementStart, in: chunk, base: base)
        }
        lines.advance(to: base + chunk.count, in: chunk, base: base)
        end(into: &batches)
        return batches
    }

    /// Says that the input has ended; returns the last batches.
    mutating func finish() -> [ElementBatch] {
        guard !isDone else { return [] }
        boundaries.removeAll(keepingCapacity: true)
        let base = scanner.offset
        scanner.finish(into: &boundaries)
        var batches: [ElementBatch] = []
        // (NDJSON: the input's end completes a last number or literal. A value needs no start
        // located here: it started in a chunk already read.)
        for boundary in boundaries where boundary.lowerBound < base {
            guard take(boundary, in: UnsafeRawBufferPointer(start: nil, count: 0), base: base, into: &batches) else {
                endWithTail(into: &batches)
                return batches
            }
        }
        inputEnded = true
        end(into: &batches)
        if !isDone { endWithTail(into: &batches) }
        return batches
    }

    /// Says that the input could not be read further: the rest is read serially, whose
    /// stream meets the same failure where the serial stream does.
    mutating func fail() -> [ElementBatch] {
        guard !isDone else { return [] }
        var batches: [ElementBatch] = []
        endWithTail(into: &batches)
        return batches
    }

    // MARK: - Batches

    /// Adds the element at `boundary` to the batch being gathered, after handing out the batch
    /// held; cuts it when it is big enough. False when the element's start cannot be located.
    private mutating func take(
        _ boundary: Range<Int>, in chunk: UnsafeRawBufferPointer, base: Int, into batches: inout [ElementBatch]
    ) -> Bool {
        if gatheringCount == 0 {
            var start: SourceLocation?
            if nextNumber > 0 {
                if boundary.lowerBound >= base {
                    start = lines.location(of: boundary.lowerBound, in: chunk, base: base)
                } else if openElement?.byteOffset == boundary.lowerBound {
                    start = openElement
                }
                guard start != nil else { return false }
            }
            gatheringFirst = reported
            gatheringOffset = nextNumber == 0 ? 0 : boundary.lowerBound
            gatheringStart = start
        }
        if var batch = held {
            batch.nextStart = boundary.lowerBound
            batches.append(batch)
            held = nil
        }
        gatheringCount += 1
        reported += 1
        if boundary.upperBound - gatheringOffset >= batchBytes {
            held = gathered(.counted(gatheringCount))
        }
        return true
    }

    /// The batch being gathered, with `extent`; the next one is gathered from scratch.
    private mutating func gathered(_ extent: ElementBatch.Extent) -> ElementBatch {
        let batch = ElementBatch(number: nextNumber, firstIndex: gatheringFirst, start: gatheringStart, extent: extent)
        nextNumber += 1
        gatheringCount = 0
        return batch
    }

    /// After a chunk: the last batch once the array has ended (however the input goes on after
    /// it) or, for NDJSON, once the input has ended; the serial tail once the scanner doubts.
    private mutating func end(into batches: inout [ElementBatch]) {
        if scanner.arrayEnd != nil || (scanner.multipleValues && inputEnded && scanner.doubt == nil) {
            if let batch = held {
                batches.append(ElementBatch(number: batch.number, firstIndex: batch.firstIndex, start: batch.start, extent: .toArrayEnd))
                held = nil
            } else {
                // The elements gathered, or none at all: the first batch reads an empty array.
                batches.append(gathered(.toArrayEnd))
            }
            isDone = true
        } else if scanner.doubt != nil {
            endWithTail(into: &batches)
        }
    }

    /// Hands out the serial tail: the batch being gathered (after the one held), else the one
    /// held, else (no element seen) the first batch.
    private mutating func endWithTail(into batches: inout [ElementBatch]) {
        if let batch = held, gatheringCount == 0 {
            batches.append(ElementBatch(number: batch.number, firstIndex: batch.firstIndex, start: batch.start, extent: .serialTail))
        } else {
            // (After a batch held, the one gathered is not the first: its offset is its start.)
            if var batch = held {
                batch.nextStart = gatheringOffset
                batches.append(batch)
            }
            batches.append(gathered(.serialTail))
        }
        held = nil
        isDone = true
    }
}
