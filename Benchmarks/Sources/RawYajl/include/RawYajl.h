#ifndef RAW_YAJL_H
#define RAW_YAJL_H

#include <stddef.h>

/// Parses the file at `path` with yajl 2.1, `chunk` bytes per read(2), with callbacks that
/// only count events (numbers through yajl_number, as text). Returns the number of events,
/// or -1 when the file cannot be read or is not valid JSON.
long long raw_yajl_count_events(const char *path, size_t chunk);

#endif
