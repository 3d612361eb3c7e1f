import Synchronization

/// What one batch's stream gave: its elements in order, and the error that stopped it, if any.
struct DecodedBatch<Value> {
    /// The batch read.
    let batch: ElementBatch
    /// Its elements, decoded, in order: all of them, or those before the error.
    var values: [Value]
    /// What stopped the batch's stream before its end, if anything.
    var error: (any Error)?
    /// Where the array's `]` is, when the batch's stream read to it.
    var arrayEnd: SourceLocation?
    /// The batch's stream's ``JSONElements/count`` when it stopped: its elements, and the one
    /// its error is about, if any.
    var streamCount = 0
}

/// The state the threads of ``ParallelJSONElements`` share: the batches cut and not yet taken
/// by a worker, the batches decoded and not yet taken by the consumer, and the serial tail.
///
/// ```text
///  scanner thread ──publish──▶ [queue of cut batches] ──nextBatch──▶ N worker threads
///                                                                        │ deliver
///  consumer (next()) ◀──take(number) in batch order── [decoded batches] ◀┘
/// ```
///
/// Bounds: a worker starts batch *b* only while *b* is less than the batches the consumer has
/// taken plus ``window`` (two per worker), so at most ``window`` batches are decoded or being
/// decoded ahead of the consumer, whatever the input's size; the scanner waits while
/// ``queueLimit`` cut batches wait for a worker. Every wait is on the ``Monitor``, none spins.
///
/// Everything here is touched under the monitor's lock, and decoded values change threads
/// only through it (a worker makes them and never touches them again), which is why this type
/// is `@unchecked Sendable`.
final class BatchBoard<Value>: @unchecked Sendable {
    /// The lock every field below is touched under, and the condition every thread waits on.
    private let monitor = Monitor()
    /// Batches ahead of the consumer that workers may decode at once: two per worker.
    let window: Int
    /// Cut batches that may wait for a worker before the scanner waits.
    let queueLimit: Int
    /// The threads started and not yet finished (for tests: none once the engine is gone).
    let liveThreads = Atomic<Int>(0)
    /// Set by ``cancel()``, read without the lock in the workers' loops.
    private let cancelled = Atomic<Bool>(false)

    // Under the monitor's lock.
    /// Batches cut, in order: those from `queueHead` on wait for a worker.
    private var queue: [ElementBatch] = []
    private var queueHead = 0
    /// Batches decoded, by number, until the consumer takes them.
    private var decoded: [Int: DecodedBatch<Value>] = [:]
    /// The serial tail, once cut.
    private var tail: ElementBatch?
    /// The number of batches, once the scanner has cut the last one.
    private var batchCount: Int?
    /// Batches taken by the consumer.
    private var taken = 0
    /// The most batches started by workers and not yet taken by the consumer at any time.
    private var mostAhead = 0

    /// A board for `workers` worker threads.
    init(workers: Int) {
        window = 2 * max(1, workers)
        queueLimit = 4 * max(1, workers)
    }

    /// The most batches that were decoded, or being decoded, ahead of the consumer at once:
    /// at most ``window`` (for tests).
    var mostBatchesAhead: Int { monitor.withLock { mostAhead } }

    /// Whether the consumer has gone or stopped (every thread should stop).
    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Stops every thread at its next step and wakes those that wait.
    func cancel() {
        cancelled.store(true, ordering: .releasing)
        monitor.withLock { monitor.broadcast() }
    }

    // MARK: - Scanner thread

    /// Adds a batch cut by the scanner, in order, once fewer than ``queueLimit`` wait for a
    /// worker (the serial tail waits for the consumer). False once cancelled.
    func publish(_ batch: ElementBatch) -> Bool {
        monitor.withLock {
            if batch.extent == .serialTail {
                tail = batch
            } else {
                while !isCancelled && queue.count - queueHead >= queueLimit { monitor.wait() }
                if isCancelled { return false }
                if queueHead > 0 && queueHead == queue.count {
                    queue.removeAll(keepingCapacity: true)
                    queueHead = 0
                }
                queue.append(batch)
            }
            monitor.broadcast()
            return !isCancelled
        }
    }

    /// Says that every batch has been published: `count` of them, the serial tail included.
    func finishPublishing(count: Int) {
        monitor.withLock {
            batchCount = count
            monitor.broadcast()
        }
    }

    // MARK: - Worker threads

    /// The next batch to decode, once it is within the window; nil when there are no more
    /// (or on cancellation).
    func nextBatch() -> ElementBatch? {
        monitor.withLock {
            while !isCancelled {
                if queueHead < queue.count {
                    let batch = queue[queueHead]
                    if batch.number < taken + window {
                        queueHead += 1
                        mostAhead = max(mostAhead, batch.number + 1 - taken)
                        monitor.broadcast()
                        return batch
                    }
                } else if batchCount != nil {
                    return nil
                }
                monitor.wait()
            }
            return nil
        }
    }

    /// Hands a decoded batch to the consumer.
    func deliver(_ result: DecodedBatch<Value>) {
        monitor.withLock {
            decoded[result.batch.number] = result
            monitor.broadcast()
        }
    }

    // MARK: - Consumer

    /// What the consumer finds at its next batch.
    enum Next {
        /// The batch, decoded.
        case decoded(DecodedBatch<Value>)
        /// The serial tail, for the consumer to read.
        case serialTail(ElementBatch)
        /// No more batches.
        case end
    }

    /// Waits for batch `number` (the one after the last taken) and takes it.
    func take(_ number: Int) -> Next {
        monitor.withLock {
            while true {
                if let result = decoded.removeValue(forKey: number) {
                    taken = number + 1
                    monitor.broadcast()
                    return .decoded(result)
                }
                if let tail, tail.number == number {
                    taken = number + 1
                    monitor.broadcast()
                    return .serialTail(tail)
                }
                if let batchCount, number >= batchCount { return .end }
                // (Cancelled only by the consumer itself, which is here: cannot happen.)
                if isCancelled { return .end }
                monitor.wait()
            }
        }
    }
}
