internal import CYajl

/// A helper of the C shim that is not yajl's, kept here so that this folder stays the one
/// place Swift reaches into C (the other: ``VectorBlockMasks``).
enum FrameAddress {
    /// The current frame's address (`__builtin_frame_address(0)`), inlined into the caller, so
    /// the caller's frame: always on the thread's real stack, also under AddressSanitizer
    /// (``StackLimit``).
    @inline(__always)
    static func current() -> UInt {
        UInt(cyajl_frame_address())
    }
}
