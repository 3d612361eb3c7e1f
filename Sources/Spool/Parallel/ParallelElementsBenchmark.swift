/// The parallel elements engine (`ParallelJSONElements`, internal until its API is settled)
/// for the benchmarks, which time it against the serial stream on the band catalog.
///
/// Not API: `@_spi(Testing)`, and it may change or go at any time.
@_spi(Testing) public enum ParallelElementsBenchmark {
    /// Decodes each element of the array at `path` of `input` as the `Decodable` `Value` with
    /// `decoder`, on `workers` threads in batches of about `batchBytes`, and calls `body` with
    /// each in document order. Returns the number of elements.
    /// - Throws: what the serial stream would throw, and what `body` throws.
    @discardableResult
    public static func forEach<Value: Decodable>(
        _ type: Value.Type, in input: JSONInput, at path: JSONKeyPath, workers: Int, batchBytes: Int = 1 << 20,
        decoder: StreamingJSONDecoder = StreamingJSONDecoder(), _ body: (Value) throws -> Void
    ) throws -> Int {
        let elements = ParallelJSONElements<Value>(input, at: path, workers: workers, batchBytes: batchBytes, decoder: decoder)
        while let element = try elements.next() { try body(element) }
        return elements.count
    }
}
