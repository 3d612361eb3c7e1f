/// The receiving end of yajl's callbacks: turns each event into a ``RawToken`` on the tape.
///
/// yajl reports neither where a token starts nor line numbers, so the writer runs its own
/// small scanner over the bytes *between* tokens (whitespace, `,`, `:`, comments). That scan
/// finds each token's first byte, counts lines exactly once per byte (JSON has newlines only
/// between tokens), and rejects form feed and vertical tab, which yajl wrongly accepts as
/// whitespace. Token ends come from `yajl_get_bytes_consumed`.
///
/// Each callback also enforces what yajl does not: the depth, string and number limits,
/// strict UTF-8, and valid surrogate escapes. A failing callback stores its ``ParseError`` in
/// ``pendingError`` and returns `false`, which cancels the parse; nothing throws through C.
final class TapeWriter {
    let tape: TokenTape
    let options: JSONParsingOptions
    /// The yajl handle, for `yajl_get_bytes_consumed`; set by ``YajlParser``.
    @exclusivity(unchecked) var handle: OpaquePointer?

    @exclusivity(unchecked) var window: InputWindow
    /// Absolute offset of the first byte of the current `yajl_parse` call.
    @exclusivity(unchecked) var chunkBase = 0
    /// True inside `yajl_complete_parse`, whose offsets refer to a private buffer.
    @exclusivity(unchecked) var finishing = false

    // The inter-token scanner.
    /// Absolute offset up to which the bytes between tokens have been scanned.
    @exclusivity(unchecked) var scanPos = 0
    /// Line of `scanPos` (1-based), and absolute offset where that line starts.
    @exclusivity(unchecked) var line = 1
    @exclusivity(unchecked) var lineStart = 0
    @exclusivity(unchecked) var inLineComment = false
    @exclusivity(unchecked) var inBlockComment = false
    /// Whether the scanner has passed a `,` or `:` since the last token.
    @exclusivity(unchecked) var separatorSeen = false

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

    init(options: JSONParsingOptions) {
        self.options = options
        tape = TokenTape()
        window = InputWindow(capacity: options.effectiveChunkSize + 256)
    }

    deinit {
        window.deallocate()
        stack.deallocate()
    }

    // MARK: - Scanning between tokens

    /// Skips whitespace, separators and comments from `scanPos` towards `limit`. Returns `true`
    /// when it stopped at the first byte of a token (at `scanPos`), `false` when it reached
    /// `limit` or found a byte that is never allowed between tokens (then `pendingError` is set).
    @inline(__always)
    func skipToToken(limit: Int) -> Bool {
        if options.allowsComments { return skipToTokenWithComments(limit: limit) }
        var p = scanPos
        let storage = window.storage
        let base = window.base
        while p < limit {
            let c = storage[p - base]
            if c == 0x20 || c == 0x09 || c == 0x0D {
                p += 1
                continue
            }
            if c == 0x2C || c == 0x3A {
                separatorSeen = true
                p += 1
                continue
            }
            if c == 0x0A {
                line += 1
                lineStart = p + 1
                p += 1
                continue
            }
            scanPos = p
            if c == 0x0C || c == 0x0B {
                failOnBadWhitespace(at: p, byte: c)
                return false
            }
            return true
        }
        scanPos = p
        return false
    }

    @inline(never)
    private func skipToTokenWithComments(limit: Int) -> Bool {
        var p = scanPos
        while p < limit {
            let c = window[p]
            if c == 0x0A {
                line += 1
                lineStart = p + 1
                inLineComment = false
                p += 1
                continue
            }
            if inLineComment {
                p += 1
                continue
            }
            if inBlockComment {
                if c == UInt8(ascii: "*") {
                    guard p + 1 < limit else { break }  // decide when the next byte is here
                    if window[p + 1] == UInt8(ascii: "/") {
                        inBlockComment = false
                        p += 2
                        continue
                    }
                }
                p += 1
                continue
            }
            switch c {
            case 0x20, 0x09, 0x0D:
                p += 1
                continue
            case 0x2C, 0x3A:
                separatorSeen = true
                p += 1
                continue
            case UInt8(ascii: "/"):
                guard p + 1 < limit else { break }
                let next = window[p + 1]
                if next == UInt8(ascii: "/") {
                    inLineComment = true
                    p += 2
                    continue
                }
                if next == UInt8(ascii: "*") {
                    inBlockComment = true
                    p += 2
                    continue
                }
                scanPos = p
                return true
            case 0x0C, 0x0B:
                scanPos = p
                failOnBadWhitespace(at: p, byte: c)
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

    /// Like ``skipToToken(limit:)``, but for locating the token yajl rejected: skips at most the
    /// one separator the grammar allows here (`,` after a value in a container, `:` after a
    /// key), so in `[1,,2]` it stops at the second comma.
    @inline(never)
    func skipToRejectedToken(limit: Int) -> Bool {
        var separator: UInt8? =
            separatorSeen ? nil : afterKey ? UInt8(ascii: ":") : (afterValue && !stack.isEmpty ? UInt8(ascii: ",") : nil)
        var p = scanPos
        while p < limit {
            let c = window[p]
            switch c {
            case 0x20, 0x09, 0x0D:
                p += 1
            case 0x0A:
                line += 1
                lineStart = p + 1
                p += 1
            case 0x0C, 0x0B:
                scanPos = p
                failOnBadWhitespace(at: p, byte: c)
                return false
            case UInt8(ascii: "/") where options.allowsComments && p + 1 < limit
                && (window[p + 1] == UInt8(ascii: "/") || window[p + 1] == UInt8(ascii: "*")):
                let block = window[p + 1] == UInt8(ascii: "*")
                p += 2
                while p < limit {
                    if window[p] == 0x0A {
                        line += 1
                        lineStart = p + 1
                        if !block { break }
                    }
                    if block && window[p] == UInt8(ascii: "*") && p + 1 < limit && window[p + 1] == UInt8(ascii: "/") {
                        p += 1
                        break
                    }
                    p += 1
                }
                p += 1
            default:
                if let allowed = separator, c == allowed {
                    separator = nil
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

    @inline(never)
    private func failOnBadWhitespace(at offset: Int, byte: UInt8) {
        let name = byte == 0x0C ? "form feed (\\f)" : "vertical tab (\\v)"
        pendingError = PendingError(
            .syntax, "unexpected \(name): JSON whitespace is only space, tab, line feed and carriage return", at: offset)
    }

    /// Scans the bytes after the last token up to `limit` (the end of what yajl has seen).
    /// Returns the start of a token yajl has begun but not finished, if any. Sets `pendingError`
    /// (and returns nil) when the bytes break a rule or the unfinished token is over a limit.
    func scanTail(limit: Int) -> Int? {
        guard skipToToken(limit: limit) else { return nil }
        let start = scanPos
        let first = window[start]
        if first == UInt8(ascii: "\"") {
            if limit - start - 1 > options.maxStringLength {
                failStringTooLong(at: start)
                return nil
            }
        } else if first == UInt8(ascii: "-") || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")) {
            if limit - start > options.maxNumberLength {
                failNumberTooLong(at: start)
                return nil
            }
        }
        return start
    }

    // MARK: - Callbacks (called from YajlParser's trampolines)

    @inline(__always)
    private func tokenEnd(_ consumed: Int) -> Int {
        finishing ? window.end : chunkBase + consumed
    }

    @inline(__always)
    private func tokenStart(end: Int) -> Int? {
        if skipToToken(limit: end) { return scanPos }
        return pendingError == nil ? max(scanPos, end - 1) : nil
    }

    @inline(__always)
    @discardableResult
    private func record(_ kind: RawToken.Kind, at start: Int, payload: Int, length: Int) -> Int {
        separatorSeen = false
        return tape.append(
            RawToken(
                offset: start, payload: payload, length: UInt32(truncatingIfNeeded: length),
                line: UInt32(clamping: line), column: UInt32(clamping: start - lineStart + 1), kind: kind))
    }

    @inline(__always)
    private func beginValue(at start: Int, bare: Bool) -> Bool {
        if stack.count > 0 {
            let top = stack.top
            if !top.pointee.isObject { top.pointee.children += 1 }
            return true
        }
        if topLevelCount > 0 && lastTopLevelBare && start == lastTopLevelEnd {
            pendingError = PendingError(.syntax, at: start) { writer in
                "expected whitespace between top-level values, found \(writer.describeToken(at: start))"
            }
            return false
        }
        return true
    }

    @inline(__always)
    private func completeValue(end: Int, bare: Bool) {
        afterValue = true
        afterKey = false
        scanPos = end
        if stack.isEmpty {
            topLevelCount += 1
            lastTopLevelEnd = end
            lastTopLevelBare = bare
        }
    }

    func didStartContainer(isObject: Bool, consumed: Int) -> Bool {
        let end = tokenEnd(consumed)
        guard let start = tokenStart(end: end) else { return false }
        if stack.count >= options.maxDepth {
            pendingError = PendingError(
                .limitExceeded,
                "nesting is deeper than the maximum depth of \(options.maxDepth) (JSONParsingOptions.maxDepth)",
                at: start)
            return false
        }
        guard beginValue(at: start, bare: false) else { return false }
        let index = record(isObject ? .objectStart : .arrayStart, at: start, payload: -1, length: 0)
        let location = SourceLocation(byteOffset: start, line: line, column: start - lineStart + 1)
        stack.push(OpenContainer(tokenIndex: index, isObject: isObject, location: location))
        afterValue = false
        afterKey = false
        scanPos = start + 1
        return true
    }

    func didEndContainer(isObject: Bool, consumed: Int) -> Bool {
        let end = tokenEnd(consumed)
        guard let start = tokenStart(end: end), let open = stack.pop() else { return false }
        if open.keyPreserved { preservedKeys[stack.count] = nil }
        let index = record(isObject ? .objectEnd : .arrayEnd, at: start, payload: open.tokenIndex, length: open.children)
        if tape.contains(open.tokenIndex) {
            tape[open.tokenIndex].payload = index
            tape[open.tokenIndex].length = UInt32(truncatingIfNeeded: open.children)
        }
        completeValue(end: start + 1, bare: false)
        return true
    }

    func didParseKey(_ bytes: UnsafeRawPointer?, count: Int, consumed: Int) -> Bool {
        let end = tokenEnd(consumed)
        guard let start = tokenStart(end: end), checkString(start: start, end: end, decodedCount: count) else {
            return false
        }
        let payload = tape.appendBytes(bytes, count: count)
        let index = record(.key, at: start, payload: payload, length: count)
        if stack.count > 0 {
            let top = stack.top
            top.pointee.keyToken = index
            top.pointee.children += 1
            if top.pointee.keyPreserved {
                top.pointee.keyPreserved = false
                preservedKeys[stack.count - 1] = nil
            }
        }
        afterValue = false
        afterKey = true
        scanPos = end
        return true
    }

    func didParseString(_ bytes: UnsafeRawPointer?, count: Int, consumed: Int) -> Bool {
        let end = tokenEnd(consumed)
        guard let start = tokenStart(end: end), checkString(start: start, end: end, decodedCount: count),
            beginValue(at: start, bare: false)
        else { return false }
        let payload = tape.appendBytes(bytes, count: count)
        record(.string, at: start, payload: payload, length: count)
        completeValue(end: end, bare: false)
        return true
    }

    func didParseNumber(_ bytes: UnsafeRawPointer?, count: Int, consumed: Int) -> Bool {
        let end = tokenEnd(consumed)
        guard let start = tokenStart(end: end) else { return false }
        if count > options.maxNumberLength {
            failNumberTooLong(at: start)
            return false
        }
        guard beginValue(at: start, bare: true) else { return false }
        let payload = tape.appendBytes(bytes, count: count, nulTerminated: true)
        record(.number, at: start, payload: payload, length: count)
        completeValue(end: start + count, bare: true)
        return true
    }

    func didParseLiteral(_ kind: RawToken.Kind, consumed: Int) -> Bool {
        let end = tokenEnd(consumed)
        guard let start = tokenStart(end: end), beginValue(at: start, bare: true) else { return false }
        record(kind, at: start, payload: 0, length: 0)
        completeValue(end: end, bare: true)
        return true
    }

    // MARK: - Checks

    @inline(__always)
    private func checkString(start: Int, end: Int, decodedCount: Int) -> Bool {
        let rawCount = end - start - 2
        if rawCount > options.maxStringLength {
            failStringTooLong(at: start)
            return false
        }
        guard rawCount > 0, start + 1 >= window.base, end - 1 <= window.end else { return true }
        let raw = UnsafeBufferPointer(start: window.pointer(at: start + 1), count: rawCount)
        // Every escape is longer than what it decodes to, so equal lengths mean no escapes.
        let hasEscapes = decodedCount != rawCount
        if !hasEscapes && (!options.validatesUTF8 || StringChecks.isASCII(raw)) { return true }
        if let failure = StringChecks.check(raw, validateUTF8: options.validatesUTF8) {
            pendingError = PendingError(.invalidString, failure.message, at: start + 1 + failure.index)
            return false
        }
        return true
    }

    @inline(never)
    func failStringTooLong(at start: Int) {
        pendingError = PendingError(
            .limitExceeded,
            "string is longer than the maximum of \(options.maxStringLength) bytes (JSONParsingOptions.maxStringLength)",
            at: start)
    }

    @inline(never)
    func failNumberTooLong(at start: Int) {
        pendingError = PendingError(
            .limitExceeded,
            "number is longer than the maximum of \(options.maxNumberLength) bytes (JSONParsingOptions.maxNumberLength)",
            at: start)
    }

    // MARK: - Errors

    /// The location of an absolute offset at or after `scanPos`, on the scanner's current line.
    func location(of offset: Int) -> SourceLocation {
        SourceLocation(byteOffset: offset, line: line, column: max(1, offset - lineStart + 1))
    }

    /// The path of the value being parsed, for errors.
    func currentPath() -> JSONKeyPath {
        var components: [JSONKeyPath.Component] = []
        components.reserveCapacity(stack.count)
        for level in 0..<stack.count {
            let container = stack[level]
            if container.isObject {
                if let key = key(at: level) { components.append(.key(key)) }
            } else {
                var index = container.children - 1
                if level == stack.count - 1 && afterValue { index += 1 }
                components.append(.index(max(0, index)))
            }
        }
        return JSONKeyPath(components)
    }

    private func key(at level: Int) -> String? {
        if stack[level].keyPreserved, let bytes = preservedKeys[level] { return String(decoding: bytes, as: UTF8.self) }
        let token = stack[level].keyToken
        guard token >= 0, tape.contains(token) else { return nil }
        return String(decoding: tape.bytes(of: tape[token]), as: UTF8.self)
    }

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

    /// Renders a pending error against what the window holds now.
    func makeError(_ pending: PendingError) -> ParseError {
        let (excerpt, caret) = excerpt(around: pending.offset)
        return ParseError(
            kind: pending.kind, message: pending.message(self), location: location(of: pending.offset),
            path: currentPath(), excerpt: excerpt, excerptCaret: caret)
    }

    /// The line around `offset`, as far as the window still holds it (about 35 bytes each side).
    func excerpt(around offset: Int) -> (String, Int) {
        let low = max(window.base, lineStart, offset - 35)
        var high = min(offset, window.end)
        while high < window.end && high < offset + 35 && window[high] != 0x0A && window[high] != 0x0D { high += 1 }
        guard low <= high, low <= min(offset, window.end) else { return ("", 0) }
        var text = ""
        var caret = 0
        var bytes: [UInt8] = []
        for p in low..<high { bytes.append(window[p]) }
        let before = min(offset, window.end) - low
        // Decode leniently; count the characters before the offset for the caret.
        caret = String(decoding: bytes[0..<before], as: UTF8.self).count
        text = String(decoding: bytes, as: UTF8.self)
        text = String(text.map { $0.isASCII && ($0.asciiValue ?? 0x20) < 0x20 ? " " : $0 })
        if offset >= window.end && text.isEmpty { return ("", 0) }
        return (text, caret)
    }

    /// A short description of the token or byte at an absolute offset, for "found X".
    func describeToken(at offset: Int) -> String {
        guard offset >= window.base, offset < window.end else { return "end of input" }
        let c = window[offset]
        switch c {
        case UInt8(ascii: "\""): return "a string"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return "a number"
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
            var end = offset
            while end < window.end && end - offset < 16 {
                let b = window[end]
                guard (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
                else { break }
                end += 1
            }
            var word = ""
            for p in offset..<end { word.unicodeScalars.append(Unicode.Scalar(window[p])) }
            return "'\(word)'"
        case 0x21...0x7E: return "'\(Character(Unicode.Scalar(c)))'"
        case 0x09: return "a tab"
        case 0x0A: return "a line feed"
        case 0x0D: return "a carriage return"
        default:
            let digits = String(c, radix: 16, uppercase: true)
            return "byte 0x\(digits.count == 1 ? "0" + digits : digits)"
        }
    }
}
