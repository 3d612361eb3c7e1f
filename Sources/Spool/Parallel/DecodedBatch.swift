/// What one batch's stream gave: its elements in order, and the error that stopped it, if any.
///
/// A class holding its elements in storage of its own, which the consumer moves them out of
/// one by one (``takeNext()``): an element changes hands without a copy and is never destroyed
/// here, and handing one out looks up no generic metadata. (As a struct holding an `[Value]`,
/// each element handed out cost a metadata lookup of `DecodedBatch<Value>` in unspecialized
/// code, a copy of the value and, with the array, its destruction: about 1,000 instructions
/// an element.)
///
/// A worker fills it (``append(_:)``), the ``BatchBoard`` hands it over under its lock, and
/// the consumer alone reads it after that.
final class DecodedBatch<Value> {
    /// The batch read.
    let batch: ElementBatch
    /// What stopped the batch's stream before its end, if anything.
    var error: (any Error)?
    /// Where the array's `]` is, when the batch's stream read to it.
    var arrayEnd: SourceLocation?
    /// The batch's stream's ``JSONElements/count`` when it stopped: its elements, and the one
    /// its error is about, if any.
    var streamCount = 0
    /// Whether the batch's elements have all been read (a counted batch's stream reads on
    /// past them): a report after that is about the next batch's element, not recorded.
    var isComplete = false
    /// Whether an element was skipped for being nested too deep for the worker's stack
    /// (``ResumedErrors/isTooDeep(_:)``): the batch is read again on the consumer's thread.
    private(set) var skippedTooDeep = false
    /// Whether the batch's values (or skip reports) keep a decoder or container of theirs
    /// (``WorkerSession/batchEnded()``), whose tokens the batch's stream has released: the
    /// batch is read again on the consumer's thread, as the serial stream reads it.
    var keepsDecoders = false

    /// The elements skipped with `.skip` (``ElementErrorPolicy``), in order, each with the
    /// number of elements decoded before it; the consumer hands them to the caller's closure
    /// between the elements, where the serial stream would.
    private var skips: [(decodedBefore: Int, report: SkippedElement)] = []
    /// How many skips were handed on.
    private var skipsTaken = 0

    /// The elements from `taken` to `count` are initialized.
    private var storage: UnsafeMutablePointer<Value>
    private var capacity: Int
    /// How many elements were decoded: all of them, or those before the error.
    private(set) var count = 0
    /// How many were moved out.
    private var taken = 0

    /// An empty batch for `batch`, with room for `capacity` elements.
    init(batch: ElementBatch, capacity: Int) {
        self.batch = batch
        self.capacity = max(1, capacity)
        storage = .allocate(capacity: self.capacity)
    }

    deinit {
        (storage + taken).deinitialize(count: count &- taken)
        storage.deallocate()
    }

    /// The elements the batch's stream read: those decoded and those skipped.
    var elementCount: Int { count &+ skips.count }

    /// Records a skipped element (the batch's stream's `.skip` closure).
    func skipped(_ report: SkippedElement) {
        guard !isComplete else { return }
        if report.error.code == .tooDeep { skippedTooDeep = true }
        skips.append((count, report))
    }

    /// The next skipped element to hand on before the next element (or, after the last, at the
    /// batch's end); nil when there is none.
    @inline(__always)
    func nextSkipped() -> SkippedElement? {
        guard skipsTaken < skips.count, skips[skipsTaken].decodedBefore == taken else { return nil }
        skipsTaken &+= 1
        return skips[skipsTaken &- 1].report
    }

    /// Adds the next element.
    func append(_ value: consuming Value) {
        if count == capacity {
            let grown = UnsafeMutablePointer<Value>.allocate(capacity: capacity &* 2)
            grown.moveInitialize(from: storage, count: count)
            storage.deallocate()
            storage = grown
            capacity &*= 2
        }
        (storage + count).initialize(to: value)
        count &+= 1
    }

    /// Whether an element is left to hand out.
    @inline(__always)
    var hasNext: Bool { taken < count }

    /// The next element not handed out yet, moved out; nil after the last.
    @inline(__always)
    func takeNext() -> Value? {
        guard taken < count else { return nil }
        let next = storage + taken
        taken &+= 1
        return next.move()
    }
}
