#ifndef CYAJL_SHIM_H
#define CYAJL_SHIM_H

#include <yajl/yajl_parse.h>

/// `yajl_config` is variadic, and Swift cannot call C variadic functions.
/// Every yajl 2.1 parser option takes a single `int` flag, so this fixed-arity
/// wrapper covers them all.
static inline int cyajl_config(yajl_handle handle, yajl_option option, int enabled) {
    return yajl_config(handle, option, enabled);
}

#endif
