#ifndef CYAJL_SHIM_H
#define CYAJL_SHIM_H

#include <stdint.h>
#include <yajl/yajl_parse.h>
#if defined(__SSE2__)
#include <emmintrin.h>
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

/// The quotes, backslashes and structural bytes (`[`, `]`, `{`, `}`, `,`) of a 64-byte block,
/// one bit per byte (bit i for byte i), for Spool's element pre-scan (`BlockMasks`). Swift
/// has no movemask: its own SIMD comparisons take about 50 instructions a mask to become bits,
/// SSE2's `pmovmskb` one. Only where SSE2 is (every x86-64); elsewhere Spool's Swift masks.
typedef struct {
    uint64_t quote;
    uint64_t backslash;
    uint64_t structural;
} cyajl_block_masks;

#if defined(__SSE2__)
static inline cyajl_block_masks cyajl_scan_block(const void *block) {
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i comma = _mm_set1_epi8(',');
    const __m128i open = _mm_set1_epi8('{');
    const __m128i close = _mm_set1_epi8('}');
    const __m128i fold = _mm_set1_epi8(0x20); /* `[` and `]` with 0x20 set are `{` and `}` */
    cyajl_block_masks masks = {0, 0, 0};
    for (int part = 0; part < 4; part++) {
        const __m128i bytes = _mm_loadu_si128((const __m128i *)((const char *)block + 16 * part));
        const __m128i folded = _mm_or_si128(bytes, fold);
        const __m128i structural = _mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(folded, open), _mm_cmpeq_epi8(folded, close)), _mm_cmpeq_epi8(bytes, comma));
        const int shift = 16 * part;
        masks.quote |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, quote)) << shift;
        masks.backslash |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, backslash)) << shift;
        masks.structural |= (uint64_t)(uint16_t)_mm_movemask_epi8(structural) << shift;
    }
    return masks;
}
#endif

#endif
