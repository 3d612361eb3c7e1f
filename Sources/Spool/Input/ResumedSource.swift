/// Where a resumed reader starts: at `location`, the first byte of an element of an array (or
/// of a member of an object, ``init(location:inObject:)``), read as if the container opened
/// just before it; at a top-level value of NDJSON, with nothing before it
/// (``init(topLevelValueAt:)``); or (``init(arrayEndAt:inside:closesObject:)``) at the `]` (or
/// `}`) that closes the container, read as if the containers around it had opened just before
/// it.
///
/// The reader's offsets stay those of the whole input: the window starts at ``windowBase``,
/// where a few bytes the input does not hold (``prefix``: `[` or `{`, and a line break when the
/// element starts a line) stand in for the container's opening, so every token, error and line
/// count is where it is in the original input.
struct ResumePoint {
    let location: SourceLocation
    /// The bytes that stand in for the input before ``location``: `[` on the element's line
    /// just before it, or, for an element at the start of its line, `[` and the line break
    /// that ends the line before.
    let prefix: [UInt8]
    /// The line the prefix starts on, and where that line starts.
    let firstLine: (line: Int, start: Int)
    /// Whether the container the point is inside is an object: the point is a member's start
    /// (or the object's `}`).
    let opensObject: Bool

    /// The point where an element of an array starts, at `location`; `inObject`: where a
    /// member of an object starts (its key), the prefix opening an object (`{`) instead.
    init(location: SourceLocation, inObject: Bool = false) {
        self.location = location
        opensObject = inObject
        let opening = inObject ? UInt8(ascii: "{") : UInt8(ascii: "[")
        if location.column > 1 {
            prefix = [opening]
            firstLine = (location.line, location.byteOffset - (location.column - 1))
        } else {
            prefix = [opening, UInt8(ascii: "\n")]
            firstLine = (location.line - 1, location.byteOffset - 2)
        }
    }


    /// The point where a top-level value starts, at `location`, with several top-level values
    /// (NDJSON): no prefix, the window starts at the value.
    init(topLevelValueAt location: SourceLocation) {
        self.location = location
        opensObject = false
        prefix = []
        firstLine = (location.line, location.byteOffset - (location.column - 1))
    }

    /// The point where the `]` at `location` closes the array inside `containers` (from the
    /// root, true for an object), read as if they and the array opened just before it: an
    /// object as `{"":`, an array as `[`. On the `]`'s line when its bytes before the `]` can
    /// hold that, else on a line of its own before it; nil when the bytes before the `]` are
    /// too few to stand in for them (or `location` cannot be a `]` inside them).
    /// `closesObject`: the `}` of the object whose members were streamed, which opens as `{`.
    init?(arrayEndAt location: SourceLocation, inside containers: [Bool], closesObject: Bool = false) {
        var opening: [UInt8] = []
        for isObject in containers { opening += isObject ? Array(#"{"":"#.utf8) : [UInt8(ascii: "[")] }
        opening.append(closesObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
        let offset = location.byteOffset
        let column = location.column
        guard location.line >= 1, column >= 1, column - 1 <= offset, location.line - 1 <= offset else { return nil }
        self.location = location
        opensObject = closesObject
        if column - 1 >= opening.count {
            // `{"":[   ]`: the line's own bytes before the `]` hold the opening.
            prefix = opening + [UInt8](repeating: UInt8(ascii: " "), count: column - 1 - opening.count)
            firstLine = (location.line, offset - (column - 1))
        } else {
            // `{"":[` on the line before, then the `]`'s column in spaces.
            guard location.line > 1 else { return nil }
            prefix = opening + [UInt8(ascii: "\n")] + [UInt8](repeating: UInt8(ascii: " "), count: column - 1)
            firstLine = (location.line - 1, offset - prefix.count)
        }
        guard offset - prefix.count >= 0 else { return nil }
    }

    /// The offset of the prefix's first byte.
    var windowBase: Int { location.byteOffset - prefix.count }

    /// Whether the location can be the start of element `index` inside an array: after at
    /// least the array's `[` and, before it, `index` elements and their commas; with a line and
    /// a column the bytes before it can hold; within the longest input a reader takes.
    func isPossible(forElement index: Int) -> Bool {
        let offset = location.byteOffset
        guard offset >= 1, offset < YajlFeed.maxInputLength, location.line >= 1, location.column >= 1,
            location.line - 1 <= offset, location.column - 1 <= offset, location.column > 1 || location.line > 1,
            index >= 0, index <= offset / 2
        else { return false }
        return true
    }
}

/// A source read from a ``ResumePoint``: the prefix that opens the array, then the input from
/// the point's offset (a regular file seeks there; other input is read and dropped up to it).
final class ResumedSource: ByteSource {
    private let source: any ByteSource
    private var prefix: [UInt8]
    /// Bytes of the input still to pass over before the element.
    private var toSkip: Int

    /// The last bytes before the point, read to check that an element can start there.
    private var before: [UInt8] = []
    private let point: ResumePoint
    /// Whether the bytes before the point are checked (not with comments, which may end there).
    private let checksBytesBefore: Bool

    /// Bytes of the input left to read before the limit, if there is one.
    private var beforeLimit: Int?

    /// `source` from `point`; with `limit`, the input ends there (an offset of the input, past
    /// the point): a batch of the parallel engine parses no further than it needs.
    init(_ source: any ByteSource, from point: ResumePoint, checksBytesBefore: Bool, limit: Int? = nil) {
        self.source = source
        self.point = point
        self.checksBytesBefore = checksBytesBefore
        prefix = point.prefix
        toSkip = point.location.byteOffset
        beforeLimit = limit.map { max(0, $0 - point.location.byteOffset) }
    }

    /// How many bytes before the point are read rather than passed over.
    private static let lookBehind = 256

    var name: String { source.name }
    var totalSize: Int? { beforeLimit == nil ? source.totalSize : nil }
    var isInMemory: Bool { source.isInMemory }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        if toSkip > 0 { try passOver() }
        guard prefix.isEmpty else {
            let count = min(prefix.count, buffer.count)
            for index in 0..<count { buffer[index] = prefix[index] }
            prefix.removeFirst(count)
            return count
        }
        guard let beforeLimit else { return try source.read(into: buffer) }
        let count = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer.prefix(beforeLimit)))
        self.beforeLimit = beforeLimit - count
        return count
    }

    /// Passes over the input before the point, reading its last bytes: the last one that is
    /// not whitespace must be the `[` or `,` before an element (`{` or `,` before a member;
    /// unless comments are allowed), which catches a point a few bytes off (inside a number,
    /// after a key) before it is parsed.
    private func passOver() throws(InputError) {
        while toSkip > Self.lookBehind {
            let skipped = try source.skip(toSkip - Self.lookBehind)
            if skipped == 0 { break }
            toSkip -= skipped
        }
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.lookBehind, alignment: 1)
        defer { scratch.deallocate() }
        while toSkip > 0 {
            let count = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: scratch.prefix(toSkip)))
            if count == 0 { break }  // (the input ends before the point: the parse says so)
            before += scratch.prefix(count)
            toSkip -= count
        }
        toSkip = 0
        guard checksBytesBefore, let last = before.last(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }),
            before.count == min(Self.lookBehind, point.location.byteOffset)
        else { return }
        let opening = point.opensObject ? UInt8(ascii: "{") : UInt8(ascii: "[")
        guard last == opening || last == UInt8(ascii: ",") else {
            let shown = last >= 0x20 && last < 0x7F ? "'\(Character(Unicode.Scalar(last)))'" : "byte 0x\(String(last, radix: 16))"
            let what = point.opensObject ? "a member of an object" : "an element of an array"
            throw InputError(
                source: source.name, operation: "resume",
                reason: "\(point.location) is not where \(what) starts: \(shown) comes before it, not '\(Character(Unicode.Scalar(opening)))' or ','")
        }
    }

    /// A resumed source is read once.
    func rewind() -> Bool { false }
}
