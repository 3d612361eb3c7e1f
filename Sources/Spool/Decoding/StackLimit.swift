#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How deep into the current thread's stack a decode may recurse before it refuses the value
/// instead of overflowing the stack.
///
/// A model recurses once per level of nesting (a Codable `init(from:)` calls the decoder, which
/// calls the child's `init(from:)`; a ``JSONDecodable`` `decode` calls the child's through
/// ``Extractor``), so a document nested deep enough crashes any recursive decoder on a small
/// stack (Apple's secondary threads have 512 KiB) or with a raised
/// ``JSONParsingOptions/maxDepth``. The decoders check the stack at each nested value they
/// decode: a comparison of the current stack address with ``checkpoint``. Ordinary documents never go
/// past the first, provisional checkpoint (``provisionalDepth`` below where decoding started),
/// so the thread's real bounds are looked up (`pthread_getattr_np`, which reads
/// `/proc/self/maps` for a process's main thread) only by deep ones.
struct StackLimit {
    /// Stack addresses at or above this pass; below it, ``exceeded(at:)`` decides.
    private var checkpoint: UInt
    /// Whether ``checkpoint`` is the real limit, from the thread's bounds.
    private var isExact = false
    /// The lowest address of the thread's stack, once looked up.
    private var stackLow: UInt = 0

    /// The stack used below the starting frame before the thread's bounds are looked up.
    static let provisionalDepth: UInt = 64 * 1024

    /// Where decoding started.
    private let start: UInt

    /// A limit for decoding that starts in the caller's frame.
    @inline(__always)
    init() {
        start = Self.currentAddress()
        checkpoint = start > Self.provisionalDepth ? start - Self.provisionalDepth : 0
    }

    /// An address in the caller's frame (or just below it): where the stack is now.
    ///
    /// The frame's own address, not a local variable's: under AddressSanitizer, which detects
    /// use after return by default on Linux, a local's address is on its "fake stack" on the
    /// heap, and a guard comparing those refused shallow documents and let deep ones overflow.
    @inline(__always)
    static func currentAddress() -> UInt {
        FrameAddress.current()
    }

    /// Whether the stack is too deep to decode another level here.
    @inline(__always)
    mutating func isExceeded() -> Bool {
        isExceeded(at: Self.currentAddress())
    }

    /// Whether the stack is too deep at the address `here`.
    @inline(__always)
    mutating func isExceeded(at here: UInt) -> Bool {
        here < checkpoint && exceeded(at: here)
    }

    /// Whether decoding has used less than `bytes` of stack so far: it is shallow, and may
    /// take a way that is quicker but uses more stack per level.
    @inline(__always)
    func isShallow(within bytes: UInt) -> Bool {
        Self.currentAddress() &+ bytes >= start
    }

    /// Whether `here`, below the checkpoint, is too deep. An address below the thread's stack
    /// is not on it (AddressSanitizer's fake frames for use-after-return detection live on the
    /// heap): no verdict from it.
    @inline(never)
    private mutating func exceeded(at here: UInt) -> Bool {
        if !isExact {
            isExact = true
            guard let (low, size) = Self.currentThreadStack() else {
                checkpoint = 0  // bounds unknown: no limit but the parser's maxDepth
                return false
            }
            stackLow = low
            checkpoint = low &+ Self.reserve(forStackOf: size)
        }
        return here >= stackLow && here < checkpoint
    }

    /// The stack kept free below the deepest level decoded: room for the error's own work and
    /// for one more level of a model's code between two checks, which in an unoptimized build
    /// can take several KiB. A sixteenth of the stack, between 32 KiB and 1 MiB (32 KiB of a
    /// 512 KiB stack, 512 KiB of an 8 MiB one).
    static func reserve(forStackOf size: UInt) -> UInt {
        min(max(size / 16, 32 * 1024), 1024 * 1024)
    }

    /// The lowest address and the size of the current thread's stack, or nil when the
    /// platform does not say.
    static func currentThreadStack() -> (low: UInt, size: UInt)? {
        #if canImport(Darwin)
        let thread = pthread_self()
        let high = UInt(bitPattern: pthread_get_stackaddr_np(thread))
        let size = UInt(pthread_get_stacksize_np(thread))
        guard high > size else { return nil }
        return (high - size, size)
        #elseif canImport(Glibc) || canImport(Musl)
        // (`pthread_getattr_np` is a GNU extension that the Swift module of the C library
        // does not export: it is found by name.)
        guard let getAttributes = getThreadAttributes else { return nil }
        var attributes = pthread_attr_t()
        guard getAttributes(pthread_self(), &attributes) == 0 else { return nil }
        defer { pthread_attr_destroy(&attributes) }
        var address: UnsafeMutableRawPointer?
        var size = 0
        guard pthread_attr_getstack(&attributes, &address, &size) == 0, let address, size > 0 else { return nil }
        return (UInt(bitPattern: address), UInt(size))
        #else
        return nil
        #endif
    }

    #if canImport(Glibc) || canImport(Musl)
    private typealias GetThreadAttributes = @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
    /// `pthread_getattr_np`, looked up once.
    private static let getThreadAttributes: GetThreadAttributes? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pthread_getattr_np") else { return nil }
        return unsafeBitCast(symbol, to: GetThreadAttributes.self)
    }()
    #endif
}
