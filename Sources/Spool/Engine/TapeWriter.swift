#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one consumer of yajl's events (``YajlEvent``), whichever thread ran yajl: turns each
/// into a ``RawToken`` on the tape.
///
/// yajl reports where a token *ends* (`yajl_get_bytes_consumed`) but not where it starts, nor
/// any line numbers. The writer derives each start from the token itself: a container is one
/// byte, a number or literal is exactly its text, and a string whose decoded length plus its
/// quotes reaches back to an unescaped `"` had no escapes (a `"` inside a string is always
/// escaped); only strings with escapes are searched backwards. Lines come from a `memchr` over
/// each chunk, advanced as tokens pass (JSON has newlines only between tokens). With comments
/// allowed, a scanner walks the bytes between tokens instead.
///
/// Each callback also enforces what yajl does not: the depth, string and number limits,
/// strict UTF-8, and valid surrogate escapes. A failing callback stores a ``PendingError`` and
/// returns `false`, which cancels the parse; nothing throws through C.
final class TapeWriter {
    /// The tape tokens go to. A background parser ships its contents by swapping storage.
    let tape: TokenTape
    let options: JSONParsingOptions
    // Copies of hot option fields, read on every token.
    let allowsComments: Bool
    let validatesUTF8: Bool
    let maxDepth: Int
    let maxStringLength: Int
    let maxNumberLength: Int

    /// When false, only keys go on the tape (enough for error paths): for validating fast.
    @exclusivity(unchecked) var recordsValues = true

    @exclusivity(unchecked) var window: InputWindow
    /// Absolute offset of the first byte of the current `yajl_parse` call, and that call's
    /// buffer: yajl hands escape-free strings and numbers as pointers into it. Set by
    /// ``beginChunk(from:to:)``.
    @exclusivity(unchecked) private(set) var chunkBase = 0
    @exclusivity(unchecked) private(set) var chunkPointer: UnsafeRawPointer
    /// The buffer's length; 0 between calls and when comments are allowed, so that every
    /// token's start is then found by the scanner.
    @exclusivity(unchecked) private(set) var chunkLength = 0
    /// True inside `yajl_complete_parse`, whose offsets refer to a private buffer.
    @exclusivity(unchecked) var finishing = false
    /// Where the token completed by `yajl_complete_parse` (a trailing number) starts.
    @exclusivity(unchecked) var finishingTokenStart = 0

    // Between tokens.
    /// Absolute offset of the end of the last token, or further once the bytes after it were scanned.
    @exclusivity(unchecked) var scanPos = 0
    @exclusivity(unchecked) var inLineComment = false
    @exclusivity(unchecked) var inBlockComment = false
    /// Where the comment the scanner is in (or last left) starts.
    @exclusivity(unchecked) var commentStart = 0
    /// Whether the scanner has passed a `,` or `:` since the last token.
    @exclusivity(unchecked) var separatorSeen = false

    // Lines (see TapeWriter+Lines.swift).
    /// Line of the last position passed (1-based), and the absolute offset where it starts.
    @exclusivity(unchecked) var line = 1
    @exclusivity(unchecked) var lineStart = 0
    /// The first `\n` at or after `lineStart` among the bytes searched so far, or `Int.max`.
    @exclusivity(unchecked) var nextNewline = Int.max
    /// Bytes before this offset have been searched for `nextNewline`.
    @exclusivity(unchecked) var newlineSearchedTo = 0
    /// End of the bytes given to yajl so far: newline searches stop here.
    @exclusivity(unchecked) var parseLimit = 0

    // Structure.
    @exclusivity(unchecked) var stack = LevelStack<OpenContainer>()
    /// Copies of keys (by level) whose tokens have left the tape.
    @exclusivity(unchecked) var preservedKeys: [Int: [UInt8]] = [:]
    /// Whether the last event completed a value (so a separator may follow).
    @exclusivity(unchecked) var afterValue = false
    /// Whether the last event was a key (so a ':' may follow).
    @exclusivity(unchecked) var afterKey = false
    @exclusivity(unchecked) var topLevelCount = 0
    @exclusivity(unchecked) var lastTopLevelEnd = -1
    @exclusivity(unchecked) var lastTopLevelBare = false

    @exclusivity(unchecked) var pendingError: PendingError?

    /// When a container closes after its start token has left the tape (shipped to a reader on
    /// another thread), the end index and child count are kept here for the reader to apply.
    @exclusivity(unchecked) var recordsLatePatches = false
    @exclusivity(unchecked) var latePatches: [ContainerPatch] = []

    init(options: JSONParsingOptions) {
        self.options = options
        allowsComments = options.allowsComments
        validatesUTF8 = options.validatesUTF8
        maxDepth = options.effectiveMaxDepth
        maxStringLength = options.effectiveMaxStringLength
        maxNumberLength = options.maxNumberLength
        tape = TokenTape()
        window = InputWindow(capacity: options.effectiveChunkSize + 256)
        chunkPointer = UnsafeRawPointer(window.storage)
    }

    deinit {
        window.deallocate()
        stack.deallocate()
    }

    // MARK: - Chunks

    /// Notes that yajl is about to be given the window's bytes from `start` to `end`.
    func beginChunk(from start: Int, to end: Int) {
        chunkBase = start
        chunkPointer = UnsafeRawPointer(window.pointer(at: start))
        chunkLength = allowsComments ? 0 : end &- start
    }

    /// Notes that the `yajl_parse` call has returned: pointers no longer point into its buffer.
    func endChunk() {
        chunkLength = 0
    }

    // MARK: - Token starts

    @inline(__always)
    private func tokenEnd(_ consumed: Int) -> Int {
        finishing ? window.end : chunkBase &+ consumed
    }

    /// The start of a token of `length` bytes ending at `end` (containers, numbers, literals).
    @inline(__always)
    private func fixedStart(end: Int, length: Int) -> Int? {
        if allowsComments { return scannedStart(end: end) }
        return finishing ? finishingTokenStart : end &- length
    }

    /// The start of a string or key ending at `end` whose decoded text has `decodedCount`
    /// bytes, and whether its source has escapes.
    @inline(__always)
    private func stringStart(end: Int, decodedCount: Int) -> (start: Int, hasEscapes: Bool)? {
        if allowsComments {
            guard let start = scannedStart(end: end) else { return nil }
            return (start, end &- start &- 2 != decodedCount)
        }
        let quote = end &- decodedCount &- 2
        if quote >= scanPos && quote >= window.base && window[quote] == UInt8(ascii: "\"")
            && (quote == window.base || window[quote - 1] != UInt8(ascii: "\\"))
        {
            return (quote, false)
        }
        return (openingQuote(end: end), true)
    }

    /// Where yajl's `bytes` lie in the current chunk, if they point into it (then the token's
    /// text is verbatim in the input: no escapes, not split across chunks).
    @inline(__always)
    func chunkOffset(of bytes: UnsafeRawPointer?) -> Int? {
        guard let bytes else { return nil }
        let offset = bytes - chunkPointer
        return UInt(bitPattern: offset) < UInt(bitPattern: chunkLength) ? offset : nil
    }

    /// A string's or key's start (its opening quote), end (past its closing quote) and whether
    /// its source has escapes; nil (with `pendingError` set) when its source is longer than
    /// `maxStringLength`, checked before its text is copied or checked.
    @inline(__always)
    func stringBounds(_ event: YajlEvent) -> (start: Int, end: Int, hasEscapes: Bool)? {
        if event.inChunk {
            // Verbatim in the chunk: the source between the quotes is exactly the text.
            let content = chunkBase &+ event.text
            if event.count > maxStringLength {
                failStringTooLong(at: content &- 1)
                return nil
            }
            return (content &- 1, content &+ event.count &+ 1, false)
        }
        return stringBoundsFromEnd(decodedCount: event.count, consumed: event.consumed)
    }

    /// ``stringBounds(_:)`` for a string that yajl decoded (it had escapes) or took from its
    /// own buffer (it spanned chunks): found back from where the string ends.
    @inline(never)
    private func stringBoundsFromEnd(decodedCount count: Int, consumed: Int) -> (start: Int, end: Int, hasEscapes: Bool)? {
        let end = tokenEnd(consumed)
        guard let (start, hasEscapes) = stringStart(end: end, decodedCount: count) else { return nil }
        if end &- start &- 2 > maxStringLength {
            failStringTooLong(at: start)
            return nil
        }
        return (start, end, hasEscapes)
    }

    /// A number's start and end.
    @inline(__always)
    func numberBounds(_ event: YajlEvent) -> (start: Int, end: Int)? {
        if event.inChunk {
            let start = chunkBase &+ event.text
            return (start, start &+ event.count)
        }
        return numberBoundsFromEnd(count: event.count, consumed: event.consumed)
    }

    @inline(never)
    private func numberBoundsFromEnd(count: Int, consumed: Int) -> (start: Int, end: Int)? {
        guard let start = fixedStart(end: tokenEnd(consumed), length: count) else { return nil }
        return (start, start &+ count)
    }

    /// Searches backwards for the `"` that opens the string ending at `end`: the first quote
    /// not preceded by an odd number of backslashes.
    @inline(never)
    func openingQuote(end: Int, low: Int? = nil) -> Int {
        let low = max(low ?? scanPos, window.base)
        var p = end &- 2
        while p >= low {
            if window[p] == UInt8(ascii: "\"") {
                var backslashes = 0
                while p - 1 - backslashes >= low && window[p - 1 - backslashes] == UInt8(ascii: "\\") { backslashes += 1 }
                if backslashes % 2 == 0 { return p }
            }
            p &-= 1
        }
        return low
    }

    @inline(never)
    private func scannedStart(end: Int) -> Int? {
        if skipToToken(limit: end) { return scanPos }
        return pendingError == nil ? max(scanPos, end &- 1) : nil
    }

    // MARK: - Recording

    @inline(__always)
    @discardableResult
    func record(_ kind: RawToken.Kind, at start: Int, payload: Int, length: Int) -> Int {
        if start > nextNewline { advanceLines(to: start) }
        tape.noteLine(line, startingAt: lineStart)
        return tape.append(RawToken(offset: start, payload: payload, length: UInt32(truncatingIfNeeded: length), kind: kind))
    }

    @inline(__always)
    private func beginValue(at start: Int) -> Bool {
        if stack.count > 0 {
            let top = stack.top
            if !top.pointee.isObject { top.pointee.children &+= 1 }
            return true
        }
        if topLevelCount > 0 && lastTopLevelBare && start == lastTopLevelEnd {
            pendingError = .expected("whitespace between top-level values", at: start)
            return false
        }
        return true
    }

    /// Where text that lies verbatim in the current chunk starts (past its opening quote), for
    /// a key or string inside a container and within the length limit: the common case the
    /// lean and the recording handlers take. Nil when a full handler must look at it.
    @inline(__always)
    func plainTextContent(_ event: YajlEvent) -> Int? {
        guard event.inChunk, stack.count > 0, event.count <= maxStringLength else { return nil }
        return chunkBase &+ event.text
    }

    /// Completes a value inside a container, which ends at `end`: counts it (in an array) and
    /// moves past it.
    @inline(__always)
    func containedValueDone(end: Int) {
        let top = stack.top
        if !top.pointee.isObject { top.pointee.children &+= 1 }
        afterValue = true
        afterKey = false
        separatorSeen = false
        scanPos = end
    }

    /// Leaves the innermost open container (the stack must not be empty): its start token's
    /// index and its child count. Read in place rather than moving the whole level out.
    @inline(__always)
    func leaveLevel() -> (tokenIndex: Int, children: Int) {
        let open = stack.top
        let level = (open.pointee.tokenIndex, open.pointee.children)
        if open.pointee.keyPreserved { preservedKeys[stack.count &- 1] = nil }
        stack.removeTop()
        return level
    }

    @inline(__always)
    private func completeValue(end: Int, bare: Bool) {
        afterValue = true
        afterKey = false
        scanPos = end
        if stack.isEmpty {
            topLevelCount &+= 1
            lastTopLevelEnd = end
            lastTopLevelBare = bare
        }
    }

    // MARK: - Events (see TapeWriter+Events.swift)

    @inline(__always)
    func didStartContainer(isObject: Bool, consumed: Int) -> Bool {
        let end = tokenEnd(consumed)
        guard let start = fixedStart(end: end, length: 1) else { return false }
        if stack.count >= maxDepth {
            pendingError = PendingError(
                .limitExceeded,
                "nesting is deeper than the maximum depth of \(maxDepth) (JSONParsingOptions.maxDepth)",
                at: start)
            return false
        }
        guard beginValue(at: start) else { return false }
        var index = -1
        if recordsValues {
            index = record(isObject ? .objectStart : .arrayStart, at: start, payload: -1, length: 0)
        } else if start > nextNewline {
            advanceLines(to: start)
        }
        let location = SourceLocation(byteOffset: start, line: line, column: start &- lineStart &+ 1)
        stack.push(OpenContainer(tokenIndex: index, isObject: isObject, location: location))
        afterValue = false
        afterKey = false
        separatorSeen = false
        scanPos = start &+ 1
        return true
    }

    @inline(__always)
    func didEndContainer(isObject: Bool, consumed: Int) -> Bool {
        let end = tokenEnd(consumed)
        guard let start = fixedStart(end: end, length: 1), !stack.isEmpty else { return false }
        let (tokenIndex, children) = leaveLevel()
        if recordsValues {
            let index = record(isObject ? .objectEnd : .arrayEnd, at: start, payload: tokenIndex, length: children)
            if !tape.close(tokenIndex, end: index, children: children) && recordsLatePatches && tokenIndex >= 0 {
                latePatches.append(ContainerPatch(start: tokenIndex, end: index, children: children))
            }
        }
        separatorSeen = false
        completeValue(end: start &+ 1, bare: false)
        return true
    }

    @inline(__always)
    func didParseKey(_ event: YajlEvent, text bytes: UnsafeRawPointer?) -> Bool {
        let count = event.count
        guard let (start, end, hasEscapes) = stringBounds(event) else {
            return false
        }
        var index = -1
        if recordsValues {
            let (payload, isASCII) = tape.appendText(bytes, count: count)
            guard checkString(bytes, count: count, start: start, end: end, hasEscapes: hasEscapes, isASCII: isASCII)
            else { return false }
            index = record(.key, at: start, payload: payload, length: count)
        } else {
            guard checkString(bytes, count: count, start: start, end: end, hasEscapes: hasEscapes) else { return false }
        }
        noteKey(token: index, sourceLow: start, end: end)
        return true
    }

    /// Makes a key the current member of the innermost object. The key is on the tape at
    /// `token`, or (when `token` is -1) in the input, after `sourceLow` and ending at `end`.
    @inline(__always)
    func noteKey(token: Int, sourceLow: Int, end: Int) {
        if stack.count > 0 {
            let top = stack.top
            top.pointee.keyToken = token
            top.pointee.keySourceLow = sourceLow
            top.pointee.keySourceEnd = token >= 0 ? -1 : end
            top.pointee.children &+= 1
            if top.pointee.keyPreserved {
                top.pointee.keyPreserved = false
                preservedKeys[stack.count &- 1] = nil
            }
        }
        separatorSeen = false
        afterValue = false
        afterKey = true
        scanPos = end
    }

    @inline(__always)
    func didParseString(_ event: YajlEvent, text bytes: UnsafeRawPointer?) -> Bool {
        let count = event.count
        guard let (start, end, hasEscapes) = stringBounds(event) else {
            return false
        }
        if recordsValues {
            let (payload, isASCII) = tape.appendText(bytes, count: count)
            guard checkString(bytes, count: count, start: start, end: end, hasEscapes: hasEscapes, isASCII: isASCII),
                beginValue(at: start)
            else { return false }
            record(.string, at: start, payload: payload, length: count)
        } else {
            guard checkString(bytes, count: count, start: start, end: end, hasEscapes: hasEscapes),
                beginValue(at: start)
            else { return false }
        }
        separatorSeen = false
        completeValue(end: end, bare: false)
        return true
    }

    @inline(__always)
    func didParseNumber(_ event: YajlEvent, text bytes: UnsafeRawPointer?) -> Bool {
        let count = event.count
        guard let (start, _) = numberBounds(event) else { return false }
        if count > maxNumberLength {
            failNumberTooLong(at: start)
            return false
        }
        guard beginValue(at: start) else { return false }
        if recordsValues {
            let payload = tape.appendBytes(bytes, count: count)
            record(.number, at: start, payload: payload, length: count)
        }
        separatorSeen = false
        completeValue(end: start &+ count, bare: true)
        return true
    }

    @inline(__always)
    func didParseLiteral(_ kind: RawToken.Kind, consumed: Int) -> Bool {
        let end = tokenEnd(consumed)
        guard let start = fixedStart(end: end, length: kind == .false ? 5 : 4), beginValue(at: start) else {
            return false
        }
        if recordsValues { record(kind, at: start, payload: 0, length: 0) }
        separatorSeen = false
        completeValue(end: end, bare: true)
        return true
    }

    // MARK: - The callbacks out of line

    // For the common-case handlers (TapeWriter+Validation.swift, TapeWriter+Recording.swift):
    // calling the full handlers out of line keeps them small, so they save few registers.

    @inline(never)
    func fullString(_ event: YajlEvent, text: UnsafeRawPointer?) -> Bool { didParseString(event, text: text) }

    @inline(never)
    func fullKey(_ event: YajlEvent, text: UnsafeRawPointer?) -> Bool { didParseKey(event, text: text) }

    @inline(never)
    func fullNumber(_ event: YajlEvent, text: UnsafeRawPointer?) -> Bool { didParseNumber(event, text: text) }

    @inline(never)
    func fullLiteral(_ kind: RawToken.Kind, consumed: Int) -> Bool { didParseLiteral(kind, consumed: consumed) }

    @inline(never)
    func fullContainerStart(isObject: Bool, consumed: Int) -> Bool {
        didStartContainer(isObject: isObject, consumed: consumed)
    }

    @inline(never)
    func fullContainerEnd(isObject: Bool, consumed: Int) -> Bool {
        didEndContainer(isObject: isObject, consumed: consumed)
    }

    // MARK: - Checks

    /// Checks a string or key: one whose source has no escapes needs a look only when it is not
    /// ASCII (yajl lets overlong UTF-8, encoded surrogates and code points above U+10FFFF
    /// through); one with escapes always gets its raw text checked.
    @inline(__always)
    private func checkString(
        _ decoded: UnsafeRawPointer?, count: Int, start: Int, end: Int, hasEscapes: Bool, isASCII: Bool? = nil
    ) -> Bool {
        if !hasEscapes {
            if isASCII == true { return true }
            guard validatesUTF8, let decoded else { return true }
            if isASCII == nil
                && StringChecks.isASCII(UnsafeBufferPointer(start: decoded.assumingMemoryBound(to: UInt8.self), count: count))
            {
                return true
            }
        }
        return checkRawText(start: start, end: end)
    }

    /// Checks the raw source text between a string's quotes, as far as the window still holds it.
    @inline(never)
    func checkRawText(start: Int, end: Int) -> Bool {
        let rawCount = end &- start &- 2
        guard rawCount > 0, start &+ 1 >= window.base, end &- 1 <= window.end else { return true }
        let raw = UnsafeBufferPointer(start: window.pointer(at: start &+ 1), count: rawCount)
        if let failure = StringChecks.check(raw, validateUTF8: validatesUTF8) {
            pendingError = PendingError(.invalidString, failure.message, at: start &+ 1 &+ failure.index)
            return false
        }
        return true
    }

    func failStringTooLong(at start: Int) {
        failTooLong("string", at: start, limit: maxStringLength, option: "maxStringLength")
    }

    func failCommentTooLong(at start: Int) {
        failTooLong("comment", at: start, limit: maxStringLength, option: "maxStringLength")
    }

    func failNumberTooLong(at start: Int) {
        failTooLong("number", at: start, limit: maxNumberLength, option: "maxNumberLength")
    }

    @inline(never)
    private func failTooLong(_ what: String, at start: Int, limit: Int, option: String) {
        pendingError = PendingError(
            .limitExceeded, "\(what) is longer than the maximum of \(limit) bytes (JSONParsingOptions.\(option))", at: start)
    }

    // MARK: - Keys for paths

    /// Copies the keys of open objects whose key tokens are about to leave the tape.
    func preserveKeys(below index: Int) {
        for level in 0..<stack.count where stack[level].isObject {
            let token = stack[level].keyToken
            if token >= 0, token < index, !stack[level].keyPreserved, tape.contains(token) {
                preservedKeys[level] = Array(tape.bytes(of: tape[token]))
                stack.base[level].keyPreserved = true
            }
        }
    }

    /// Copies (decoded) the keys of open objects whose source bytes are about to leave the window.
    func preserveSourceKeys(below offset: Int) {
        for level in 0..<stack.count where stack[level].isObject {
            let entry = stack[level]
            if entry.keySourceEnd >= 0, entry.keySourceLow < offset, !entry.keyPreserved,
                let key = decodedSourceKey(entry)
            {
                preservedKeys[level] = key
                stack.base[level].keyPreserved = true
            }
        }
    }

    private func decodedSourceKey(_ entry: OpenContainer) -> [UInt8]? {
        guard entry.keySourceEnd >= 0 else { return nil }
        let start = openingQuote(end: entry.keySourceEnd, low: entry.keySourceLow) + 1
        let end = entry.keySourceEnd - 1
        guard start >= window.base, end <= window.end, start <= end else { return nil }
        return StringChecks.unescape(UnsafeBufferPointer(start: window.pointer(at: start), count: end - start))
    }

    func key(at level: Int) -> String? {
        let entry = stack[level]
        if entry.keyPreserved, let bytes = preservedKeys[level] { return String(decoding: bytes, as: UTF8.self) }
        if entry.keySourceEnd >= 0, let bytes = decodedSourceKey(entry) { return String(decoding: bytes, as: UTF8.self) }
        let token = entry.keyToken
        guard token >= 0, tape.contains(token) else { return nil }
        return String(decoding: tape.bytes(of: tape[token]), as: UTF8.self)
    }
}
