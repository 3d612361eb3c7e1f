/// The input of an incremental reader (``JSONReader/incremental(options:)``,
/// ``PushJSONStream``): bytes the caller pushes, lent for the length of each
/// ``JSONReader/append(_:)`` and read by the reader's pipeline like any other source's.
///
/// A read that finds nothing lent returns 0 and means "nothing yet" (``awaitsInput``) until
/// ``end()``; then it means the end of the input.
final class PushedBytes: ByteSource {
    let name = "<pushed>"
    var totalSize: Int? { nil }
    /// The bytes of the current `append`, from where reading has got to.
    private var lent = UnsafeRawBufferPointer(start: nil, count: 0)
    /// Whether the caller has said the input is complete.
    private(set) var hasEnded = false

    var awaitsInput: Bool { !hasEnded }

    /// Whether bytes of the current `append` are still unread.
    var hasLentBytes: Bool { !lent.isEmpty }

    /// Lends `bytes` while `body` runs; what it leaves unread is dropped.
    func lend<Result, Failure: Error>(
        _ bytes: UnsafeRawBufferPointer, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lent = bytes
        defer { lent = UnsafeRawBufferPointer(start: nil, count: 0) }
        return try body()
    }

    /// Ends the input: reads find nothing more, for good.
    func end() {
        hasEnded = true
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        let count = min(buffer.count, lent.count)
        guard count > 0, let destination = buffer.baseAddress, let start = lent.baseAddress else { return 0 }
        destination.copyMemory(from: start, byteCount: count)
        lent = UnsafeRawBufferPointer(rebasing: lent[count...])
        return count
    }

    func rewind() -> Bool { false }
}
