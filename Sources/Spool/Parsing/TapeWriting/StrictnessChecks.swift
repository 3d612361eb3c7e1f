/// What Spool enforces and yajl does not, for the ``TapeWriter``: the depth, string, number and
/// comment limits, strict UTF-8, and valid surrogate escapes. A check that fails gives the
/// error to report; the writer stores it (``ErrorContext``).
struct StrictnessChecks {
    let allowsComments: Bool
    let validatesUTF8: Bool
    /// The deepest nesting allowed, counted from the input read (see
    /// ``JSONParsingOptions/parserMaxDepth``).
    let maxDepth: Int
    /// ``JSONParsingOptions/maxDepth`` as the user set it, for messages.
    let reportedMaxDepth: Int
    /// Bounds strings (their source between the quotes) and comments.
    let maxStringLength: Int
    let maxNumberLength: Int

    init(options: JSONParsingOptions) {
        allowsComments = options.allowsComments
        validatesUTF8 = options.validatesUTF8
        maxDepth = options.parserMaxDepth
        reportedMaxDepth = options.effectiveMaxDepth
        maxStringLength = options.effectiveMaxStringLength
        maxNumberLength = options.maxNumberLength
    }

    /// Whether a string or key needs its raw text checked: one whose source has no escapes
    /// needs a look only when it is not ASCII (yajl checks no UTF-8 for Spool, ``YajlHandle``);
    /// one with escapes always does. `isASCII`: what
    /// copying the decoded text found, if it was copied.
    @inline(__always)
    func needsRawCheck(_ decoded: UnsafeRawPointer?, count: Int, hasEscapes: Bool, isASCII: Bool?) -> Bool {
        if hasEscapes { return true }
        if isASCII == true { return false }
        guard validatesUTF8, let decoded else { return false }
        return isASCII != nil
            || !StringChecks.isASCII(UnsafeBufferPointer(start: decoded.assumingMemoryBound(to: UInt8.self), count: count))
    }

    /// Checks the raw source text between a string's quotes (`start` and `end` include them), as
    /// far as the window still holds it; false, with `error` set, when it breaks a rule.
    /// `unchecked` is set when the window no longer holds the text, so it could not be checked.
    @inline(__always)
    func checkRawText(start: Int, end: Int, in window: InputWindow, error: inout PendingError?, unchecked: inout Bool) -> Bool {
        let rawCount = end &- start &- 2
        guard rawCount > 0 else { return true }
        guard start &+ 1 >= window.base, end &- 1 <= window.end else {
            unchecked = true
            return true
        }
        // With the closing quote when the window holds it: a UTF-8 sequence it cuts short then
        // fails on it as a bad continuation byte, as it does when the string is not complete.
        let raw = UnsafeBufferPointer(start: window.pointer(at: start &+ 1), count: end <= window.end ? rawCount &+ 1 : rawCount)
        guard let failure = StringChecks.check(raw, validateUTF8: validatesUTF8) else { return true }
        error = PendingError(.invalidString, failure.message, at: start &+ 1 &+ failure.index)
        return false
    }

    @inline(never)
    func depthExceeded(at start: Int) -> PendingError {
        PendingError(
            .limitExceeded, "nesting is deeper than the maximum depth of \(reportedMaxDepth) (JSONParsingOptions.maxDepth)", at: start)
    }

    /// The error for the string whose opening quote is at `start`, over the length limit: the
    /// limit's, unless a sequence that is not UTF-8 comes before it (yajl does not check UTF-8
    /// for Spool, ``YajlHandle``, so that is the first problem, whatever the chunks were).
    @inline(never)
    func stringTooLong(at start: Int, in window: InputWindow) -> PendingError {
        invalidUTF8(inStringAt: start, before: start &+ 1 &+ maxStringLength, in: window)
            ?? tooLong("string", at: start, limit: maxStringLength, option: "maxStringLength")
    }

    /// The first sequence that is not UTF-8 in the string whose opening quote is at `start`,
    /// before `end`, as an error (with UTF-8 validation on): a problem found later in the
    /// string (yajl's error, the end of the input, the length limit) is not the first then.
    /// yajl does not check UTF-8 for Spool (``YajlHandle``), so nothing else has looked at
    /// those bytes yet.
    func invalidUTF8(inStringAt start: Int, before end: Int, in window: InputWindow) -> PendingError? {
        let low = start &+ 1
        let high = min(end, window.end)
        guard validatesUTF8, start >= window.base, high > low, window[start] == UInt8(ascii: "\"") else { return nil }
        guard let failure = StringChecks.firstInvalidUTF8(UnsafeBufferPointer(start: window.pointer(at: low), count: high &- low))
        else { return nil }
        return PendingError(.invalidString, failure.message, at: low &+ failure.index)
    }

    func commentTooLong(at start: Int) -> PendingError {
        tooLong("comment", at: start, limit: maxStringLength, option: "maxStringLength")
    }

    func numberTooLong(at start: Int) -> PendingError {
        tooLong("number", at: start, limit: maxNumberLength, option: "maxNumberLength")
    }

    @inline(never)
    private func tooLong(_ what: String, at start: Int, limit: Int, option: String) -> PendingError {
        PendingError(
            .limitExceeded, "\(what) is longer than the maximum of \(limit) bytes (JSONParsingOptions.\(option))", at: start)
    }

    /// A form feed or vertical tab between tokens: whitespace to yajl, not to JSON.
    static func badWhitespace(at offset: Int, byte: UInt8) -> PendingError {
        let name = byte == 0x0C ? "form feed (\\f)" : "vertical tab (\\v)"
        return PendingError(
            .syntax, "unexpected \(name): JSON whitespace is only space, tab, line feed and carriage return", at: offset)
    }
}
