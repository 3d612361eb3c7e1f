#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How many threads decode the elements of one array: the `parallelism:` argument of
/// ``JSONStream/elements(of:at:onError:parallelism:)`` and
/// ``JSONStream/elements(of:at:decoder:onError:parallelism:)``.
///
/// ```swift
/// let bands = JSONStream(.file(path)).elements(of: Band.self, at: "objects", parallelism: .automatic)
/// while let band = try bands.next() { print(band.name) }   // in document order
/// ```
///
/// With more than one worker, a scanner thread cuts the array into batches of whole elements
/// (about 256 KiB of input each, 64 KiB for ``JSONDecodable`` models) and the workers decode the batches at once, each with a parser of its
/// own; the elements are still handed out one at a time, in document order, with exactly the
/// values and errors of the serial stream. The stream says when it can do this
/// (``JSONStream/elements(of:at:onError:parallelism:)``); otherwise it reads serially.
public enum Parallelism: Hashable, Sendable {
    /// One stream decodes every element (reading and parsing ahead on a background thread for
    /// a large input): the default.
    case serial
    /// This many worker threads decode the elements (at most 64), plus one thread that cuts
    /// the array into batches; 1 (or less) is ``serial``.
    case workers(Int)
    /// One worker for each core the process may use (`ProcessInfo.activeProcessorCount`, at
    /// most 64) when there are more than two: ``serial`` on one or two cores, where the serial
    /// stream already keeps two cores busy (it parses on one while the elements decode on
    /// the other) and two workers measured no faster (see ``workerCount``).
    case automatic

    /// The most workers: every thread is started at once, and one scanner thread cuts the
    /// batches for all of them.
    static let maximumWorkers = 64

    /// The number of threads that decode elements: 1 for ``serial``, from 1 to 64 for the
    /// others.
    ///
    /// ``automatic`` on two cores is 1: there, against the serial stream in the same runs, two
    /// workers took 1.04x its time for the `Codable` stream of the 1 GB band catalog, 1.10x for
    /// the ``JSONDecodable`` one and 1.27x for `spool items` (medians of 5 rounds' ratios), for
    /// 5-20 % more CPU time. An hour later, with the same VM's two cores moving cache lines
    /// between them faster (a round trip of 80 ns against 370 ns), two workers took 0.77x the
    /// serial stream's time for the `Codable` stream (the Design and Performance article has
    /// both).
    public var workerCount: Int {
        switch self {
        case .serial: return 1
        case .workers(let count): return min(max(1, count), Self.maximumWorkers)
        case .automatic: return Self.automaticWorkers(cores: ProcessInfo.processInfo.activeProcessorCount)
        }
    }

    /// ``automatic``'s workers on a machine with `cores` cores.
    static func automaticWorkers(cores: Int) -> Int {
        cores <= 2 ? 1 : min(cores, maximumWorkers)
    }
}
