/// Where a ``JSONReader`` pulls its bytes from: a file, a descriptor, or memory.
///
/// `read(into:)` fills as much of the buffer as it can and returns the count; 0 means the
/// input has ended.
protocol ByteSource: AnyObject {
    /// A name for messages: the file path, `<stdin>`, `<memory>`.
    var name: String { get }
    /// The input's total size in bytes, when it is known in advance (regular files, memory).
    var totalSize: Int? { get }
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int
    /// Goes back to where reading started, so that the same bytes are read again. False for a
    /// source that cannot (a pipe, a terminal, a socket).
    func rewind() -> Bool
    /// Whether the bytes are all in memory already (nothing to wait for while reading).
    var isInMemory: Bool { get }
    /// Whether a read that returns 0 means only that nothing has arrived yet, not the end
    /// (``PushedBytes`` between appends).
    var awaitsInput: Bool { get }
    /// Passes over up to `count` bytes without handing them out (``ResumedSource``); returns
    /// how many, 0 at the end of the input.
    func skip(_ count: Int) throws(InputError) -> Int
    /// Calls `body` with all the input's bytes, when the source holds them whole in memory for
    /// as long as it lives (``LinesOnDemand``); nil otherwise.
    func withWholeInput<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R?
}

extension ByteSource {
    var isInMemory: Bool { false }
    var awaitsInput: Bool { false }
    func withWholeInput<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R? { nil }

    /// Reads the bytes and drops them.
    func skip(_ count: Int) throws(InputError) -> Int {
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: min(count, 1 << 16), alignment: 1)
        defer { scratch.deallocate() }
        return try read(into: scratch)
    }
}
