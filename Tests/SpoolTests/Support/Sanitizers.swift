#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether the tests run under a sanitizer (`swift test --sanitize=address` or `thread`, or
/// `scripts/sanitize`), for the few tests that cannot: each says why in its trait, as in
/// `.disabled(if: Sanitizers.address, "...")`.
///
/// Found by the sanitizer's runtime, which exports its entry point from the test binary
/// (Linux links the runtime in, Apple platforms load it as a library).
enum Sanitizers {
    /// Under AddressSanitizer.
    static let address = isLoaded("__asan_init")
    /// Under ThreadSanitizer.
    static let thread = isLoaded("__tsan_init")

    private static func isLoaded(_ symbol: String) -> Bool {
        #if canImport(Darwin)
        dlsym(RTLD_DEFAULT, symbol) != nil
        #else
        dlsym(nil, symbol) != nil  // RTLD_DEFAULT
        #endif
    }
}

/// LeakSanitizer's suppressions for the test binary (AddressSanitizer's leak check at exit,
/// on by default on Linux): leaks of the toolchain's libraries, none of Spool's, which would
/// otherwise fail `swift test --sanitize=address` whatever the tests do. The runtime calls this
/// function by name when the binary defines it.
///
/// - XCTest's own run of no tests leaks its suite objects.
/// - `Data(contentsOf:)` leaks the buffer of some reads (`readBytesFromFile`).
/// - `Process.run()` leaks a weak reference's side table; the threads `Process` starts leak
///   their run loop (`Process.setup`) and socket manager (`__CFSocketManager`) when they are
///   still alive as the binary exits, which depends on timing.
@_cdecl("__lsan_default_suppressions")
func leakSanitizerSuppressions() -> UnsafePointer<CChar> {
    let suppressions: StaticString = """
        leak:libXCTest.so
        leak:FoundationEssentials17readBytesFromFile
        leak:Foundation7ProcessC3run
        leak:Foundation7ProcessC5setup
        leak:__CFSocketManager
        """
    return UnsafeRawPointer(suppressions.utf8Start).assumingMemoryBound(to: CChar.self)
}
