#ifndef CYAJL_SHIM_H
#define CYAJL_SHIM_H

#include <stdint.h>
#include <yajl/yajl_parse.h>

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

#endif
