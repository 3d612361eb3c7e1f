/// A run of whole, consecutive elements of the array that ``ParallelJSONElements`` decodes, cut
/// by its ``BatchCutter`` and read by one stream of its own.
///
/// A batch is read by a ``JSONStream`` that starts at ``start``, where its first element starts
/// (``JSONStream/init(_:options:resumingAt:in:index:limit:inObject:)``, or for NDJSON
/// ``JSONStream/init(_:options:resumingAtValue:index:limit:)``), or, for the first batch, at the
/// start of the document, so that everything before the array is parsed (and its errors
/// reported) as the serial stream does. It takes ``count`` elements, or all of them to the
/// array's end. (For members, the elements are the object's members.)
struct ElementBatch: Hashable, Sendable {
    /// How much of the array a batch's stream reads.
    enum Extent: Hashable, Sendable {
        /// Exactly this many elements (at least one), all ending before the next batch starts.
        case counted(Int)
        /// Every element to the end of the array: the last batch, whose `]` the scan has seen
        /// (for NDJSON, every value to the input's end, which the scan has reached).
        case toArrayEnd
        /// Every element to the end of the array, or to the first error, by one stream on the
        /// consumer's thread: what the scan could not vouch for (``ScanDoubt``), from here on.
        case serialTail
    }

    /// The batch's place in document order, from 0.
    let number: Int
    /// The index in the array of the batch's first element.
    let firstIndex: Int
    /// Where the first element starts (its line and column counted as ``SourceLocation``
    /// does); nil to read from the start of the document (the first batch).
    let start: SourceLocation?
    /// How many elements the batch's stream takes.
    let extent: Extent
    /// For a counted batch, the offset where the next batch's first element starts: what its
    /// stream reads up to (its last element is followed by nothing but the array's comma).
    var nextStart: Int?

    /// About how many bytes of elements a batch of a stream's parallel request holds
    /// (``JSONStream/elements(of:at:onError:parallelism:)``): 256 KiB, or 64 KiB when the
    /// batch's tokens are kept until its elements are handed out (``ElementRequest/holdsTokens``).
    /// Either way a batch in flight holds about 300 KB, and the workers' batches add a
    /// megabyte or two to the serial stream's peak RSS.
    ///
    /// Measured on the band catalog, 2 workers, one run each: peak RSS from `/usr/bin/time` on
    /// the 100 MB catalog; callgrind on the 10 MB one, where a batch costs about 50,000
    /// instructions once its worker keeps its decoding session (runs differ by a few tenths
    /// of a percent, with the threads' interleaving):
    /// - `Decodable` models (`SpoolBench codable-jobs`): 1 MiB 26.0-27.3 MiB, 1,086.3M;
    ///   256 KiB 22.8-23.0 MiB, 1,085.7M; 64 KiB 21.9-22.2 MiB, 1,094.8M; serially 21.5 MiB,
    ///   1,016.8M.
    /// - `Extractor` elements, which keep their tokens (`spool items --jobs 2`): 256 KiB
    ///   28.9-29.5 MiB, 844.8M; 64 KiB 23.0 MiB, 841.0M; serially 22.1 MiB, 778.3M.
    static func defaultBytes(holdingTokens: Bool) -> Int { holdingTokens ? 1 << 16 : 1 << 18 }

    /// The number of elements, when the batch is counted.
    var count: Int? {
        if case .counted(let count) = extent { return count }
        return nil
    }
}
