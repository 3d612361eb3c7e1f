/// Where the parse stands in JSON's grammar, for the ``TapeWriter``: the open containers and
/// their current keys, what the last event was, how far the bytes after it have been looked at
/// (GrammarState+Scanning.swift), and the top-level values so far.
///
/// yajl checks the grammar itself; this state says where the parse is, for the tokens'
/// container links, for locating what yajl rejected, and for error messages. It changes only
/// through its methods.
struct GrammarState {
    /// What the last event left, and whether a separator has been passed since: one byte, so
    /// that most events update it with one store.
    struct Progress: OptionSet {
        let rawValue: UInt8
        /// The last event completed a value (so a separator may follow).
        static let afterValue = Progress(rawValue: 1)
        /// The last event was a key (so a ':' may follow).
        static let afterKey = Progress(rawValue: 2)
        /// The scanner has passed a `,` or `:` since the last event.
        static let separatorSeen = Progress(rawValue: 4)
    }

    /// The open arrays and objects, innermost last.
    private(set) var stack = LevelStack<OpenContainer>()
    private(set) var progress: Progress = []
    /// Absolute offset of the end of the last token, or further once the bytes after it were scanned.
    private(set) var scanPos = 0
    /// Whether the scanner stopped inside a comment, and where the comment it is in (or last
    /// left) starts.
    private(set) var inLineComment = false
    private(set) var inBlockComment = false
    private(set) var commentStart = 0
    private(set) var topLevelCount = 0
    private var lastTopLevelEnd = -1
    private var lastTopLevelBare = false
    /// Copies of keys (by level) whose tokens or source bytes have gone, for error paths.
    private var preservedKeys: [Int: [UInt8]] = [:]

    /// Starts the scan at `offset`, past bytes before the first token that are not JSON
    /// text (a byte order mark).
    mutating func skipPrefix(to offset: Int) {
        if scanPos < offset { scanPos = offset }
    }

    /// Frees the stack; the writer calls this from its `deinit`.
    func deallocate() {
        stack.deallocate()
    }

    var depth: Int { stack.count }
    var afterValue: Bool { progress.contains(.afterValue) }
    var afterKey: Bool { progress.contains(.afterKey) }
    var separatorSeen: Bool { progress.contains(.separatorSeen) }

    /// The innermost open container, if any.
    var innermost: OpenContainer? { stack.count > 0 ? stack[stack.count &- 1] : nil }

    // MARK: - Events

    /// Counts a value that starts at `start` in its array; false when it is a top-level value
    /// that touches the bare one before it (`1"a"`), which needs whitespace between.
    @inline(__always)
    mutating func beginValue(at start: Int) -> Bool {
        if stack.count > 0 {
            let top = stack.top
            if !top.pointee.isObject { top.pointee.children &+= 1 }
            return true
        }
        return !(topLevelCount > 0 && lastTopLevelBare && start == lastTopLevelEnd)
    }

    /// Enters a container (its start token is one byte, ending at `end`).
    @inline(__always)
    mutating func enter(_ container: OpenContainer, end: Int) {
        assert(end > scanPos || inLineComment || inBlockComment || scanPos == end, "tokens out of order")
        stack.push(container)
        progress = []
        scanPos = end
    }

    /// Counts a container that starts inside another one (at `start`, so past `end`) in its
    /// array and enters it: the lean handlers' common case.
    @inline(__always)
    mutating func enterContained(_ container: OpenContainer, end: Int) {
        let top = stack.top
        if !top.pointee.isObject { top.pointee.children &+= 1 }
        enter(container, end: end)
    }

    /// Leaves the innermost open container (the stack must not be empty): its start token's
    /// index and its child count. Read in place rather than moving the whole level out.
    @inline(__always)
    mutating func leave() -> (tokenIndex: Int, children: Int) {
        assert(stack.count > 0, "a container closed that is not open")
        let open = stack.top
        let level = (open.pointee.tokenIndex, open.pointee.children)
        if open.pointee.keyPreserved { preservedKeys[stack.count &- 1] = nil }
        stack.removeTop()
        return level
    }

    /// A value (or a container's end) completed, ending at `end`; `bare`: a number or literal,
    /// which nothing separates from a following top-level value.
    @inline(__always)
    mutating func completeValue(end: Int, bare: Bool) {
        progress = .afterValue
        scanPos = end
        if stack.isEmpty {
            topLevelCount &+= 1
            lastTopLevelEnd = end
            lastTopLevelBare = bare
        }
    }

    /// Completes a value inside a container, which ends at `end`: counts it (in an array) and
    /// moves past it.
    @inline(__always)
    mutating func containedValueDone(end: Int) {
        let top = stack.top
        if !top.pointee.isObject { top.pointee.children &+= 1 }
        progress = .afterValue
        scanPos = end
    }

    /// Leaves a container nested in another one, whose end token ends at `end`: the lean
    /// handlers' common case.
    @inline(__always)
    mutating func leaveContained(end: Int) {
        _ = leave()
        progress = .afterValue
        scanPos = end
    }

    /// Makes a key the current member of the innermost object. The key is on the tape at
    /// `token`, or (when `token` is -1) in the input, after `sourceLow` and ending at `end`.
    @inline(__always)
    mutating func noteKey(token: Int, sourceLow: Int, end: Int) {
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
        progress = .afterKey
        scanPos = end
    }

    // MARK: - Errors

    /// The syntax error yajl reports for a token starting at `start` that the grammar does not
    /// allow there (judged from where the parse is), or nil when a value, or a key for a
    /// string, may start there.
    func grammarError(at start: Int, isString: Bool, allowsMultipleValues: Bool) -> PendingError? {
        func expected(_ what: String) -> PendingError { .expected(what, at: start) }
        guard stack.count > 0 else {
            let valueAllowed = topLevelCount == 0 || allowsMultipleValues
            return valueAllowed ? nil : .afterTopLevelValue(at: start)
        }
        if stack[stack.count - 1].isObject {
            if afterKey { return separatorSeen ? nil : expected("':' after object key") }
            if afterValue && !separatorSeen { return expected("',' or '}' after object member") }
            return isString ? nil : expected("a string key")
        }
        return afterValue && !separatorSeen ? expected("',' or ']' after array element") : nil
    }

    /// The path of the value being parsed, for errors.
    func currentPath(tape: TokenTape, window: InputWindow) -> JSONKeyPath {
        var components: [JSONKeyPath.Component] = []
        components.reserveCapacity(stack.count)
        for level in 0..<stack.count {
            let container = stack[level]
            if container.isObject {
                if let key = key(at: level, tape: tape, window: window) { components.append(.key(key)) }
            } else {
                var index = container.children - 1
                if level == stack.count - 1 && afterValue { index += 1 }
                components.append(.index(max(0, index)))
            }
        }
        return JSONKeyPath(components)
    }

    // MARK: - Keys for paths

    /// Copies the keys of open objects whose key tokens are about to leave the tape.
    mutating func preserveKeys(below index: Int, tape: TokenTape) {
        for level in 0..<stack.count where stack[level].isObject {
            let token = stack[level].keyToken
            if token >= 0, token < index, !stack[level].keyPreserved, tape.contains(token) {
                preservedKeys[level] = Array(tape.bytes(of: tape[token]))
                stack.base[level].keyPreserved = true
            }
        }
    }

    /// Copies (decoded) the keys of open objects whose source bytes are about to leave the window.
    mutating func preserveSourceKeys(below offset: Int, window: InputWindow) {
        for level in 0..<stack.count where stack[level].isObject {
            let entry = stack[level]
            if entry.keySourceEnd >= 0, entry.keySourceLow < offset, !entry.keyPreserved,
                let key = GrammarState.decodedSourceKey(entry, window: window)
            {
                preservedKeys[level] = key
                stack.base[level].keyPreserved = true
            }
        }
    }

    private static func decodedSourceKey(_ entry: OpenContainer, window: InputWindow) -> [UInt8]? {
        guard entry.keySourceEnd >= 0 else { return nil }
        let start = window.openingQuote(end: entry.keySourceEnd, low: entry.keySourceLow) + 1
        let end = entry.keySourceEnd - 1
        guard start >= window.base, end <= window.end, start <= end else { return nil }
        return StringChecks.unescape(UnsafeBufferPointer(start: window.pointer(at: start), count: end - start))
    }

    /// The current key of the object at `level`.
    func key(at level: Int, tape: TokenTape, window: InputWindow) -> String? {
        let entry = stack[level]
        if entry.keyPreserved, let bytes = preservedKeys[level] { return String(decoding: bytes, as: UTF8.self) }
        if entry.keySourceEnd >= 0, let bytes = GrammarState.decodedSourceKey(entry, window: window) {
            return String(decoding: bytes, as: UTF8.self)
        }
        let token = entry.keyToken
        guard token >= 0, tape.contains(token) else { return nil }
        return tape.text(of: tape[token])
    }
}

// MARK: - Between tokens

/// The scanner for the bytes *between* tokens: whitespace, `,`, `:` and comments. It finds the
/// start of an unfinished token at the end of a chunk, every token's start when comments are
/// allowed, and the token yajl rejected; it rejects form feed and vertical tab, which yajl
/// wrongly takes for whitespace. Where it finds a problem it sets `error`.
extension GrammarState {
    /// Skips whitespace, separators and comments from `scanPos` towards `limit`. Returns `true`
    /// when it stopped at the first byte of a token (at `scanPos`), `false` when it reached
    /// `limit` or found a byte that is never allowed between tokens (then `error` is set).
    mutating func skipToToken(
        limit: Int, in window: InputWindow, checks: StrictnessChecks, error: inout PendingError?
    ) -> Bool {
        if checks.allowsComments { return skipToTokenWithComments(limit: limit, in: window, checks: checks, error: &error) }
        var p = scanPos
        while p < limit {
            let c = window[p]
            switch c {
            case 0x20, 0x09, 0x0D, 0x0A:
                p += 1
            case 0x2C, 0x3A:
                progress.insert(.separatorSeen)
                p += 1
            case 0x0C, 0x0B:
                scanPos = p
                error = StrictnessChecks.badWhitespace(at: p, byte: c)
                return false
            default:
                scanPos = p
                return true
            }
        }
        scanPos = p
        return false
    }

    private mutating func skipToTokenWithComments(
        limit: Int, in window: InputWindow, checks: StrictnessChecks, error: inout PendingError?
    ) -> Bool {
        var p = scanPos
        while p < limit {
            let c = window[p]
            if inLineComment {
                if c == 0x0A {
                    inLineComment = false
                    if let tooLong = commentTooLong(end: p + 1, checks: checks) { return stop(at: p, tooLong, &error) }
                }
                p += 1
                continue
            }
            if inBlockComment {
                if c == UInt8(ascii: "*") {
                    guard p + 1 < limit else { break }  // decide once the next byte is here
                    if window[p + 1] == UInt8(ascii: "/") {
                        inBlockComment = false
                        p += 2
                        if let tooLong = commentTooLong(end: p, checks: checks) { return stop(at: p, tooLong, &error) }
                        continue
                    }
                }
                p += 1
                continue
            }
            switch c {
            case 0x20, 0x09, 0x0D, 0x0A:
                p += 1
                continue
            case 0x2C, 0x3A:
                progress.insert(.separatorSeen)
                p += 1
                continue
            case UInt8(ascii: "/"):
                guard p + 1 < limit else { break }
                let next = window[p + 1]
                if next == UInt8(ascii: "/") || next == UInt8(ascii: "*") {
                    inLineComment = next == UInt8(ascii: "/")
                    inBlockComment = next == UInt8(ascii: "*")
                    commentStart = p
                    p += 2
                    continue
                }
                scanPos = p
                return true
            case 0x0C, 0x0B:
                scanPos = p
                error = StrictnessChecks.badWhitespace(at: p, byte: c)
                return false
            default:
                scanPos = p
                return true
            }
            break
        }
        scanPos = p
        return false
    }

    /// The error for the comment that started at ``commentStart`` and runs to `end` (so far),
    /// if it is over the length limit, which bounds comments as it bounds strings.
    private func commentTooLong(end: Int, checks: StrictnessChecks) -> PendingError? {
        end - commentStart > checks.maxStringLength ? checks.commentTooLong(at: commentStart) : nil
    }

    private mutating func stop(at p: Int, _ failure: PendingError, _ error: inout PendingError?) -> Bool {
        scanPos = p
        error = failure
        return false
    }

    /// Like ``skipToToken(limit:in:checks:error:)``, but for locating the token yajl rejected:
    /// skips at most the one separator the grammar allows here (`,` after a value in a
    /// container, `:` after a key), so in `[1,,2]` it stops at the second comma.
    mutating func skipToRejectedToken(
        limit: Int, in window: InputWindow, checks: StrictnessChecks, error: inout PendingError?
    ) -> Bool {
        var separator: UInt8? =
            separatorSeen ? nil : afterKey ? UInt8(ascii: ":") : (afterValue && !stack.isEmpty ? UInt8(ascii: ",") : nil)
        var p = scanPos
        // First leave a comment the scanner stopped inside (at a chunk's end).
        while p < limit && (inLineComment || inBlockComment) {
            if inLineComment {
                if window[p] == 0x0A { inLineComment = false }
            } else if window[p] == UInt8(ascii: "*") && p + 1 < limit && window[p + 1] == UInt8(ascii: "/") {
                inBlockComment = false
                p += 1
            }
            p += 1
        }
        if p > scanPos, let tooLong = commentTooLong(end: p, checks: checks) { return stop(at: p, tooLong, &error) }
        while p < limit {
            let c = window[p]
            switch c {
            case 0x20, 0x09, 0x0D, 0x0A:
                p += 1
            case 0x0C, 0x0B:
                scanPos = p
                error = StrictnessChecks.badWhitespace(at: p, byte: c)
                return false
            case UInt8(ascii: "/") where checks.allowsComments && p + 1 < limit
                && (window[p + 1] == UInt8(ascii: "/") || window[p + 1] == UInt8(ascii: "*")):
                let block = window[p + 1] == UInt8(ascii: "*")
                commentStart = p
                p += 2
                while p < limit {
                    if !block && window[p] == 0x0A { break }
                    if block && window[p] == UInt8(ascii: "*") && p + 1 < limit && window[p + 1] == UInt8(ascii: "/") {
                        p += 1
                        break
                    }
                    p += 1
                }
                p += 1
                if let tooLong = commentTooLong(end: min(p, limit), checks: checks) {
                    return stop(at: commentStart, tooLong, &error)
                }
            default:
                if let allowed = separator, c == allowed {
                    separator = nil
                    progress.insert(.separatorSeen)
                    p += 1
                    continue
                }
                scanPos = p
                return true
            }
        }
        scanPos = min(p, limit)
        return false
    }

    /// Scans the bytes after the last token up to `limit` (the end of what yajl has seen).
    /// Returns the start of a token yajl has begun but not finished, if any. Sets `error` (and
    /// returns nil) when the bytes break a rule or the unfinished token is over a limit.
    mutating func scanTail(
        limit: Int, in window: InputWindow, checks: StrictnessChecks, allowsMultipleValues: Bool,
        error: inout PendingError?
    ) -> Int? {
        guard skipToToken(limit: limit, in: window, checks: checks, error: &error) else {
            // An unfinished comment is held back like a token, and bounded like a string.
            guard inLineComment || inBlockComment, error == nil else { return nil }
            if let tooLong = commentTooLong(end: limit, checks: checks) {
                error = tooLong
                return nil
            }
            return commentStart
        }
        let start = scanPos
        let first = window[start]
        let isString = first == UInt8(ascii: "\"")
        let isNumber = first == UInt8(ascii: "-") || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9"))
        let tooLong = isString ? limit - start - 1 > checks.maxStringLength : isNumber && limit - start > checks.maxNumberLength
        if tooLong {
            // A token the grammar does not allow here is a syntax error, however long it is.
            error =
                grammarError(at: start, isString: isString, allowsMultipleValues: allowsMultipleValues)
                ?? (isString ? checks.stringTooLong(at: start, in: window) : checks.numberTooLong(at: start))
            return nil
        }
        return start
    }

    /// The error for a form feed or vertical tab at `offset`, once yajl has parsed everything
    /// before it: inside a string it must be escaped; between tokens it is not whitespace.
    mutating func badWhitespaceError(
        at offset: Int, in window: InputWindow, checks: StrictnessChecks, error: inout PendingError?
    ) -> PendingError {
        let byte = window[offset]
        if skipToToken(limit: offset, in: window, checks: checks, error: &error), window[scanPos] == UInt8(ascii: "\"") {
            let name = byte == 0x0C ? "form feed" : "vertical tab"
            return PendingError(.syntax, "invalid character in string: \(name) must be escaped", at: offset)
        }
        if let error { return error }
        return StrictnessChecks.badWhitespace(at: offset, byte: byte)
    }
}
