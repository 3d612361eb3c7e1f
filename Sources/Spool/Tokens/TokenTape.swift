#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The token tape: every token yajl reported and the cursor has not yet let go of.
///
/// ```text
/// tokens  [ {  key  [  num  str  ]  }  ... ]      RawToken, 16 bytes each
///           ^base                          ^base+count      (absolute indices)
///               |    |   |    |
/// arena   [ "name" | "12\0" | "Ann" | ... ]       decoded text of keys/strings, number text
///           ^arenaBase                            (absolute offsets)
/// ```
///
/// Indices and arena offsets are *absolute*: they keep counting up for the whole input, and
/// ``discard(below:)`` slides the window forward. A container's start token holds the
/// absolute index of its end token, so skipping a sub-tree is O(1) once it has closed.
///
/// Lines are kept beside the tokens rather than in them: one ``LineStart`` for each line that
/// holds a token still on the tape, so ``location(of:)`` finds a token's line and column by
/// binary search. Compact JSON has a handful of entries; pretty-printed JSON one per line.
///
/// A whole-document decoder may also *release* the decoded elements of one array (or members
/// of one object) from the middle of the tape (``release(_:upTo:ofContainer:children:)``):
/// they leave a gap of absolute indices that ``contains(_:)`` excludes and nothing may read.
///
/// Storage is two manually managed buffers that only grow; discarding moves the retained
/// suffix to the front, so in steady state appending a token allocates nothing. Growth uses
/// `realloc`, which moves a large buffer by remapping its pages instead of copying them.
final class TokenTape {
    @exclusivity(unchecked) private(set) var tokens: UnsafeMutablePointer<RawToken>
    @exclusivity(unchecked) private(set) var tokenCapacity: Int
    /// Absolute index of `tokens[0]`.
    @exclusivity(unchecked) private(set) var base: Int = 0
    /// Number of tokens held.
    @exclusivity(unchecked) var count: Int = 0

    @exclusivity(unchecked) private(set) var arena: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private(set) var arenaCapacity: Int
    /// Absolute arena offset of `arena[0]`.
    @exclusivity(unchecked) private(set) var arenaBase: Int = 0
    @exclusivity(unchecked) var arenaCount: Int = 0

    /// Bumped whenever tokens are discarded, so views onto the tape can tell they went stale.
    @exclusivity(unchecked) private(set) var generation: Int = 0

    // The released gap (see TokenTape+Release.swift): absolute token indices
    // `gapStart ..< gapStart + gapLength` and arena offsets likewise; `Int.max` when none.
    @exclusivity(unchecked) var gapStart = Int.max
    @exclusivity(unchecked) var gapLength = 0
    @exclusivity(unchecked) var arenaGapStart = Int.max
    @exclusivity(unchecked) var arenaGapLength = 0
    /// The container whose first `gapChildren` children the gap holds, or -1.
    @exclusivity(unchecked) var gapContainer = -1
    @exclusivity(unchecked) var gapChildren = 0

    /// Whether the text of every key and string was checked as UTF-8 by the parser
    /// (``JSONParsingOptions/validatesUTF8``), so a writer copying it need not check it again,
    /// and a `String` is made from it without checking (``validatedString(_:)``). Once false,
    /// it stays false: a batch moved in (``moveContents(of:)``) that does not vouch for its
    /// text clears it.
    @exclusivity(unchecked) var textIsValidUTF8 = false

    /// The capacities ``reserve(forInputOf:)`` left, which
    /// ``shrinkIfOversized(tokenLimit:arenaLimit:)`` keeps: tokens, and text bytes.
    @exclusivity(unchecked) private var reservedTokens = 0
    @exclusivity(unchecked) private var reservedArena = 0

    /// Where a line holding tokens starts: its number (1-based) and absolute offset.
    struct LineStart {
        var line: Int
        var offset: Int
    }

    /// The lines of the tokens held, in input order. (Manually managed: appending to an
    /// `Array` property cost 37 instructions per line of pretty-printed JSON, 0.6M per decode
    /// of twitter.json.)
    @exclusivity(unchecked) private var lines = LevelStack<LineStart>(capacity: 256)
    /// The offset of the last entry of `lines`, or -1.
    @exclusivity(unchecked) private(set) var lastLineOffset = -1

    init(tokenCapacity: Int = 4096, arenaCapacity: Int = 64 * 1024) {
        self.tokenCapacity = max(16, tokenCapacity)
        self.arenaCapacity = max(256, arenaCapacity)
        tokens = TokenTape.allocate(RawToken.self, capacity: self.tokenCapacity)
        arena = TokenTape.allocate(UInt8.self, capacity: self.arenaCapacity)
    }

    deinit {
        free(tokens)
        free(arena)
        lines.deallocate()
    }

    /// Makes room for `count` tokens from the start (not kept by
    /// ``shrinkIfOversized(tokenLimit:arenaLimit:)`` beyond its limit): for a stream that is
    /// known to parse chunks of many tokens, instead of doubling from the default once it
    /// has begun (a copy of the tokens parsed so far).
    func reserveTokens(_ count: Int) {
        guard count > tokenCapacity else { return }
        tokens = TokenTape.resized(tokens, keeping: self.count > 0 || gapLength > 0, capacity: count)
        tokenCapacity = count
    }

    /// Makes room for all the tokens of a document of `size` bytes, for one held whole in
    /// memory and parsed to its end before it is decoded (a few megabytes at most): room
    /// from the start, instead of doubling from 64 KiB (for twitter.json, seven
    /// reallocations that copied 1.4 MB a decode). Its texts take at most `size` bytes, and
    /// one token per 16 bytes covers ordinary JSON (twitter.json has one per 21 bytes;
    /// canada.json's numbers one per 10, so its tokens grow once more). The room stays until
    /// the tape goes (``shrinkIfOversized(tokenLimit:arenaLimit:)`` keeps it).
    func reserve(forInputOf size: Int) {
        let tokensWanted = size / 16 &+ 64
        if tokensWanted > tokenCapacity {
            tokens = TokenTape.resized(tokens, keeping: count > 0 || gapLength > 0, capacity: tokensWanted)
            tokenCapacity = tokensWanted
        }
        if size > arenaCapacity {
            arena = TokenTape.resized(arena, keeping: arenaCount > 0 || arenaGapLength > 0, capacity: size)
            arenaCapacity = size
        }
        (reservedTokens, reservedArena) = (tokenCapacity, arenaCapacity)
    }

    /// `pointer`'s block made `capacity` values long: by `realloc` when it holds values to
    /// keep, else as a new block (`realloc` would copy the old one for nothing).
    private static func resized<T>(_ pointer: UnsafeMutablePointer<T>, keeping: Bool, capacity: Int) -> UnsafeMutablePointer<T> {
        if keeping { return reallocate(pointer, capacity: capacity) }
        free(pointer)
        return allocate(T.self, capacity: capacity)
    }

    /// Memory for `capacity` trivial values. Allocation failure is not recoverable here (as for
    /// any Swift allocation), so it stops the process with a message rather than corrupting memory.
    private static func allocate<T>(_ type: T.Type, capacity: Int) -> UnsafeMutablePointer<T> {
        guard let raw = malloc(capacity * MemoryLayout<T>.stride) else { outOfMemory(capacity * MemoryLayout<T>.stride) }
        return raw.bindMemory(to: T.self, capacity: capacity)
    }

    private static func reallocate<T>(_ pointer: UnsafeMutablePointer<T>, capacity: Int) -> UnsafeMutablePointer<T> {
        guard let raw = realloc(pointer, capacity * MemoryLayout<T>.stride) else {
            outOfMemory(capacity * MemoryLayout<T>.stride)
        }
        return raw.bindMemory(to: T.self, capacity: capacity)
    }

    private static func outOfMemory(_ bytes: Int) -> Never {
        var message = "Spool: out of memory allocating \(bytes) bytes for the token tape\n"
        message.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
        abort()
    }

    /// Absolute index one past the last token.
    var end: Int { base &+ count &+ gapLength }

    /// Where the token at absolute `index` (not released) lies in `tokens`.
    @inline(__always)
    func physical(_ index: Int) -> Int { index &- base &- (index >= gapStart ? gapLength : 0) }

    /// Where the arena byte at absolute `offset` (not released) lies in `arena`.
    @inline(__always)
    func physicalArena(_ offset: Int) -> Int { offset &- arenaBase &- (offset >= arenaGapStart ? arenaGapLength : 0) }

    @inline(__always)
    subscript(index: Int) -> RawToken {
        get { tokens[physical(index)] }
        set { tokens[physical(index)] = newValue }
    }

    @inline(__always)
    func contains(_ index: Int) -> Bool { index >= base && index < end && !isReleased(index) }

    /// The absolute index of the last token of the value starting at `index`, if the whole
    /// value is on the tape: `index` itself for a scalar, the end token's index for a container
    /// that has closed. `nil` for a container still open, or a token not held.
    @inline(__always)
    func lastIndex(ofValueAt index: Int) -> Int? {
        guard contains(index) else { return nil }
        let token = self[index]
        guard token.isContainerStart else { return index }
        let end = token.payload
        return end > index && contains(end) ? end : nil
    }

    /// A closed container's tokens, held in one piece: `tokens[0]` is its start token and
    /// `tokens[end - start]` its end token.
    struct Span {
        let tokens: UnsafePointer<RawToken>
        /// The absolute index of the end token.
        let end: Int
    }

    /// The tokens of the container starting at `start` when it has closed and all of it is on
    /// the tape on one side of the released gap, so that they lie side by side in memory.
    /// The pointer is valid until the tape next changes.
    @inline(__always)
    func closedSpan(ofContainerAt start: Int) -> Span? {
        guard contains(start) else { return nil }
        let token = self[start]
        let last = token.payload
        guard token.isContainerStart, last > start, last < end, last < gapStart || start >= gapStart &+ gapLength else {
            return nil
        }
        return Span(tokens: UnsafePointer(tokens + physical(start)), end: last)
    }

    /// Whether the token at `index` was released (it lies in the gap).
    @inline(__always)
    func isReleased(_ index: Int) -> Bool {
        UInt(bitPattern: index &- gapStart) < UInt(bitPattern: gapLength)
    }

    /// Appends a token and returns its absolute index.
    @inline(__always)
    @discardableResult
    func append(_ token: RawToken) -> Int {
        assert(!token.hasText || token.payload &+ Int(token.length) <= arenaEnd, "a token's text is past the arena")
        if count == tokenCapacity { growTokens() }
        (tokens + count).initialize(to: token)
        count &+= 1
        return end &- 1
    }

    /// Records where the container starting at `start` ends and how many children it has, in
    /// its start token. Returns false (and changes nothing) when the tape does not hold that token.
    @inline(__always)
    @discardableResult
    func close(_ start: Int, end: Int, children: Int) -> Bool {
        guard contains(start) else { return false }
        let token = tokens + physical(start)
        assert(token.pointee.isContainerStart && end > start, "closing a token that does not open a container before its end")
        assert(token.pointee.payload == -1, "a container closed twice")
        assert(!contains(end) || self[end].payload == start, "a container's end does not point back at its start")
        token.pointee.payload = end
        token.pointee.length = UInt32(truncatingIfNeeded: children)
        return true
    }

    /// Notes that the tokens appended from now on lie on `line`, which starts at `offset`
    /// (called before appending each token; costs one comparison when the line is unchanged).
    @inline(__always)
    func noteLine(_ line: Int, startingAt offset: Int) {
        if offset != lastLineOffset { addLine(line, startingAt: offset) }
    }

    @inline(never)
    private func addLine(_ line: Int, startingAt offset: Int) {
        assert(offset > lastLineOffset && (lines.last.map { $0.line < line } ?? true), "lines out of order")
        lines.push(LineStart(line: line, offset: offset))
        lastLineOffset = offset
    }

    /// Set when the input is held whole in memory: lines are counted from it when asked for,
    /// and `lines` holds only the first (see ``LinesOnDemand``).
    var linesOnDemand: LinesOnDemand?

    /// The line `token` (one of this tape's) lies on.
    func line(of token: RawToken) -> LineStart {
        if let linesOnDemand { return linesOnDemand.lineStart(of: token.offset) }
        // The last line starting at or before the token. There is none only if the token's line
        // was never noted, which `noteLine` rules out.
        let through = linesStarting(atOrBefore: token.offset)
        return through > 0 ? lines[through - 1] : LineStart(line: 1, offset: 0)
    }

    /// How many entries of `lines` start at or before `offset` (a binary search).
    private func linesStarting(atOrBefore offset: Int) -> Int {
        var low = 0
        var high = lines.count
        while low < high {
            let middle = (low + high) / 2
            if lines[middle].offset <= offset { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Drops the line entries that only released tokens used: from the first released token's
    /// offset up to the entry of the first token kept after them (at `keptOffset`), or up to
    /// the last entry, which the next tokens may share, when none is kept yet.
    func releaseLines(from releasedOffset: Int, keptOffset: Int?) {
        let low = linesStarting(atOrBefore: releasedOffset - 1)
        let high = keptOffset.map { linesStarting(atOrBefore: $0) - 1 } ?? lines.count - 1
        if high > low { lines.removeSubrange(low..<high) }
    }

    /// Where `token` (one of this tape's) starts in the input: byte offset, line and column.
    func location(of token: RawToken) -> SourceLocation {
        let start = line(of: token)
        return SourceLocation(byteOffset: token.offset, line: start.line, column: token.offset - start.offset + 1)
    }

    /// Where the token at absolute `index` starts in the input.
    func location(at index: Int) -> SourceLocation {
        location(of: self[index])
    }

    /// Drops the line entries before the line of the token at array position `first`.
    private func discardLines(keepingTokensFrom first: Int) {
        guard first < count else {
            lines.removeSubrange(0...)
            lastLineOffset = -1
            return
        }
        let keep = linesStarting(atOrBefore: tokens[first].offset) - 1
        if keep > 0 { lines.removeSubrange(0..<keep) }
    }

    /// Copies bytes into the arena and returns their absolute offset.
    @inline(__always)
    func appendBytes(_ bytes: UnsafeRawPointer?, count length: Int) -> Int {
        if arenaCount + length > arenaCapacity { growArena(toFit: length) }
        let offset = arenaEnd
        if let bytes, length > 0 {
            (arena + arenaCount).update(from: bytes.assumingMemoryBound(to: UInt8.self), count: length)
        }
        arenaCount += length
        return offset
    }

    /// Copies a key's or string's bytes into the arena and reports whether they are all ASCII,
    /// in one pass: words of 8 bytes, then overlapping words for the tail (short texts, the
    /// common case, take two loads and two stores).
    @inline(__always)
    func appendText(_ bytes: UnsafeRawPointer?, count length: Int) -> (offset: Int, isASCII: Bool) {
        if arenaCount &+ length > arenaCapacity { growArena(toFit: length) }
        let offset = arenaEnd
        guard let source = bytes else { return (offset, true) }
        let destination = UnsafeMutableRawPointer(arena + arenaCount)
        arenaCount &+= length
        var high: UInt64 = 0
        if length <= 16 && length >= 8 {
            // Most keys and many strings: two overlapping words.
            let first = source.loadUnaligned(as: UInt64.self)
            let last = source.loadUnaligned(fromByteOffset: length &- 8, as: UInt64.self)
            destination.storeBytes(of: first, as: UInt64.self)
            destination.storeBytes(of: last, toByteOffset: length &- 8, as: UInt64.self)
            high = first | last
        } else if length > 16 {
            var i = 0
            while i &+ 8 <= length {
                let word = source.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                destination.storeBytes(of: word, toByteOffset: i, as: UInt64.self)
                high |= word
                i &+= 8
            }
            let tail = source.loadUnaligned(fromByteOffset: length &- 8, as: UInt64.self)
            destination.storeBytes(of: tail, toByteOffset: length &- 8, as: UInt64.self)
            high |= tail
        } else if length >= 4 {
            let first = source.loadUnaligned(as: UInt32.self)
            let last = source.loadUnaligned(fromByteOffset: length &- 4, as: UInt32.self)
            destination.storeBytes(of: first, as: UInt32.self)
            destination.storeBytes(of: last, toByteOffset: length &- 4, as: UInt32.self)
            high = UInt64(first | last)
        } else {
            for i in 0..<length {
                let byte = source.load(fromByteOffset: i, as: UInt8.self)
                destination.storeBytes(of: byte, toByteOffset: i, as: UInt8.self)
                high |= UInt64(byte)
            }
        }
        return (offset, high & 0x8080_8080_8080_8080 == 0)
    }

    /// The text bytes of a key, string or number token.
    @inline(__always)
    func bytes(of token: RawToken) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: arena + physicalArena(token.payload), count: Int(token.length))
    }

    /// The text of a key, string or number token, as a `String`.
    ///
    /// Texts up to 15 bytes, which a `String` holds inline, are built with
    /// `String(unsafeUninitializedCapacity:initializingUTF8With:)`, in about half the
    /// instructions of `String(decoding:as:)`, which checks them as UTF-8 again only when they
    /// are not ASCII. Longer texts the parser checked (``textIsValidUTF8``) are not checked
    /// again: ``validatedString(_:)``.
    @inline(__always)
    func text(of token: RawToken) -> String {
        let bytes = bytes(of: token)
        guard bytes.count <= 15 else {
            if textIsValidUTF8 { return Self.validatedString(bytes) }
            return String(decoding: bytes, as: UTF8.self)
        }
        return String(unsafeUninitializedCapacity: bytes.count) { buffer in
            _ = buffer.initialize(fromContentsOf: bytes)
            return bytes.count
        }
    }

    /// A `String` of `bytes`, which the parser has checked as UTF-8, made without checking
    /// them again: `String(decoding:as:)` validates every byte once more, which cost a decode
    /// of twitter.json 1.2M instructions (its tweets are mostly Japanese). Only the ASCII
    /// flag is worked out, eight bytes at a time. Where the standard library has no
    /// `UTF8Span` (before the 2025 Apple releases), the bytes are checked as before.
    @inline(never)
    static func validatedString(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            return String(copying: UTF8Span(unchecked: bytes.span, isKnownASCII: StringChecks.isASCII(bytes)))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Drops every token below the absolute index `index` (and the arena bytes only they used).
    func discard(below index: Int) {
        defer { assertConsistent() }
        var target = min(index, end)
        if isReleased(target) { target = gapStart &+ gapLength }
        let drop = min(max(0, physical(target)), count)
        guard drop > 0 else { return }
        generation &+= 1
        discardLines(keepingTokensFrom: drop)
        if target >= gapStart { clearGap() }
        if drop == count {
            base = target
            count = 0
            let newArenaBase = arenaEnd
            clearArenaGap()
            arenaBase = newArenaBase
            arenaCount = 0
            return
        }
        // The first retained token that owns arena bytes bounds what the arena must keep.
        var keepArenaFrom = arenaEnd
        for i in drop..<count where tokens[i].hasText {
            keepArenaFrom = tokens[i].payload
            break
        }
        let keepTokens = count - drop
        UnsafeMutableRawPointer(tokens).copyMemory(
            from: tokens + drop, byteCount: keepTokens * MemoryLayout<RawToken>.stride)
        base = target
        count = keepTokens
        let arenaDrop = physicalArena(keepArenaFrom)
        if keepArenaFrom >= arenaGapStart { clearArenaGap() }
        if arenaDrop > 0 {
            let keepBytes = arenaCount - arenaDrop
            UnsafeMutableRawPointer(arena).copyMemory(from: arena + arenaDrop, byteCount: keepBytes)
            arenaCount = keepBytes
        }
        arenaBase = keepArenaFrom
    }

    /// Exchanges everything this tape holds (storage, numbering, counts) with `other`.
    func swapStorage(with other: TokenTape) {
        swap(&tokens, &other.tokens)
        swap(&tokenCapacity, &other.tokenCapacity)
        swap(&base, &other.base)
        swap(&count, &other.count)
        swap(&arena, &other.arena)
        swap(&arenaCapacity, &other.arenaCapacity)
        swap(&arenaBase, &other.arenaBase)
        swap(&arenaCount, &other.arenaCount)
        swap(&lines, &other.lines)
        swap(&lastLineOffset, &other.lastLineOffset)
        swap(&gapStart, &other.gapStart)
        swap(&gapLength, &other.gapLength)
        swap(&arenaGapStart, &other.arenaGapStart)
        swap(&arenaGapLength, &other.arenaGapLength)
        swap(&gapContainer, &other.gapContainer)
        swap(&gapChildren, &other.gapChildren)
        generation &+= 1
        other.generation &+= 1
    }

    /// Empties the tape and continues its numbering at the given absolute token index and arena
    /// offset (where the tape it replaces ended).
    func reset(base: Int, arenaBase: Int) {
        generation &+= 1
        self.base = base
        count = 0
        self.arenaBase = arenaBase
        arenaCount = 0
        lines.removeSubrange(0...)
        lastLineOffset = -1
        clearGap()
        clearArenaGap()
    }

    /// Absolute arena offset one past the last text byte.
    var arenaEnd: Int { arenaBase &+ arenaCount &+ arenaGapLength }

    /// Moves the tokens and text of `batch` to the end of this tape and empties the batch (which
    /// numbers on from where it ended). The batch must continue this tape's numbering (its first
    /// token and first text byte come right after this tape's last ones); an empty tape adopts
    /// the batch's numbering.
    ///
    /// A batch holding more than this tape (one huge string, say) is not copied: this tape's
    /// tokens or text go in front of the batch's in the batch's buffer, which this tape then
    /// takes, giving the batch its own. So a big element is held once, not twice.
    func moveContents(of batch: TokenTape) {
        defer {
            batch.reset(base: batch.end, arenaBase: batch.arenaEnd)
            batch.shrinkIfOversized()
        }
        if count == 0 && arenaCount == 0 && gapLength == 0 && arenaGapLength == 0 {
            base = batch.base
            arenaBase = batch.arenaBase
        }
        assert(end == batch.base && arenaEnd == batch.arenaBase, "a batch that does not continue the tape's numbering")
        guard end == batch.base, arenaEnd == batch.arenaBase else { return }
        if !batch.textIsValidUTF8 { textIsValidUTF8 = false }
        for entry in 0..<batch.lines.count where batch.lines[entry].offset > lastLineOffset {
            addLine(batch.lines[entry].line, startingAt: batch.lines[entry].offset)
        }
        if count &+ batch.count > tokenCapacity {
            if batch.count > count && batch.tokenCapacity >= count &+ batch.count {
                TokenTape.prepend(tokens, count: count, to: batch.tokens, holding: batch.count)
                swap(&tokens, &batch.tokens)
                swap(&tokenCapacity, &batch.tokenCapacity)
            } else {
                growTokens(toFit: batch.count)
                (tokens + count).update(from: batch.tokens, count: batch.count)
            }
        } else {
            (tokens + count).update(from: batch.tokens, count: batch.count)
        }
        count &+= batch.count
        guard batch.arenaCount > 0 else { return }
        if arenaCount &+ batch.arenaCount > arenaCapacity {
            if batch.arenaCount > arenaCount && batch.arenaCapacity >= arenaCount &+ batch.arenaCount {
                TokenTape.prepend(arena, count: arenaCount, to: batch.arena, holding: batch.arenaCount)
                swap(&arena, &batch.arena)
                swap(&arenaCapacity, &batch.arenaCapacity)
            } else {
                growArena(toFit: batch.arenaCount)
                (arena + arenaCount).update(from: batch.arena, count: batch.arenaCount)
            }
        } else {
            (arena + arenaCount).update(from: batch.arena, count: batch.arenaCount)
        }
        arenaCount &+= batch.arenaCount
    }

    /// Moves the `held` values at `buffer` up by `count` and copies `count` values from `front`
    /// before them (`buffer` has room for both).
    private static func prepend<T>(_ front: UnsafeMutablePointer<T>, count: Int, to buffer: UnsafeMutablePointer<T>, holding held: Int) {
        guard count > 0 else { return }
        memmove(buffer + count, buffer, held * MemoryLayout<T>.stride)
        buffer.update(from: front, count: count)
    }

    /// Checks (in debug builds) that the counts, the released gap and the first token agree.
    @inline(__always)
    func assertConsistent() {
        #if DEBUG
        assert(count >= 0 && count <= tokenCapacity && arenaCount >= 0 && arenaCount <= arenaCapacity, "counts out of bounds")
        assert(gapLength == 0 ? gapStart == Int.max : gapStart >= base && gapStart &+ gapLength <= end, "the gap lies outside the tape")
        assert(arenaGapLength == 0 ? arenaGapStart == Int.max : arenaGapStart >= arenaBase, "the arena's gap lies outside it")
        if count > 0 {
            let first = tokens[0]
            assert(!first.hasText || first.payload >= arenaBase, "the first token's text was discarded")
            assert(!first.isContainerStart || first.payload == -1 || first.payload > base, "a container ends before it starts")
        }
        #endif
    }

    /// Releases memory beyond the default capacities after an unusually large element, but
    /// not the room ``reserve(forInputOf:)`` made.
    func shrinkIfOversized(tokenLimit: Int = 1 << 16, arenaLimit: Int = 1 << 20) {
        let tokenLimit = max(tokenLimit, reservedTokens)
        let arenaLimit = max(arenaLimit, reservedArena)
        if tokenCapacity > tokenLimit && count * 4 < tokenLimit {
            tokens = TokenTape.reallocate(tokens, capacity: tokenLimit)
            tokenCapacity = tokenLimit
        }
        if arenaCapacity > arenaLimit && arenaCount * 4 < arenaLimit {
            arena = TokenTape.reallocate(arena, capacity: arenaLimit)
            arenaCapacity = arenaLimit
        }
    }

    @inline(never)
    private func growTokens(toFit extra: Int = 1) {
        var newCapacity = tokenCapacity * 2
        while newCapacity < count + extra { newCapacity *= 2 }
        tokens = TokenTape.reallocate(tokens, capacity: newCapacity)
        tokenCapacity = newCapacity
    }

    @inline(never)
    private func growArena(toFit needed: Int) {
        var newCapacity = arenaCapacity * 2
        while newCapacity < arenaCount + needed { newCapacity *= 2 }
        arena = TokenTape.reallocate(arena, capacity: newCapacity)
        arenaCapacity = newCapacity
    }
}
