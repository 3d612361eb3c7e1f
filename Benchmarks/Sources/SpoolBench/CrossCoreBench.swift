import Foundation
import RawYajl

/// `spool-bench cross-core ROUND-TRIPS`: the time for one cache line to go from one core to
/// another and back (RawYajl's CrossCore.c: two threads pinned to CPUs 0 and 1 take turns to
/// write one atomic).
///
/// The parallel engine hands decoded values from its workers to the consumer, which frees
/// them into the workers' malloc arenas, and the two-thread stream hands its token batches
/// across: each moves cache lines between cores. On the shared 2-vCPU machines the benchmarks
/// run on, that cost is not fixed: one machine measured a round trip of 370-385 ns and, within
/// the hour, 78-83 ns (where the host had placed the two vCPUs), while the 1 GB catalog's
/// Codable stream on 2 workers took 5.1 s and 4.1 s. bench.py --parallel prints this figure
/// before and after its runs, so that its ratios can be read against it.
func crossCoreRoundTrip(_ roundTrips: Int) -> Double {
    raw_cross_core_round_trip_ns(roundTrips)
}
