internal import CYajl

/// The C shim's SSE2 masks of a 64-byte block for the element pre-scan (``BlockMasks``), kept
/// here so that this folder stays the one place Swift reaches into C.
enum VectorBlockMasks {
    /// Whether this build has them (every x86-64); elsewhere ``masks(at:)`` is not to be called.
    #if arch(x86_64)
    static let isAvailable = true
    #else
    static let isAvailable = false
    #endif

    /// The quote, backslash and structural (`[`, `]`, `{`, `}`, `,`) bits of the 64 bytes at
    /// `block`, bit i for byte i, inlined into the caller.
    @inline(__always)
    static func masks(at block: UnsafeRawPointer) -> (quote: UInt64, backslash: UInt64, structural: UInt64) {
        #if arch(x86_64)
        let masks = cyajl_scan_block(block)
        return (masks.quote, masks.backslash, masks.structural)
        #else
        return (0, 0, 0)
        #endif
    }
}
