import Foundation
@testable import Spool

/// Runs code on a thread with a small stack, as Apple platforms give secondary threads
/// (512 KiB), and measures how much of the stack it used.
///
/// Stack use is measured by painting: before `body` runs, the thread fills its unused stack
/// (below the current frame, down to a safety margin above the guard page) with a pattern, and
/// afterwards finds the deepest byte that no longer holds it. A stack overflow still crashes
/// the test process, which is how a regression shows.
enum SmallStack {
    /// The stack size of Apple's secondary threads.
    static let appleSecondaryThread = 512 * 1024

    /// What `body` returned (or threw) and how many bytes of stack it used below the frame
    /// that called it.
    struct Run<Result> {
        var result: Swift.Result<Result, any Error>
        var stackUsed: Int
    }

    private final class Box<Result>: @unchecked Sendable {
        var run: Run<Result>?
        let body: () throws -> Result
        init(_ body: @escaping () throws -> Result) { self.body = body }
    }

    private static let pattern: UInt64 = 0x5A5A_A5A5_C3C3_3C3C
    /// Bytes left unpainted just below the painting frame (room for the painter itself), and
    /// above the end of the stack (the thread's start-up frames, TLS and guard page).
    private static let nearMargin = 8 * 1024
    private static let farMargin = 48 * 1024

    /// Runs `body` on a new thread whose stack is `stackSize` bytes and waits for it.
    static func run<Result>(stackSize: Int = appleSecondaryThread, _ body: @escaping () throws -> Result) -> Run<Result> {
        let box = Box(body)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.run = measure(stackSize: stackSize, box.body)
            done.signal()
        }
        thread.stackSize = stackSize
        thread.start()
        done.wait()
        return box.run ?? Run(result: .failure(CancellationError()), stackUsed: 0)
    }

    @inline(never)
    private static func measure<Result>(stackSize: Int, _ body: () throws -> Result) -> Run<Result> {
        // The frame's address, not a local's: under AddressSanitizer locals live on its fake
        // stack, away from the thread's.
        let top = StackLimit.currentAddress()
        let paintTop = (top - UInt(nearMargin)) & ~7
        let paintBottom = (top - UInt(stackSize - farMargin)) & ~7
        paint(from: paintBottom, to: paintTop)
        let result = Swift.Result { try body() }
        let lowest = lowestTouched(from: paintBottom, to: paintTop)
        return Run(result: result, stackUsed: Int(top - lowest))
    }

    @inline(never)
    private static func paint(from bottom: UInt, to top: UInt) {
        guard let start = UnsafeMutablePointer<UInt64>(bitPattern: bottom) else { return }
        start.initialize(repeating: pattern, count: Int(top - bottom) / 8)
    }

    /// The lowest address whose word no longer holds the pattern (`top` if none).
    private static func lowestTouched(from bottom: UInt, to top: UInt) -> UInt {
        guard let start = UnsafePointer<UInt64>(bitPattern: bottom) else { return top }
        let count = Int(top - bottom) / 8
        for i in 0..<count where start[i] != pattern { return bottom + UInt(i * 8) }
        return top
    }
}
