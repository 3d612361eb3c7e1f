/// Drives yajl over an ``InputWindow`` and keeps the token tape filled.
///
/// Input is written into the window (``freeSpace(minimum:)`` then ``commit(_:)``, or
/// ``append(_:)``), ``parseAvailable()`` hands it to yajl, and ``finish()`` ends the input.
///
/// **Linear time for long tokens.** yajl re-lexes a token that spans chunks from its first byte
/// on every `yajl_parse` call, which is quadratic for a long string fed in small chunks. While a
/// token is unfinished, the tokenizer therefore holds input back until the new bytes are at
/// least as many as the pending token's, so the chunks yajl sees grow geometrically and the
/// total re-lexing stays linear.
///
/// **Errors.** Whatever the chunk size, the same input gives the same ``ParseError``: the
/// earliest problem wins, located at the offending token by Spool's own scanner rather than at
/// yajl's offset (which points past the token, or into a private buffer at end of input).
final class Tokenizer {
    let writer: TapeWriter
    private let parser: YajlParser
    let options: JSONParsingOptions
    private let chunkSize: Int

    /// Absolute offset up to which bytes have been given to yajl.
    private(set) var parsedEnd = 0
    /// Start of a token yajl has begun but not finished, after the last parse.
    private var pendingStart: Int?
    /// Whether ``finish()`` has run successfully.
    private(set) var isFinished = false
    /// The error that stopped parsing; every later call throws it again.
    private(set) var failure: ParseError?

    init(options: JSONParsingOptions) {
        self.options = options
        chunkSize = options.effectiveChunkSize
        writer = TapeWriter(options: options)
        parser = YajlParser(writer: writer, options: options)
    }

    var tape: TokenTape { writer.tape }

    /// Total bytes of input received so far.
    var bytesReceived: Int { writer.window.end }

    // MARK: - Input

    /// Free space in the window for at least `minimum` bytes of new input.
    func freeSpace(minimum: Int) -> UnsafeMutableRawBufferPointer {
        writer.window.freeSpace(minimum: minimum)
    }

    /// Records that `count` bytes were written into the space from ``freeSpace(minimum:)``.
    func commit(_ count: Int) {
        writer.window.commit(count)
    }

    /// Copies bytes into the window.
    func append(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0, let source = bytes.baseAddress else { return }
        let space = freeSpace(minimum: bytes.count)
        space.baseAddress?.copyMemory(from: source, byteCount: bytes.count)
        commit(bytes.count)
    }

    /// Whether yajl should be given the unparsed bytes now, or wait for more (see the type's
    /// note on linear time). Always true once the input has ended.
    var shouldParse: Bool {
        let available = writer.window.end - parsedEnd
        guard available > 0 else { return false }
        guard let pendingStart else { return true }
        return available >= min(parsedEnd - pendingStart, 1 << 30)
    }

    /// Gives yajl the bytes received but not yet parsed, unless they are being held back.
    func parseAvailable(force: Bool = false) throws(ParseError) {
        if let failure { throw failure }
        guard force ? writer.window.end > parsedEnd : shouldParse else { return }
        let start = parsedEnd
        let end = writer.window.end
        writer.chunkBase = start
        let status = parser.parse(UnsafePointer(writer.window.pointer(at: start)), count: end - start)
        parsedEnd = end
        switch status {
        case .ok:
            pendingStart = writer.scanTail(limit: end)
            if let error = writer.pendingError { throw fail(error) }
        case .cancelled:
            throw fail(writer.pendingError ?? writer.makeError(.syntax, "parse cancelled", at: writer.scanPos))
        case .failed(let message, let consumed):
            throw fail(mapYajlError(message, at: start + consumed, atEnd: false))
        }
    }

    /// Ends the input: parses what is held back, then lets yajl finish.
    func finish() throws(ParseError) {
        if let failure { throw failure }
        if isFinished { return }
        try parseAvailable(force: true)
        writer.finishing = true
        let status = parser.complete()
        writer.finishing = false
        switch status {
        case .ok:
            if writer.skipToToken(limit: writer.window.end) || writer.pendingError != nil {
                throw fail(writer.pendingError ?? endOfInputError())
            }
            isFinished = true
        case .cancelled:
            throw fail(writer.pendingError ?? endOfInputError())
        case .failed(let message, _):
            if let start = pendingStart, writer.scanPos > start { pendingStart = nil }
            if options.allowsMultipleValues && writer.stack.isEmpty && pendingStart == nil
                && !writer.skipToToken(limit: writer.window.end) && writer.pendingError == nil
            {
                // An empty NDJSON stream, or only whitespace after the last value: zero values, fine.
                isFinished = true
                return
            }
            if let error = writer.pendingError { throw fail(error) }
            if message.contains("trailing garbage"), let start = pendingStart {
                throw fail(
                    writer.makeError(
                        .syntax,
                        "expected end of input after the top-level value, found \(writer.describeToken(at: start))",
                        at: start))
            }
            throw fail(endOfInputError())
        }
    }

    private func fail(_ error: ParseError) -> ParseError {
        failure = error
        return error
    }

    // MARK: - Memory

    /// Drops tokens below `index` from the tape and input bytes nobody needs any more.
    func compact(keepingTokensFrom index: Int) {
        if index > tape.base {
            writer.preserveKeys(below: index)
            tape.discard(below: index)
        }
        if tape.count == 0 { tape.shrinkIfOversized() }
        // Keep the unfinished token, and a little context before it for error excerpts.
        let keepFrom = min(writer.scanPos, pendingStart ?? writer.scanPos, parsedEnd) - 64
        writer.window.discard(below: max(keepFrom, writer.window.base), preferredCapacity: chunkSize + 256)
    }

    // MARK: - Errors

    private func endOfInputError() -> ParseError {
        let end = writer.window.end
        var message = "unexpected end of input"
        if let start = pendingStart ?? (writer.scanPos < end ? writer.scanPos : nil) {
            let what: String
            switch writer.window[start] {
            case UInt8(ascii: "\""): what = "string"
            case UInt8(ascii: "/"): what = "comment"
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): what = "number"
            default: what = "literal"
            }
            let location = writer.location(of: start)
            message += " in the \(what) that starts at \(location)"
        } else if writer.inBlockComment {
            message += " in a comment"
        }
        if let open = writer.stack.last {
            message += "; the \(open.name) opened at \(open.location) is not closed"
        } else if writer.topLevelCount == 0 && pendingStart == nil {
            message += ": the input holds no JSON value"
        }
        return writer.makeError(.unexpectedEndOfInput, message, at: end)
    }

    /// Turns yajl's error into Spool's: the earliest problem, at the offending token.
    private func mapYajlError(_ yajlMessage: String, at reported: Int, atEnd: Bool) -> ParseError {
        let errorOffset = min(max(reported, writer.scanPos), writer.window.end)
        // A byte before yajl's error that Spool rejects (form feed) is the earlier problem.
        let foundToken = writer.skipToRejectedToken(limit: min(max(errorOffset, writer.scanPos + 1), writer.window.end))
        if let error = writer.pendingError { return error }
        let tokenStart = foundToken ? writer.scanPos : errorOffset

        // Over-long strings and numbers fail on length first, whatever else follows.
        if tokenStart < writer.window.end {
            let first = writer.window[tokenStart]
            if first == UInt8(ascii: "\"") && errorOffset - tokenStart - 1 > options.maxStringLength {
                writer.failStringTooLong(at: tokenStart)
                return writer.pendingError ?? writer.makeError(.limitExceeded, "string too long", at: tokenStart)
            }
            if (first == UInt8(ascii: "-") || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")))
                && errorOffset - tokenStart > options.maxNumberLength
            {
                writer.failNumberTooLong(at: tokenStart)
                return writer.pendingError ?? writer.makeError(.limitExceeded, "number too long", at: tokenStart)
            }
        }

        let text = yajlMessage.lowercased()
        if text.hasPrefix("lexical error") {
            if text.contains("invalid bytes in utf8") {
                return writer.makeError(.invalidString, "invalid UTF-8 in string", at: errorOffset)
            }
            if text.contains("invalid character inside string") {
                let what = writer.describeToken(at: errorOffset)
                return writer.makeError(
                    .syntax, "invalid character in string: \(what) must be escaped", at: errorOffset)
            }
            if text.contains("non-hex") {
                return writer.makeError(.syntax, "invalid \\u escape: expected 4 hexadecimal digits", at: errorOffset)
            }
            if text.contains("occurs before a character") {
                return writer.makeError(.syntax, "invalid escape sequence in string", at: errorOffset)
            }
            if text.contains("malformed number") {
                let detail: String
                if text.contains("decimal point") {
                    detail = "a digit is required after the decimal point"
                } else if text.contains("exponent") {
                    detail = "a digit is required after the exponent"
                } else {
                    detail = "a digit is required after the minus sign"
                }
                return writer.makeError(.syntax, "invalid number: \(detail)", at: tokenStart)
            }
            if text.contains("comment") {
                return writer.makeError(
                    .syntax, "comments are not allowed (JSONParsingOptions.allowsComments)", at: tokenStart)
            }
            if text.contains("invalid string in json text") {
                return writer.makeError(
                    .syntax, "invalid literal \(writer.describeToken(at: tokenStart)): expected true, false or null",
                    at: tokenStart)
            }
            if tokenStart < writer.window.end && writer.window[tokenStart] == 0xEF {
                return writer.makeError(.syntax, "unexpected byte order mark: JSON text must not start with one", at: tokenStart)
            }
            return writer.makeError(
                .syntax, "expected a value, found \(writer.describeToken(at: tokenStart))", at: tokenStart)
        }

        let found = writer.describeToken(at: tokenStart)
        if text.contains("after array element") {
            return writer.makeError(.syntax, "expected ',' or ']' after array element, found \(found)", at: tokenStart)
        }
        if text.contains("after key and value") {
            return writer.makeError(.syntax, "expected ',' or '}' after object member, found \(found)", at: tokenStart)
        }
        if text.contains("invalid object key") {
            return writer.makeError(.syntax, "expected a string key, found \(found)", at: tokenStart)
        }
        if text.contains("separated by a colon") {
            return writer.makeError(.syntax, "expected ':' after object key, found \(found)", at: tokenStart)
        }
        if text.contains("trailing garbage") {
            return writer.makeError(
                .syntax, "expected end of input after the top-level value, found \(found)", at: tokenStart)
        }
        if text.contains("unallowed token") {
            let expected = writer.stack.last?.isObject == true && !writer.afterKey ? "a string key" : "a value"
            return writer.makeError(.syntax, "expected \(expected), found \(found)", at: tokenStart)
        }
        if text.contains("premature eof") {
            return endOfInputError()
        }
        return writer.makeError(.syntax, "syntax error (\(yajlMessage.trimmingTrailingNewlines))", at: tokenStart)
    }
}

extension String {
    fileprivate var trimmingTrailingNewlines: String {
        var text = self
        while let last = text.last, last.isNewline { text.removeLast() }
        return text
    }
}
