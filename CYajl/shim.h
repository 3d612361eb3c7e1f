#ifndef CYAJL_SHIM_H
#define CYAJL_SHIM_H

#include <stdint.h>
#include <yajl/yajl_parse.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <cpuid.h>
#include <immintrin.h>
#define CYAJL_HAS_WIDE_PATHS 1
#endif

/// `yajl_config` is variadic, and Swift cannot call C variadic functions.
/// Every yajl 2.1 parser option takes a single `int` flag, so this fixed-arity
/// wrapper covers them all.
static inline int cyajl_config(yajl_handle handle, yajl_option option, int enabled) {
    return yajl_config(handle, option, enabled);
}

/// An address in the current frame on the thread's real stack, for Spool's stack-depth guard
/// (`StackLimit`). Not the address of a local variable: AddressSanitizer, which detects use
/// after return by default on Linux, moves a function's locals into a "fake stack" on the
/// heap, where their addresses say nothing about the depth of the real stack.
static inline uintptr_t cyajl_frame_address(void) {
    return (uintptr_t)__builtin_frame_address(0);
}

/// The quotes, backslashes, brackets (`[`, `]`, `{`, `}`) and commas of a 64-byte block, one
/// bit per byte (bit i for byte i), for Spool's element pre-scan (`BlockMasks`). Swift
/// has no movemask: its own SIMD comparisons take about 50 instructions a mask to become bits,
/// SSE2's `pmovmskb` one. Only where SSE2 is (every x86-64), with AVX2 and AVX-512BW versions
/// below for the CPUs that run them; elsewhere Spool's Swift masks.
typedef struct {
    uint64_t quote;
    uint64_t backslash;
    uint64_t bracket;
    uint64_t comma;
} cyajl_block_masks;

#if defined(__SSE2__)
static inline cyajl_block_masks cyajl_scan_block(const void *block) {
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i comma = _mm_set1_epi8(',');
    const __m128i open = _mm_set1_epi8('{');
    const __m128i close = _mm_set1_epi8('}');
    const __m128i fold = _mm_set1_epi8(0x20); /* `[` and `]` with 0x20 set are `{` and `}` */
    cyajl_block_masks masks = {0, 0, 0, 0};
    for (int part = 0; part < 4; part++) {
        const __m128i bytes = _mm_loadu_si128((const __m128i *)((const char *)block + 16 * part));
        const __m128i folded = _mm_or_si128(bytes, fold);
        const __m128i bracket = _mm_or_si128(_mm_cmpeq_epi8(folded, open), _mm_cmpeq_epi8(folded, close));
        const int shift = 16 * part;
        masks.quote |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, quote)) << shift;
        masks.backslash |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, backslash)) << shift;
        masks.bracket |= (uint64_t)(uint16_t)_mm_movemask_epi8(bracket) << shift;
        masks.comma |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, comma)) << shift;
    }
    return masks;
}
#endif

#if defined(CYAJL_HAS_WIDE_PATHS)
/// The widest masks this CPU and its operating system run, read once by Spool
/// (`VectorBlockMasks`): 2 for AVX-512BW (CPUID leaf 7's AVX512F and AVX512BW bits, and XCR0
/// saving the opmask and ZMM registers, bits 5-7, beside SSE and AVX state, bits 1-2), 1 for
/// AVX2 (leaf 1's AVX and leaf 7's AVX2 bits, XCR0 bits 1-2), 0 for SSE2 alone.
static inline int cyajl_vector_level(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    if (!(ecx & (1u << 27)) || !(ecx & (1u << 28))) return 0; /* OSXSAVE, AVX */
    unsigned int xcr0_low, xcr0_high;
    __asm__ volatile("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
    if ((xcr0_low & 0x6) != 0x6) return 0;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return 0;
    if (!(ebx & (1u << 5))) return 0; /* AVX2 */
    if ((xcr0_low & 0xE6) == 0xE6 && (ebx & (1u << 16)) && (ebx & (1u << 30))) return 2; /* AVX512F, AVX512BW */
    return 1;
}

/// The 64 bits of two 32-byte comparisons, `low` giving bits 0-31.
__attribute__((target("avx2")))
static inline uint64_t cyajl_bits_avx2(__m256i low, __m256i high) {
    return (uint64_t)(uint32_t)_mm256_movemask_epi8(low) | (uint64_t)(uint32_t)_mm256_movemask_epi8(high) << 32;
}

/// `cyajl_scan_block` with AVX2: two 32-byte comparisons per byte class, each turned into
/// bits by `vpmovmskb`; about 45 instructions a block where SSE2 takes about 85. Only where
/// `cyajl_vector_level()` says so: the build itself targets plain x86-64.
__attribute__((target("avx2")))
static inline cyajl_block_masks cyajl_scan_block_avx2(const void *block) {
    const __m256i low = _mm256_loadu_si256((const __m256i *)block);
    const __m256i high = _mm256_loadu_si256((const __m256i *)((const char *)block + 32));
    const __m256i fold = _mm256_set1_epi8(0x20); /* `[` and `]` with 0x20 set are `{` and `}` */
    const __m256i open = _mm256_set1_epi8('{');
    const __m256i close = _mm256_set1_epi8('}');
    const __m256i foldedLow = _mm256_or_si256(low, fold);
    const __m256i foldedHigh = _mm256_or_si256(high, fold);
    cyajl_block_masks masks;
    masks.quote = cyajl_bits_avx2(_mm256_cmpeq_epi8(low, _mm256_set1_epi8('"')), _mm256_cmpeq_epi8(high, _mm256_set1_epi8('"')));
    masks.backslash = cyajl_bits_avx2(_mm256_cmpeq_epi8(low, _mm256_set1_epi8('\\')), _mm256_cmpeq_epi8(high, _mm256_set1_epi8('\\')));
    masks.bracket = cyajl_bits_avx2(
        _mm256_or_si256(_mm256_cmpeq_epi8(foldedLow, open), _mm256_cmpeq_epi8(foldedLow, close)),
        _mm256_or_si256(_mm256_cmpeq_epi8(foldedHigh, open), _mm256_cmpeq_epi8(foldedHigh, close)));
    masks.comma = cyajl_bits_avx2(_mm256_cmpeq_epi8(low, _mm256_set1_epi8(',')), _mm256_cmpeq_epi8(high, _mm256_set1_epi8(',')));
    return masks;
}

/// `cyajl_scan_block` with AVX-512BW: each comparison of the 64 bytes gives its mask
/// directly, about 15 instructions a block where SSE2 takes about 60. Only where
/// `cyajl_vector_level()` says so.
__attribute__((target("avx512f,avx512bw")))
static inline cyajl_block_masks cyajl_scan_block_avx512(const void *block) {
    const __m512i bytes = _mm512_loadu_si512(block);
    const __m512i folded = _mm512_or_si512(bytes, _mm512_set1_epi8(0x20));
    cyajl_block_masks masks;
    masks.quote = _mm512_cmpeq_epi8_mask(bytes, _mm512_set1_epi8('"'));
    masks.backslash = _mm512_cmpeq_epi8_mask(bytes, _mm512_set1_epi8('\\'));
    masks.bracket = _mm512_cmpeq_epi8_mask(folded, _mm512_set1_epi8('{')) | _mm512_cmpeq_epi8_mask(folded, _mm512_set1_epi8('}'));
    masks.comma = _mm512_cmpeq_epi8_mask(bytes, _mm512_set1_epi8(','));
    return masks;
}
#endif

#endif
