#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether the tests run under a sanitizer, for the tests that cannot: as in
/// Tests/SpoolTests/Support/Sanitizers.swift (a target of its own cannot share it). The `spool`
/// these tests run is built with the same sanitizer.
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
