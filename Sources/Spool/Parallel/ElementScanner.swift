/// A structural pre-scan that finds where each element of the array at a path starts and ends,
/// without parsing: the splitter of the parallel pipeline (issue 25), which hands whole
/// elements to workers that parse them each with their own yajl handle.
///
/// Feed it the input in order, in chunks of any size (``scan(_:into:)``), then call
/// ``finish(into:)``. It appends each element's `[start, end)` (byte offsets from the input's
/// start: the element's first byte, one past its last) as soon as the comma or `]` after the
/// element has been seen (for NDJSON, as soon as the value has ended). Its state between chunks is a few words and a bit per open
/// container (``ContainerKinds``): O(depth) memory, never O(input); the boundaries go to the
/// caller's array, which the caller may empty between chunks.
///
/// The path is a ``JSONKeyPath`` of keys and indices from the root, without wildcards; the
/// empty path is a root array. With `members`, the container at the path is an object and its
/// members are the elements, each from its key's opening quote to the end of its value (the
/// key and colon are the worker's parser's to check, as an element's inside is). Keys on the path's levels are compared as raw bytes. For NDJSON
/// (``init(topLevelValues:maxDepth:allowsByteOrderMark:)``) the elements are the top-level
/// values instead, as the serial parser streams them with `allowsMultipleValues`: split where
/// each value ends (a newline, other whitespace, or nothing after a container or string).
///
/// **Doubt.** The scanner tracks strings, escapes, brackets (their kinds too, on a stack), the
/// commas of the array at the path, and on the path's own levels the whole object and array
/// syntax around the keys and indices it walks. When something there is not what valid JSON
/// has (mismatched brackets, a value where a key goes, a stray backslash, an empty element,
/// the input ending inside a string or before the array closes, bytes after the top-level
/// value), or is valid but beyond what it vouches for (a key on the path's level with a
/// backslash in it), it stops with a ``doubt`` at that byte and reports nothing more. For
/// valid JSON every boundary it reports is the serial parser's (`JSONStream` with `Located`
/// elements gives the same starts and ends). For invalid JSON it reports no boundary past its
/// doubt, and each boundary before it is the serial parser's or holds the serial parser's
/// first error (scalars and the syntax inside elements are not checked: the workers' parsers
/// find those errors in the element that holds them). It doubts no later than the first byte
/// at which the structure it relies on stops being valid JSON.
///
/// **Speed.** Two implementations with the same results (``Implementation``): 64-byte blocks
/// turned into bit masks (the default), with the byte loop for chunk tails and the path's own
/// levels, and the byte loop alone. The masks come from the C shim on x86-64
/// (``VectorBlockMasks``: AVX-512BW or AVX2 where the CPU has them, else SSE2, whose `pmovmskb`
/// makes a comparison's bits in one instruction), elsewhere from `SIMD16<UInt8>` comparisons
/// (``BlockMasks``: Swift has no movemask, so each 16-byte comparison takes about ten
/// instructions to become bits, and compiling for AVX2, `-target-cpu haswell`, gained little).
/// The blocks look at commas only at the array's own level. Callgrind on the 10 MB band catalog
/// (`objects`), before those two changes: blocks with SSE2 3.75 instructions a byte, with
/// Swift's SIMD 4.97, the byte loop 12.4; raw yajl with counting callbacks 29. Timed on the
/// 100 MB catalog in memory on a shared 2-core AMD EPYC (`SpoolBench scan-simd|scan-scalar`):
/// the blocks at 3.53-3.57 GB/s with SSE2 on a quiet machine, 4.26-4.34 GB/s once they passed
/// over the commas inside elements, 4.57-4.64 GB/s with AVX-512 (on a busy one, earlier: SSE2
/// 1.9-2.6 GB/s, Swift's SIMD 1.6-1.8 GB/s), the byte loop 0.89 GB/s, raw yajl 0.38 GB/s. Any
/// of them is far above a parser's speed, which is what the scan must not hold back.
struct ElementScanner {
    /// How the scanner reads bytes: both give the same boundaries and doubts.
    enum Implementation: Hashable, Sendable {
        /// 64-byte blocks as SIMD masks (quotes, backslashes, brackets and commas), the
        /// escaped-quote and in-string bits computed for the whole block with integer
        /// arithmetic; the byte loop for what is left of a chunk and for the path's levels.
        case blocks
        /// One byte at a time.
        case bytes

        /// ``blocks``.
        static let `default` = Implementation.blocks
    }

    /// One step of the path, its key as UTF-8 bytes.
    enum Step: Hashable {
        case key([UInt8])
        case index(Int)
    }

    /// Where the scanner is in the document.
    enum Phase: Hashable {
        /// Before the value at `path[..<level]` (whitespace, and at offset 0 a byte order mark).
        case value(level: Int)
        /// Inside a UTF-8 byte order mark at the input's start, `matched` bytes read.
        case byteOrderMark(matched: Int)
        /// In the object at `path[..<level]`, before a key or its end.
        case keyOrEnd(level: Int, afterComma: Bool)
        /// Inside a key of that object: the bytes matched so far of the path's key, -1 once it
        /// cannot match.
        case key(level: Int, matched: Int)
        /// After a key of that object, before its colon.
        case colon(level: Int, matches: Bool)
        /// After a member's value in that object (or inside the value when it is a string).
        case afterMember(level: Int)
        /// In the array at `path[..<level]`, before an element or its end: `remaining`
        /// elements before the one the path wants.
        case itemOrEnd(level: Int, remaining: Int, afterComma: Bool)
        /// After an element of that array that the path does not want.
        case afterItem(level: Int, remaining: Int)
        /// Before a value beside the path, then ``resume``.
        case skipValue
        /// Inside a number or literal beside the path, then ``resume``.
        case scalar
        /// Inside a container beside the path (or after the array at the path), until the
        /// depth is back to ``skipDepth``, then ``resume``.
        case skipping
        /// Inside the array at the path.
        case elements
        /// After the top-level value: whitespace only.
        case afterRoot
        /// NDJSON: before a top-level value (or between two).
        case nextValue
        /// NDJSON: inside a top-level number or literal.
        case topScalar
        /// NDJSON: inside a top-level string.
        case topString
        /// Stopped: ``doubt`` says why.
        case stopped
    }

    let steps: [Step]
    /// NDJSON: the elements are the top-level values.
    let multipleValues: Bool
    /// The container at the path is an object, whose members are the elements: each from its
    /// key's opening quote to the end of its value.
    let members: Bool
    let implementation: Implementation
    /// The C shim's masks the blocks use: the CPU's widest unless a benchmark or test picks one
    /// it runs (``VectorBlockMasks/runnable``).
    var vectorPath = VectorBlockMasks.fastest
    let maxDepth: Int
    let allowsByteOrderMark: Bool

    /// The bytes scanned so far: the offset of the next chunk's first byte.
    private(set) var offset = 0
    /// Why the scanner stopped trusting the input, once it has.
    private(set) var doubt: ScanDoubt?
    /// One past the `]` of the array at the path, once seen: every element has been reported.
    private(set) var arrayEnd: Int?
    /// The number of boundaries reported.
    private(set) var elementCount = 0

    var phase = Phase.value(level: 0)
    /// Where to go after the value skipped by ``Phase/skipValue``, ``Phase/scalar`` or
    /// ``Phase/skipping``.
    var resume = Phase.afterRoot
    /// The depth at which ``Phase/skipping`` ends; -1 in other phases (so that a close
    /// bracket needs no look at the phase).
    var skipDepth = -1
    /// Inside a string.
    var inString = false
    /// Inside a string, after a backslash: the next byte is escaped.
    var escaped = false
    var kinds = ContainerKinds()
    /// The depth inside the array at the path (its own level) in ``Phase/elements``; -1 in
    /// other phases (so that a comma or bracket needs no look at the phase).
    var arrayDepth = -1
    /// Whether the array at the path is between a `[` or `,` and the next element's first byte.
    var awaitingStart = false
    /// Whether a comma of the array at the path has been seen (`[]` is empty, `[1,]` is not).
    var sawComma = false
    /// The first byte of the element being read.
    var elementStart = 0
    /// The last byte that is not whitespace in the chunks before the current one (-1: none).
    var lastNonWhitespace = -1

    /// A scanner for the elements of the array at `path` (with `members`, the members of the
    /// object there), or nil when the path has a wildcard or a negative index (it must lead to
    /// one container). `maxDepth` bounds the nesting it follows (deeper is a doubt), and with
    /// it its memory.
    init?(
        path: JSONKeyPath, members: Bool = false, implementation: Implementation = .default, maxDepth: Int = 512,
        allowsByteOrderMark: Bool = true
    ) {
        var steps: [Step] = []
        for component in path.components {
            switch component {
            case .wildcard: return nil
            case .index(let index):
                guard index >= 0 else { return nil }
                steps.append(.index(index))
            case .key(let key): steps.append(.key(Array(key.utf8)))
            }
        }
        self.steps = steps
        multipleValues = false
        self.members = members
        self.implementation = implementation
        self.maxDepth = max(1, maxDepth)
        self.allowsByteOrderMark = allowsByteOrderMark
    }

    /// A scanner for the top-level values of NDJSON (JSON Lines, concatenated JSON): each value
    /// is an element, as the serial parser streams them with `allowsMultipleValues` and the
    /// empty path. The input may end after any value (or hold none).
    init(topLevelValues implementation: Implementation = .default, maxDepth: Int = 512, allowsByteOrderMark: Bool = true) {
        steps = []
        multipleValues = true
        members = false
        self.implementation = implementation
        self.maxDepth = max(1, maxDepth)
        self.allowsByteOrderMark = allowsByteOrderMark
        phase = .nextValue
    }

    /// Scans the next chunk of the input (the one after the bytes already scanned), appending
    /// the boundaries of the elements that end in it to `boundaries`.
    mutating func scan(_ bytes: UnsafeRawBufferPointer, into boundaries: inout [Range<Int>]) {
        let base = offset
        offset += bytes.count
        guard doubt == nil, let start = bytes.baseAddress, !bytes.isEmpty else { return }
        let chunk = Chunk(bytes: start.assumingMemoryBound(to: UInt8.self), count: bytes.count, base: base)
        if awaitingStart, case .elements = phase { findStart(after: -1, in: chunk) }
        var index = 0
        switch implementation {
        case .bytes:
            index = scanBytes(chunk, from: 0, blocks: false, into: &boundaries)
        case .blocks:
            while index < chunk.count && doubt == nil {
                if isFast && chunk.count - index >= 64 {
                    index = scanBlocks(chunk, from: index, into: &boundaries)
                } else {
                    index = scanBytes(chunk, from: index, blocks: true, into: &boundaries)
                }
            }
        }
        // The last byte that is not whitespace, for an element that ends in a later chunk.
        var last = chunk.count - 1
        while last >= 0 && Self.isWhitespace(chunk.bytes[last]) { last -= 1 }
        if last >= 0 { lastNonWhitespace = base + last }
    }

    /// Says that the input has ended: a doubt unless the top-level value is complete (for
    /// NDJSON, unless it ends between values or after a number or literal, whose boundary it
    /// appends to `boundaries`).
    mutating func finish(into boundaries: inout [Range<Int>]) {
        guard doubt == nil else { return }
        if inString {
            doubt = ScanDoubt(offset: offset, reason: .endInsideString)
        } else {
            switch phase {
            case .afterRoot, .nextValue:
                return
            case .topScalar:
                report(elementStart..<offset, into: &boundaries)
                phase = .nextValue
                return
            default:
                doubt = ScanDoubt(offset: offset, reason: .endOfInput)
            }
        }
        phase = .stopped
    }

    // MARK: - Shared by both implementations

    /// A chunk of input: `count` bytes at `bytes`, the first at offset `base` of the input.
    struct Chunk {
        let bytes: UnsafePointer<UInt8>
        let count: Int
        let base: Int
    }

    /// Whether the phase is one the block loop handles (inside a container whose contents are
    /// only tracked, not walked).
    var isFast: Bool {
        switch phase {
        case .skipping, .elements: return true
        default: return false
        }
    }

    /// JSON's whitespace: space, tab, line feed, carriage return.
    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// Stops with a doubt at `offset`; returns false (for `return stop(...)` in handlers).
    @discardableResult
    mutating func stop(_ reason: ScanDoubt.Reason, at offset: Int) -> Bool {
        doubt = ScanDoubt(offset: offset, reason: reason)
        phase = .stopped
        return false
    }

    /// Opens a container at chunk index `index`; false when that is too deep (a doubt).
    @inline(__always)
    mutating func open(isObject: Bool, at index: Int, in chunk: Chunk) -> Bool {
        guard kinds.depth < maxDepth else { return stop(.tooDeep, at: chunk.base + index) }
        kinds.push(isObject: isObject)
        return true
    }

    /// Closes a container in a fast phase with the `]` or `}` at chunk index `index`; false
    /// when the phase is no longer fast (or a doubt).
    @inline(__always)
    mutating func close(isObject: Bool, at index: Int, in chunk: Chunk, into boundaries: inout [Range<Int>]) -> Bool {
        if kinds.depth == arrayDepth {
            return closeArray(isObject: isObject, at: index, in: chunk, into: &boundaries)
        }
        guard let open = kinds.pop(), open == isObject else { return stop(.mismatchedBracket, at: chunk.base &+ index) }
        if kinds.depth == skipDepth {
            skipDepth = -1
            phase = resume
            if multipleValues {
                // (NDJSON: a top-level container ends.)
                report(elementStart..<(chunk.base &+ index &+ 1), into: &boundaries)
            }
            return false
        }
        return true
    }

    /// The `]` of the array at the path (or a `}` in its place; for members, the object's `}`)
    /// at chunk index `index`.
    mutating func closeArray(isObject: Bool, at index: Int, in chunk: Chunk, into boundaries: inout [Range<Int>]) -> Bool {
        guard isObject == members, kinds.pop() == members else { return stop(.mismatchedBracket, at: chunk.base + index) }
        if awaitingStart {
            if sawComma { return stop(.emptyElement, at: chunk.base + index) }
        } else {
            report(elementStart..<end(before: index, in: chunk), into: &boundaries)
        }
        awaitingStart = false
        arrayDepth = -1
        arrayEnd = chunk.base + index + 1
        if kinds.depth == 0 {
            phase = .afterRoot
            return false
        }
        // The rest of the document: tracked to its end, nothing reported.
        skipDepth = 0
        resume = .afterRoot
        phase = .skipping
        return true
    }

    /// Reports the boundary of an element.
    @inline(__always)
    mutating func report(_ boundary: Range<Int>, into boundaries: inout [Range<Int>]) {
        boundaries.append(boundary)
        elementCount += 1
    }

    /// A comma at chunk index `index` in the array at the path (at its own level).
    @inline(__always)
    mutating func separator(at index: Int, in chunk: Chunk, into boundaries: inout [Range<Int>]) -> Bool {
        if awaitingStart { return stop(.emptyElement, at: chunk.base &+ index) }
        report(elementStart..<end(before: index, in: chunk), into: &boundaries)
        sawComma = true
        findStart(after: index, in: chunk)
        return true
    }

    /// One past the last byte before chunk index `index` that is not whitespace.
    @inline(__always)
    func end(before index: Int, in chunk: Chunk) -> Int {
        var last = index - 1
        while last >= 0 && Self.isWhitespace(chunk.bytes[last]) { last -= 1 }
        return last >= 0 ? chunk.base + last + 1 : lastNonWhitespace + 1
    }

    /// Looks for the next element's first byte after chunk index `index` (the `[` or comma
    /// before it): the first byte that is not whitespace, unless it is a comma or a closing
    /// bracket (an empty element, or the end of an empty array). Until one is found, and in
    /// those cases, ``awaitingStart`` stays true.
    @inline(__always)
    mutating func findStart(after index: Int, in chunk: Chunk) {
        var next = index + 1
        while next < chunk.count && Self.isWhitespace(chunk.bytes[next]) { next += 1 }
        guard next < chunk.count else {
            awaitingStart = true
            return
        }
        switch chunk.bytes[next] {
        case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"):
            awaitingStart = true
        default:
            awaitingStart = false
            elementStart = chunk.base + next
        }
    }
}
