/// Where a resumed reader starts: at `location`, the first byte of an element of an array,
/// read as if the array opened just before it.
///
/// The reader's offsets stay those of the whole input: the window starts at ``windowBase``,
/// where one or two bytes the input does not hold (``prefix``: `[`, and a line break when the
/// element starts a line) stand in for the array's opening, so every token, error and line
/// count is where it is in the original input.
struct ResumePoint {
    let location: SourceLocation

    /// `[` on the element's line just before it, or, for an element at the start of its line,
    /// `[` and the line break that ends the line before.
    var prefix: [UInt8] { location.column > 1 ? [UInt8(ascii: "[")] : [UInt8(ascii: "["), UInt8(ascii: "\n")] }

    /// The offset of the prefix's first byte.
    var windowBase: Int { location.byteOffset - prefix.count }

    /// The line the prefix starts on, and where that line starts.
    var firstLine: (line: Int, start: Int) {
        location.column > 1
            ? (location.line, location.byteOffset - (location.column - 1))
            : (location.line - 1, windowBase)
    }

    /// Whether the location can be an element's start inside an array: after at least the
    /// array's `[`, with coordinates that agree.
    var isPossible: Bool {
        location.byteOffset >= 1 && location.line >= 1 && location.column >= 1
            && location.column - 1 <= location.byteOffset && (location.column > 1 || location.line > 1)
            && windowBase >= 0
    }
}

/// A source read from a ``ResumePoint``: the prefix that opens the array, then the input from
/// the point's offset (a regular file seeks there; other input is read and dropped up to it).
final class ResumedSource: ByteSource {
    private let source: any ByteSource
    private var prefix: [UInt8]
    /// Bytes of the input still to pass over before the element.
    private var toSkip: Int

    init(_ source: any ByteSource, from point: ResumePoint) {
        self.source = source
        prefix = point.prefix
        toSkip = point.location.byteOffset
    }

    var name: String { source.name }
    var totalSize: Int? { source.totalSize }
    var isInMemory: Bool { source.isInMemory }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        while toSkip > 0 {
            let skipped = try source.skip(toSkip)
            if skipped == 0 { toSkip = 0 } else { toSkip -= skipped }  // (ended before it)
        }
        guard prefix.isEmpty else {
            let count = min(prefix.count, buffer.count)
            for index in 0..<count { buffer[index] = prefix[index] }
            prefix.removeFirst(count)
            return count
        }
        return try source.read(into: buffer)
    }

    /// A resumed source is read once.
    func rewind() -> Bool { false }
}
