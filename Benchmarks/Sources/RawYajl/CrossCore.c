// The cross-core round trip behind `SpoolBench cross-core` (CrossCoreBench.swift).
#define _GNU_SOURCE
#include "RawYajl.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>

struct line {
    _Atomic long turn __attribute__((aligned(64)));
    long trips;
};

/* Pins the calling thread to `cpu`; false where that fails (a CPU outside the process's set:
 * two spinning threads on one CPU would take a preemption per hand-over, for hours). */
static int pin(int cpu) {
#ifdef __linux__
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
#else
    (void)cpu;
    return 1;
#endif
}

static void *answer(void *argument) {
    struct line *line = argument;
    pin(1); /* (checked by the caller before it starts this thread) */
    for (long trip = 0; trip < line->trips; trip++) {
        while (atomic_load_explicit(&line->turn, memory_order_acquire) != 2 * trip + 1) {}
        atomic_store_explicit(&line->turn, 2 * trip + 2, memory_order_release);
    }
    return NULL;
}

double raw_cross_core_round_trip_ns(long trips) {
    static struct line line;
    atomic_store(&line.turn, 0);
    line.trips = trips;
    /* Both CPUs must be the process's: tried on this thread first, which ends on CPU 0. */
    if (!pin(1) || !pin(0)) return -1;
    pthread_t other;
    if (pthread_create(&other, NULL, answer, &line) != 0) return -1;
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (long trip = 0; trip < trips; trip++) {
        atomic_store_explicit(&line.turn, 2 * trip + 1, memory_order_release);
        while (atomic_load_explicit(&line.turn, memory_order_acquire) != 2 * trip + 2) {}
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    pthread_join(other, NULL);
    return ((end.tv_sec - start.tv_sec) * 1e9 + (end.tv_nsec - start.tv_nsec)) / trips;
}
