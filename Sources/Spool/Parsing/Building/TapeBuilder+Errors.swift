/// The tape builder's errors: yajl's turned into Spool's, at the offending token, and the end
/// of the input described.
extension TapeBuilder {
    func endOfInputError() -> PendingError {
        let end = window.end
        var message = "unexpected end of input"
        if let start = feed.pendingStart ?? (writer.scanPos < end ? writer.scanPos : nil) {
            if let invalid = earlierInvalidUTF8(inStringAt: start, before: end) { return invalid }
            let what: String
            switch window[start] {
            case UInt8(ascii: "\""): what = "string"
            case UInt8(ascii: "/"): what = "comment"
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): what = "number"
            default: what = "literal"
            }
            let location = writer.location(of: start)
            message += " in the \(what) that starts at \(location)"
        } else if writer.isInBlockComment {
            message += " in a comment"
        }
        if let open = writer.innermost {
            message += "; \(writer.describeOpening(open)) is not closed"
        } else if writer.topLevelCount == 0 && feed.pendingStart == nil {
            message += ": the input holds no JSON value"
        }
        return PendingError(.unexpectedEndOfInput, message, at: end)
    }

    /// Bad UTF-8 before `end` in the string at `start` (``StrictnessChecks/invalidUTF8(inStringAt:before:in:)``).
    func earlierInvalidUTF8(inStringAt start: Int, before end: Int) -> PendingError? {
        writer.checks.invalidUTF8(inStringAt: start, before: end, in: window)
    }

    /// Turns yajl's error into Spool's: the earliest problem, at the offending token.
    func mapYajlError(_ yajlError: YajlError, at reported: Int) -> PendingError {
        let errorOffset = min(max(reported, writer.scanPos), window.end)
        // A byte before yajl's error that Spool rejects (form feed) is the earlier problem.
        let foundToken = writer.skipToRejectedToken(limit: min(max(errorOffset, writer.scanPos + 1), window.end))
        if let error = writer.pendingError { return error }
        let at = foundToken ? writer.scanPos : errorOffset

        // An over-long string or number fails as it does when found unfinished at a chunk's end
        // (TapeWriter.scanTail), whatever else follows: on the grammar where it may not stand,
        // else on its length.
        if at < window.end {
            let first = window[at]
            let isString = first == UInt8(ascii: "\"")
            let isNumber = first == UInt8(ascii: "-") || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9"))
            let overLong =
                isString ? errorOffset - at - 1 > options.effectiveMaxStringLength : isNumber && errorOffset - at > options.maxNumberLength
            if overLong {
                if let grammar = writer.grammarError(at: at, isString: isString) { return grammar }
                return isString ? writer.checks.stringTooLong(at: at, in: window) : writer.checks.numberTooLong(at: at)
            }
        }

        if !options.allowsComments && at < window.end && window[at] == UInt8(ascii: "/") {
            return .commentsNotAllowed(at: at)
        }
        func error(_ offset: Int, _ message: @escaping (_ found: String) -> String) -> PendingError {
            PendingError(.syntax, at: offset) { window in message(ErrorContext.describeToken(at: offset, in: window)) }
        }
        switch yajlError {
        case .unescapedControlCharacter, .nonHexUnicodeEscape, .invalidEscape:
            // With the ASCII byte yajl stopped at, which ends a UTF-8 sequence cut short there.
            let asciiStop = errorOffset < window.end && window[errorOffset] < 0x80
            if let invalid = earlierInvalidUTF8(inStringAt: at, before: asciiStop ? errorOffset + 1 : errorOffset) {
                return invalid
            }
        default:
            break
        }
        switch yajlError {
        case .unescapedControlCharacter:
            return error(errorOffset) { "invalid character in string: \($0) must be escaped" }
        case .nonHexUnicodeEscape:
            return PendingError(.syntax, "invalid \\u escape: expected 4 hexadecimal digits", at: errorOffset)
        case .invalidEscape:
            return PendingError(.syntax, "invalid escape sequence in string", at: errorOffset)
        case .malformedNumber(let missing):
            // A malformed number where the grammar wants no value (`[1 2.]`): the missing
            // separator is the first problem.
            if let grammar = writer.grammarError(at: at, isString: false) { return grammar }
            let detail: String
            switch missing {
            case .afterDecimalPoint: detail = "a digit is required after the decimal point"
            case .afterExponent: detail = "a digit is required after the exponent"
            case .afterMinusSign: detail = "a digit is required after the minus sign"
            }
            return PendingError(.syntax, "invalid number: \(detail)", at: at)
        case .commentsNotEnabled:
            return .commentsNotAllowed(at: at)
        case .invalidLiteral:
            // Likewise a malformed literal where no value may stand (`[1 tru]`).
            if let grammar = writer.grammarError(at: at, isString: false) { return grammar }
            return error(at) { "invalid literal \($0): expected true, false or null" }
        case .otherLexical:
            if at < window.end && window[at] == 0xEF && window.base == 0 && at == 0 {
                return PendingError(.syntax, "unexpected byte order mark: JSON text must not start with one", at: at)
            }
            // A byte that starts no token: say what the grammar wanted there (after a value, a
            // separator or the container's end).
            return writer.grammarError(at: at, isString: false) ?? .expected("a value", at: at)
        case .afterArrayElement:
            return .expected("',' or ']' after array element", at: at)
        case .afterObjectMember:
            return .expected("',' or '}' after object member", at: at)
        case .invalidObjectKey:
            return .expected("a string key", at: at)
        case .missingColon:
            return .expected("':' after object key", at: at)
        case .trailingGarbage:
            return .afterTopLevelValue(at: at)
        case .unallowedToken:
            let inObject = writer.innermost?.isObject == true
            let expected = inObject && !writer.afterKey ? "a string key" : "a value"
            return .expected(expected, at: at)
        case .prematureEndOfInput:
            return endOfInputError()
        case .unknown(let message):
            return PendingError(.syntax, "syntax error (\(message.trimmingTrailingNewlines))", at: at)
        }
    }
}

extension String {
    fileprivate var trimmingTrailingNewlines: String {
        var text = self
        while let last = text.last, last.isNewline { text.removeLast() }
        return text
    }
}
