/// Validates a whole input close to yajl's own speed, for ``JSONReader/skipToEnd()`` on input
/// that can be read again (a regular file, memory).
///
/// yajl checks the grammar with callbacks that keep nothing (``YajlSyntaxCheck``), and
/// ``StrictnessScan`` checks the raw bytes for what yajl lets through. Neither knows where a
/// problem is on a path, a line or a column, so this only ever answers "valid" or "undecided":
/// at the first doubt (an error, a limit, more than two whole chunks without a token) it stops, and the
/// reader reads the input again from its start with the full engine, which decides and
/// explains. Valid input is read once; invalid input is read up to its error twice.
///
/// Memory: one chunk, plus the few bytes of an escape or UTF-8 sequence cut by a chunk's end.
final class QuickValidator {
    enum Outcome {
        /// The input is one valid JSON value, of this many bytes.
        case valid(bytes: Int)
        /// Read it again with the full engine.
        case undecided
    }

    private let options: JSONParsingOptions
    private let chunkSize: Int

    /// Whether these options ask for nothing this validator leaves to the full engine: comments,
    /// several top-level values and trailing garbage are its job alone, and chunks must be large enough that
    /// giving up on a long token (after two chunks) costs little.
    static func canValidate(with options: JSONParsingOptions) -> Bool {
        !options.allowsComments && !options.allowsMultipleValues && !options.stopsAfterFirstValue
            && options.effectiveChunkSize >= 4096
    }

    init(options: JSONParsingOptions) {
        self.options = options
        chunkSize = options.effectiveChunkSize
    }

    /// Reads `source` to its end, or to the first doubt. `progress` gets the bytes read so far
    /// after each chunk.
    func run(_ source: any ByteSource, progress: ((Int) -> Void)?) throws(InputError) -> Outcome {
        let check = YajlSyntaxCheck(options: options)
        let scan = StrictnessScan(validatesUTF8: options.validatesUTF8)
        let carryRoom = StrictnessScan.maxCarry
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: carryRoom + chunkSize)
        defer { buffer.deallocate() }

        var total = 0
        var carried = 0  // bytes at `buffer` that the last scan left for this one
        var bytesSinceEvent = 0
        while true {
            let count = try source.read(into: UnsafeMutableRawBufferPointer(start: buffer + carried, count: chunkSize))
            let atEnd = count == 0
            guard let resume = scan.scan(buffer, count: carried + count, atEnd: atEnd) else { return .undecided }
            if atEnd {
                return check.complete() ? .valid(bytes: total) : .undecided
            }
            total += count
            guard total <= YajlFeed.maxInputLength else { return .undecided }

            let events = check.state.events
            guard check.parse(buffer + carried, count: count, base: total - count) else { return .undecided }
            if let end = check.state.valueEnd {
                // Only whitespace may follow the value (see YajlSyntaxCheck.State.valueEnd).
                let from = carried + max(0, end - (total - count))
                if !StrictnessScan.isWhitespace(buffer + from, count: carried + count - from) { return .undecided }
            }
            // yajl lexes a token cut by a chunk's end again from its start on every call; a
            // token is never held for more than about two chunks here, which keeps that linear.
            if check.state.events == events {
                bytesSinceEvent += count
                if bytesSinceEvent > 2 * chunkSize { return .undecided }
            } else {
                bytesSinceEvent = 0
            }
            progress?(total)

            carried = carried + count - resume
            if carried > 0 { UnsafeMutableRawPointer(buffer).copyMemory(from: buffer + resume, byteCount: carried) }
        }
    }
}
