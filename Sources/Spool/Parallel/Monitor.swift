#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A lock and a condition to wait on under it (a pthread mutex and condition variable): what
/// the threads of ``ParallelJSONElements`` share their ``BatchBoard`` through, each waiting
/// without spinning until the state it waits for has been reached; and the lock of the
/// process-wide table of ``KnownArrays``.
///
/// The state itself belongs to the user of the monitor, which touches it only inside
/// ``withLock(_:)``; every change that another thread may wait for is followed by
/// ``broadcast()``. That is why this type is `@unchecked Sendable`: the pthread objects live at
/// stable allocated addresses, and pthreads orders every access to them.
final class Monitor: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    /// A monitor with its lock open and no thread waiting.
    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deinitialize(count: 1)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` holding the lock.
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Inside ``withLock(_:)``: releases the lock until another thread calls ``broadcast()``
    /// (or spuriously), then takes it again. Callers check their condition in a loop.
    func wait() {
        pthread_cond_wait(condition, mutex)
    }

    /// Wakes every thread waiting in ``wait()``.
    func broadcast() {
        pthread_cond_broadcast(condition)
    }
}
