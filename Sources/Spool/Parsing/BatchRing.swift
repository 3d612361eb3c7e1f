import Dispatch
import Synchronization

/// The hand-over between a background thread that fills batches and the reader's thread that
/// empties them, in order, through a ring of a few reusable batches (``BackgroundPipeline``).
///
/// A batch belongs to the background thread while it is being filled, and to the reader's
/// thread between ``take()`` and ``give()``; the semaphores order every hand-over, which is why
/// this type, and the batches it hands over, need no locks (`@unchecked Sendable`).
final class BatchRing<Batch: AnyObject>: @unchecked Sendable {
    let batches: [Batch]
    /// Batches filled and not yet taken.
    private let ready = DispatchSemaphore(value: 0)
    /// Batches free for the producer. Created at 0 and signalled up: libdispatch traps when a
    /// semaphore is freed below the value it was created with, which a cancelled run can leave.
    private let free = DispatchSemaphore(value: 0)
    private let cancelled = Atomic<Bool>(false)
    /// Batches shipped so far, for the reader's thread to spin on briefly before it sleeps.
    private let shipped = Atomic<Int>(0)

    // Background thread's.
    private var produceIndex = 0
    // Reader's thread's.
    private var consumeIndex = 0
    private var taken = 0

    init(_ batches: [Batch]) {
        self.batches = batches
        for _ in batches { free.signal() }
    }

    // MARK: - Background thread

    /// Starts the background thread. It fills each free batch with `fill`, which returns true
    /// once the input has ended (or on ``isCancelled``), and hands it to the reader, until then
    /// or until the reader has gone. The thread keeps what `fill` captures alive until it stops.
    func start(filling fill: @escaping @Sendable (Batch) -> Bool) {
        DetachedThread.start {
            var finished = false
            while !finished {
                guard let batch = self.nextFree() else { return }
                finished = fill(batch)
                self.ship()
            }
        }
    }

    /// Whether the reader has gone (``cancel()``): the background thread should stop.
    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// One batch's reading, for either producer: calls `readChunk` (which returns the bytes it
    /// read, 0 at the end of the input) until the input ends or `more(chunks, full)` says the
    /// batch is done; `full` tells whether the last read filled a whole chunk of `chunkSize`,
    /// as a file does and a pipe that has paused does not. Returns true at the end of the
    /// input, false when the batch is done, nil once the reader has gone.
    func readChunks(
        chunkSize: Int, _ readChunk: () throws -> Int, while more: (_ chunks: Int, _ full: Bool) -> Bool
    ) rethrows -> Bool? {
        var chunks = 0
        while true {
            if isCancelled { return nil }
            let count = try readChunk()
            if count == 0 { return true }
            chunks += 1
            if !more(chunks, count >= chunkSize) { return false }
        }
    }

    /// Waits for the next batch the reader has given back; nil once cancelled.
    private func nextFree() -> Batch? {
        free.wait()
        if isCancelled { return nil }
        return batches[produceIndex]
    }

    /// Hands the batch from ``nextFree()`` to the reader.
    private func ship() {
        produceIndex = (produceIndex + 1) % batches.count
        shipped.add(1, ordering: .releasing)
        ready.signal()
    }

    // MARK: - Reader's thread


    /// Waits for the next filled batch.
    func take() -> Batch {
        // A glance before sleeping, no more: spinning while the background thread works takes
        // a core from it (or from another process), and measured no faster than sleeping on the
        // semaphore (issue 21: a 1 GB stream used 11.6 s of CPU for 6.2 s of wall time with
        // 20,000 spins a batch).
        var spins = 0
        while shipped.load(ordering: .acquiring) == taken && spins < BatchRingSpin.limit { spins &+= 1 }
        ready.wait()
        taken &+= 1
        let batch = batches[consumeIndex]
        consumeIndex = (consumeIndex + 1) % batches.count
        return batch
    }

    /// Gives a batch back to the background thread; batches go back in the order taken.
    func give() {
        free.signal()
    }

    /// Asks the background thread to stop at its next step. Does not wait for it: it may be
    /// blocked in `read(2)` on a pipe, and owns everything it touches.
    func cancel() {
        cancelled.store(true, ordering: .releasing)
        free.signal()
    }
}

/// The reader's thread's glance at the ring before it sleeps on the semaphore.
enum BatchRingSpin {
    static let limit = 64
}
