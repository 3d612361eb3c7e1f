internal import CYajl

/// The C shim's vector masks of a 64-byte block for the element pre-scan (``BlockMasks``),
/// kept here so that this folder stays the one place Swift reaches into C: AVX-512BW where the
/// CPU has it, else SSE2 (every x86-64).
enum VectorBlockMasks {
    /// The instructions a build and CPU give the masks with.
    enum Path {
        /// SSE2: four 16-byte comparisons per byte class, each turned into bits by `pmovmskb`.
        case sse2
        /// AVX-512BW: one 64-byte comparison per byte class, whose mask is the bits.
        case avx512
    }

    /// Whether this build has them (every x86-64); elsewhere ``masks(at:path:)`` is not to be
    /// called.
    #if arch(x86_64)
    static let isAvailable = true
    #else
    static let isAvailable = false
    #endif

    /// The widest path this CPU runs, read once per process (CPUID and XGETBV). (On macOS,
    /// which gives a thread AVX-512 state only once it uses it, XGETBV says no: SSE2 there.
    /// Valgrind has no AVX-512 either, so callgrind counts the SSE2 path.)
    static let fastest: Path = {
        #if arch(x86_64)
        return cyajl_has_avx512bw() != 0 ? .avx512 : .sse2
        #else
        return .sse2
        #endif
    }()

    /// The quote, backslash, bracket (`[`, `]`, `{`, `}`) and comma bits of the 64 bytes at
    /// `block`, bit i for byte i, by `path` (``fastest``, or one the CPU runs).
    @inline(__always)
    static func masks(at block: UnsafeRawPointer, path: Path) -> (quote: UInt64, backslash: UInt64, bracket: UInt64, comma: UInt64) {
        #if arch(x86_64)
        let masks = path == .avx512 ? cyajl_scan_block_avx512(block) : cyajl_scan_block(block)
        return (masks.quote, masks.backslash, masks.bracket, masks.comma)
        #else
        return (0, 0, 0, 0)
        #endif
    }
}
