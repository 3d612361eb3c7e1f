internal import CYajl

/// The C shim's vector masks of a 64-byte block for the element pre-scan (``BlockMasks``),
/// kept here so that this folder stays the one place Swift reaches into C: AVX-512BW or AVX2
/// where the CPU has them, else SSE2 (every x86-64).
enum VectorBlockMasks {
    /// The instructions a build and CPU give the masks with.
    enum Path {
        /// SSE2: four 16-byte comparisons per byte class, each turned into bits by `pmovmskb`.
        case sse2
        /// AVX2: two 32-byte comparisons per byte class, each turned into bits by `vpmovmskb`.
        case avx2
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
    /// which gives a thread AVX-512 state only once it uses it, XGETBV says no to AVX-512:
    /// AVX2 there. Valgrind has no AVX-512 either, so callgrind counts the AVX2 path.)
    static let fastest: Path = runnable.last ?? .sse2

    /// Every path this CPU runs, narrowest first: SSE2 on every x86-64, then AVX2 and
    /// AVX-512BW where the CPU and the operating system have them; none elsewhere.
    static let runnable: [Path] = {
        #if arch(x86_64)
        switch cyajl_vector_level() {
        case 2: return [.sse2, .avx2, .avx512]
        case 1: return [.sse2, .avx2]
        default: return [.sse2]
        }
        #else
        return []
        #endif
    }()

    /// The quote, backslash, bracket (`[`, `]`, `{`, `}`) and comma bits of the 64 bytes at
    /// `block`, bit i for byte i, by `path` (``fastest``, or one the CPU runs).
    @inline(__always)
    static func masks(at block: UnsafeRawPointer, path: Path) -> (quote: UInt64, backslash: UInt64, bracket: UInt64, comma: UInt64) {
        #if arch(x86_64)
        let masks: cyajl_block_masks
        switch path {
        case .sse2: masks = cyajl_scan_block(block)
        case .avx2: masks = cyajl_scan_block_avx2(block)
        case .avx512: masks = cyajl_scan_block_avx512(block)
        }
        return (masks.quote, masks.backslash, masks.bracket, masks.comma)
        #else
        return (0, 0, 0, 0)
        #endif
    }
}
