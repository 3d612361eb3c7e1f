#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// Threads of Spool's own, outside any pool: the background parse thread of a
/// ``BatchRing`` (it blocks in `read(2)` and on the ring), and the scanner and workers of
/// ``ParallelJSONElements`` (they block on their ``Monitor``).
enum DetachedThread {
    /// Runs `body` on a detached thread of its own; when no thread can be had, on a shared one
    /// instead. The thread keeps what `body` captures alive until it returns.
    static func start(_ body: @escaping @Sendable () -> Void) {
        let work = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let status = pthread_create(&thread, nil, { argument in
            #if canImport(Darwin)
            Unmanaged<ThreadBody>.fromOpaque(argument).takeRetainedValue().body()
            #else
            if let argument { Unmanaged<ThreadBody>.fromOpaque(argument).takeRetainedValue().body() }
            #endif
            return nil
        }, work)
        if status == 0 {
            #if canImport(Darwin)
            if let thread { pthread_detach(thread) }
            #else
            pthread_detach(thread)
            #endif
        } else {
            // No thread to be had: run on a shared one instead.
            let body = Unmanaged<ThreadBody>.fromOpaque(work).takeRetainedValue().body
            DispatchQueue.global(qos: .userInitiated).async(execute: body)
        }
    }
}

/// A thread's work, passed through `pthread_create`'s context pointer.
private final class ThreadBody {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}
