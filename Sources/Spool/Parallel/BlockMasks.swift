/// The bytes of a 64-byte block that the scanner looks at, one bit per byte (bit i for byte i):
/// quotes, backslashes, brackets and commas.
///
/// On x86-64 they come from the C shim (``VectorBlockMasks``): with AVX-512BW where the CPU
/// has it, each 64-byte comparison giving its bits at once; else SSE2, whose `pmovmskb` turns
/// a comparison into bits in one instruction: about 45 instructions a block for three masks
/// (brackets and commas together), where the Swift way below took 199 (callgrind, the 10 MB
/// catalog's scan: 48.6M -> 24M instructions); about 60 for the four masks of today.
/// Elsewhere, and for the tests that hold the two against each other, the Swift way:
/// four `SIMD16<UInt8>` comparisons each. Swift has no movemask, and
/// compiles for plain x86-64 (SSE2) unless told otherwise, so the bits are gathered by hand:
/// the comparison's 0/0xFF lanes masked with one bit weight per lane (1, 2, 4 ... 128 in each
/// half), each 8-byte half multiplied by 0x0101_0101_0101_0101 so that its byte sum lands in
/// the top byte. (`SIMD64<UInt8>` comparisons, `lowHalf`/`highHalf` and lane shifts on bytes
/// compile to a loop over the lanes: the block is read as four 16-byte vectors.)
struct BlockMasks {
    var quote: UInt64
    var backslash: UInt64
    /// `[`, `]`, `{` and `}`.
    var bracket: UInt64
    /// `,`: kept apart from the brackets, since the scanner looks at a comma only at the
    /// array's own level, and most of them are inside its elements.
    var comma: UInt64

    /// The masks of the 64 bytes at `bytes`, by the C shim's `path` where the build has it
    /// (read ``VectorBlockMasks/fastest`` once, outside the loop), else by Swift alone.
    @inline(__always)
    init(_ bytes: UnsafeRawPointer, path: VectorBlockMasks.Path = VectorBlockMasks.fastest) {
        if VectorBlockMasks.isAvailable {
            let masks = VectorBlockMasks.masks(at: bytes, path: path)
            self.init(quote: masks.quote, backslash: masks.backslash, bracket: masks.bracket, comma: masks.comma)
        } else {
            self.init(portable: bytes)
        }
    }

    @inline(__always)
    private init(quote: UInt64, backslash: UInt64, bracket: UInt64, comma: UInt64) {
        self.quote = quote
        self.backslash = backslash
        self.bracket = bracket
        self.comma = comma
    }

    /// The masks of the 64 bytes at `bytes`, from Swift's SIMD types alone.
    @inline(__always)
    init(portable bytes: UnsafeRawPointer) {
        let v0 = bytes.loadUnaligned(as: SIMD16<UInt8>.self)
        let v1 = bytes.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self)
        let v2 = bytes.loadUnaligned(fromByteOffset: 32, as: SIMD16<UInt8>.self)
        let v3 = bytes.loadUnaligned(fromByteOffset: 48, as: SIMD16<UInt8>.self)
        quote = Self.bits(Self.quotes(v0), Self.quotes(v1), Self.quotes(v2), Self.quotes(v3))
        bracket = Self.bits(Self.brackets(v0), Self.brackets(v1), Self.brackets(v2), Self.brackets(v3))
        comma = Self.bits(Self.commas(v0), Self.commas(v1), Self.commas(v2), Self.commas(v3))
        // Backslashes are rare outside some strings: gathered only when the block has one.
        let b0 = Self.backslashes(v0)
        let b1 = Self.backslashes(v1)
        let b2 = Self.backslashes(v2)
        let b3 = Self.backslashes(v3)
        if Self.any(b0 .| b1 .| b2 .| b3) {
            backslash = Self.bits(b0, b1, b2, b3)
        } else {
            backslash = 0
        }
    }

    @inline(__always)
    static func quotes(_ v: SIMD16<UInt8>) -> SIMDMask<SIMD16<Int8>> {
        v .== SIMD16(repeating: UInt8(ascii: "\""))
    }

    @inline(__always)
    static func backslashes(_ v: SIMD16<UInt8>) -> SIMDMask<SIMD16<Int8>> {
        v .== SIMD16(repeating: UInt8(ascii: "\\"))
    }

    /// `[` and `{` are 0x5B and 0x7B, `]` and `}` 0x5D and 0x7D: with 0x20 set, two values.
    @inline(__always)
    static func brackets(_ v: SIMD16<UInt8>) -> SIMDMask<SIMD16<Int8>> {
        let folded = v | SIMD16(repeating: 0x20)
        return (folded .== SIMD16(repeating: UInt8(ascii: "{"))) .| (folded .== SIMD16(repeating: UInt8(ascii: "}")))
    }

    @inline(__always)
    static func commas(_ v: SIMD16<UInt8>) -> SIMDMask<SIMD16<Int8>> {
        v .== SIMD16(repeating: UInt8(ascii: ","))
    }

    /// The two 64-bit halves of a 16-byte vector (a reinterpretation: no lanes move).
    @inline(__always)
    static func halves(_ m: SIMDMask<SIMD16<Int8>>, weighted: Bool) -> SIMD2<UInt64> {
        var lanes = SIMD16<UInt8>(truncatingIfNeeded: m._storage)
        if weighted { lanes &= SIMD16(1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128) }
        return unsafeBitCast(lanes, to: SIMD2<UInt64>.self)
    }

    /// Whether any lane is set.
    @inline(__always)
    static func any(_ m: SIMDMask<SIMD16<Int8>>) -> Bool {
        let halves = halves(m, weighted: false)
        return halves[0] | halves[1] != 0
    }

    /// The 16 bits of one vector's lanes.
    @inline(__always)
    static func bits(_ m: SIMDMask<SIMD16<Int8>>) -> UInt64 {
        let halves = halves(m, weighted: true)
        // Each byte holds its own bit: their sum (no carries) lands in the top byte.
        let low = (halves[0] &* 0x0101_0101_0101_0101) >> 56
        let high = (halves[1] &* 0x0101_0101_0101_0101) >> 56
        return low | high << 8
    }

    /// The 64 bits of four vectors' lanes.
    @inline(__always)
    static func bits(
        _ m0: SIMDMask<SIMD16<Int8>>, _ m1: SIMDMask<SIMD16<Int8>>, _ m2: SIMDMask<SIMD16<Int8>>, _ m3: SIMDMask<SIMD16<Int8>>
    ) -> UInt64 {
        bits(m0) | bits(m1) << 16 | bits(m2) << 32 | bits(m3) << 48
    }

    /// The bytes escaped by a backslash (the byte after an odd run of backslashes), given the
    /// block's backslashes; `carry` is 1 when the block's first byte is escaped by the
    /// previous block, and is set for the next block. (simdjson's branchless method: runs
    /// that start on an odd bit are told apart from those on an even bit by an addition.)
    @inline(__always)
    static func escaped(_ backslash: UInt64, carry: inout UInt64) -> UInt64 {
        let backslash = backslash & ~carry
        let followsEscape = backslash << 1 | carry
        let evenBits: UInt64 = 0x5555_5555_5555_5555
        let oddStarts = backslash & ~evenBits & ~followsEscape
        let (sum, overflow) = oddStarts.addingReportingOverflow(backslash)
        carry = overflow ? 1 : 0
        return (evenBits ^ (sum << 1)) & followsEscape
    }

    /// Each bit the XOR of itself and every lower bit: with quotes in, the bytes from an
    /// opening quote (included) to its closing quote (excluded).
    @inline(__always)
    static func prefixXOR(_ x: UInt64) -> UInt64 {
        var x = x
        x ^= x << 1
        x ^= x << 2
        x ^= x << 4
        x ^= x << 8
        x ^= x << 16
        x ^= x << 32
        return x
    }
}
