#ifndef RAW_YAJL_H
#define RAW_YAJL_H

#include <stddef.h>
#include <yajl/yajl_gen.h>

/// Parses the file at `path` with yajl 2.1, `chunk` bytes per read(2), with callbacks that
/// only count events (numbers through yajl_number, as text). Returns the number of events,
/// or -1 when the file cannot be read or is not valid JSON.
long long raw_yajl_count_events(const char *path, size_t chunk);

/// Writes an array of `count` small objects to `path` with yajl_gen, all in C (numbers with
/// snprintf, through yajl_gen_number), 64 KiB write(2) calls. Returns `count`, or -1.
long long raw_yajl_gen_objects(const char *path, long long count);

/// A yajl_gen writing to `fd` through a 64 KiB buffer, escaping `/` (as JSONEncoder does),
/// for Swift to drive token by token. One at a time.
yajl_gen raw_gen_open_tracked(int fd);

/// Flushes and frees the generator from raw_gen_open_tracked.
void raw_gen_finish_tracked(yajl_gen gen);

/// Nanoseconds per round trip of one cache line between CPUs 0 and 1: two threads pinned to
/// them (Linux; elsewhere placed by the scheduler) take turns to write one atomic, `trips`
/// times. -1 when CPU 0 or 1 is not the process's to run on, or the second thread cannot
/// start. (CrossCore.c, for SpoolBench cross-core.)
double raw_cross_core_round_trip_ns(long trips);

#endif
