#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The scanner for the bytes *between* tokens: whitespace, `,`, `:` and comments. It finds
/// the start of an unfinished token at the end of a chunk, every token's start when comments
/// are allowed, and the token yajl rejected; it rejects form feed and vertical tab, which yajl
/// wrongly takes for whitespace.
extension TapeWriter {
    /// Skips whitespace, separators and comments from `scanPos` towards `limit`. Returns `true`
    /// when it stopped at the first byte of a token (at `scanPos`), `false` when it reached
    /// `limit` or found a byte that is never allowed between tokens (then `pendingError` is set).
    func skipToToken(limit: Int) -> Bool {
        if allowsComments { return skipToTokenWithComments(limit: limit) }
        var p = scanPos
        while p < limit {
            let c = window[p]
            switch c {
            case 0x20, 0x09, 0x0D, 0x0A:
                p += 1
            case 0x2C, 0x3A:
                separatorSeen = true
                p += 1
            case 0x0C, 0x0B:
                scanPos = p
                failOnBadWhitespace(at: p, byte: c)
                return false
            default:
                scanPos = p
                return true
            }
        }
        scanPos = p
        return false
    }

    private func skipToTokenWithComments(limit: Int) -> Bool {
        var p = scanPos
        while p < limit {
            let c = window[p]
            if inLineComment {
                if c == 0x0A {
                    inLineComment = false
                    if commentIsTooLong(end: p + 1) { return stop(at: p) }
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
                        if commentIsTooLong(end: p) { return stop(at: p) }
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
                separatorSeen = true
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

    /// Whether the comment that started at ``commentStart`` and runs to `end` (so far) is over
    /// the length limit, which bounds comments as it bounds strings; then `pendingError` is set.
    private func commentIsTooLong(end: Int) -> Bool {
        guard end - commentStart > maxStringLength else { return false }
        failCommentTooLong(at: commentStart)
        return true
    }

    private func stop(at p: Int) -> Bool {
        scanPos = p
        return false
    }

    /// Like ``skipToToken(limit:)``, but for locating the token yajl rejected: skips at most the
    /// one separator the grammar allows here (`,` after a value in a container, `:` after a
    /// key), so in `[1,,2]` it stops at the second comma.
    func skipToRejectedToken(limit: Int) -> Bool {
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
        if p > scanPos && commentIsTooLong(end: p) { return stop(at: p) }
        while p < limit {
            let c = window[p]
            switch c {
            case 0x20, 0x09, 0x0D, 0x0A:
                p += 1
            case 0x0C, 0x0B:
                scanPos = p
                failOnBadWhitespace(at: p, byte: c)
                return false
            case UInt8(ascii: "/") where allowsComments && p + 1 < limit
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
                if commentIsTooLong(end: min(p, limit)) { return stop(at: commentStart) }
            default:
                if let allowed = separator, c == allowed {
                    separator = nil
                    separatorSeen = true
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

    func failOnBadWhitespace(at offset: Int, byte: UInt8) {
        let name = byte == 0x0C ? "form feed (\\f)" : "vertical tab (\\v)"
        pendingError = PendingError(
            .syntax, "unexpected \(name): JSON whitespace is only space, tab, line feed and carriage return", at: offset)
    }

    /// Scans the bytes after the last token up to `limit` (the end of what yajl has seen).
    /// Returns the start of a token yajl has begun but not finished, if any. Sets `pendingError`
    /// (and returns nil) when the bytes break a rule or the unfinished token is over a limit.
    func scanTail(limit: Int) -> Int? {
        guard skipToToken(limit: limit) else {
            // An unfinished comment is held back like a token, and bounded like a string.
            guard inLineComment || inBlockComment, pendingError == nil else { return nil }
            return commentIsTooLong(end: limit) ? nil : commentStart
        }
        let start = scanPos
        let first = window[start]
        let isString = first == UInt8(ascii: "\"")
        let isNumber = first == UInt8(ascii: "-") || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9"))
        let tooLong = isString ? limit - start - 1 > maxStringLength : isNumber && limit - start > maxNumberLength
        if tooLong {
            // A token the grammar does not allow here is a syntax error, however long it is.
            pendingError = grammarError(at: start, isString: isString)
            if pendingError == nil {
                if isString { failStringTooLong(at: start) } else { failNumberTooLong(at: start) }
            }
            return nil
        }
        return start
    }

    /// The syntax error yajl reports for a token starting at `start` that the grammar does not
    /// allow there (judged from where the parse is), or nil when a value, or a key for a
    /// string, may start there.
    func grammarError(at start: Int, isString: Bool) -> PendingError? {
        func expected(_ what: String) -> PendingError { .expected(what, at: start) }
        guard stack.count > 0 else {
            let valueAllowed = topLevelCount == 0 || options.allowsMultipleValues
            return valueAllowed ? nil : .afterTopLevelValue(at: start)
        }
        if stack[stack.count - 1].isObject {
            if afterKey { return separatorSeen ? nil : expected("':' after object key") }
            if afterValue && !separatorSeen { return expected("',' or '}' after object member") }
            return isString ? nil : expected("a string key")
        }
        return afterValue && !separatorSeen ? expected("',' or ']' after array element") : nil
    }

    /// The error for a form feed or vertical tab at `offset`, once yajl has parsed everything
    /// before it: inside a string it must be escaped; between tokens it is not whitespace.
    func badWhitespaceError(at offset: Int) -> PendingError {
        let byte = window[offset]
        if skipToToken(limit: offset), window[scanPos] == UInt8(ascii: "\"") {
            let name = byte == 0x0C ? "form feed" : "vertical tab"
            return PendingError(.syntax, "invalid character in string: \(name) must be escaped", at: offset)
        }
        if let pendingError { return pendingError }
        failOnBadWhitespace(at: offset, byte: byte)
        return pendingError ?? PendingError(.syntax, "unexpected control character", at: offset)
    }
}
