/// Which errors of a stream resumed at an element (``JSONStream/init(_:options:resumingAt:element:)``)
/// ``ParallelJSONElements`` hands out as they are, and which it has read again by a stream that
/// starts where the serial stream would be.
///
/// A resumed stream gives the serial stream's values, paths and locations, and its errors about
/// the elements (a ``DecodeError``, a `DecodingError`, a model's own error). Its other errors
/// may differ from the serial stream's, or not be the serial stream's at all:
/// - a ``ParseError`` found by reading ahead, after the last element a batch takes, that the
///   serial stream meets only later (the next batch meets it where the serial stream does);
/// - a ``ParseError`` whose excerpt would show input before the point resumed at (a resumed
///   stream shows none of it), or that names the array the stream resumed in (`the array at
///   objects, resumed in at 1:12,` where the serial stream says `the array opened at 1:12`);
/// - an ``InputError`` or ``UsageError`` about the point resumed at.
enum ResumedErrors {
    /// Whether a resumed batch's stream stopped on an error about an element, the same one the
    /// serial stream gives there; false for errors about the stream and its input, which the
    /// batch's elements are read again for.
    static func isElementError(_ error: any Error) -> Bool {
        !(parseError(in: error) != nil || error is InputError || error is UsageError || error is BatchMismatch
            || isTooDeep(error))
    }

    /// Whether `error` says an element was nested too deep for the stack of the thread that
    /// decoded it (``DecodeError/Code/tooDeep``): a worker's stack, not the consumer's, whose
    /// thread the serial stream decodes on. Such an element is decoded again there.
    static func isTooDeep(_ error: any Error) -> Bool {
        if let decode = error as? DecodeError { return decode.code == .tooDeep }
        if case .dataCorrupted(let context)? = error as? DecodingError, let decode = context.underlyingError as? DecodeError {
            return decode.code == .tooDeep
        }
        return false
    }

    /// Whether `error`, from a stream resumed at `start` that has read on to the array's end (or
    /// to its first error), is shown exactly as the serial stream shows it. `membersOf`: the
    /// path of the object whose members the stream resumed among, if so: an error before a
    /// member's key is read has no key in its path, where the serial stream's names the key
    /// before (`{"a": 1, "b\q": 2}` fails `at a`).
    static func isShownAlike(_ error: any Error, resumedAt start: SourceLocation, membersOf object: JSONKeyPath? = nil) -> Bool {
        guard let parse = parseError(in: error) else { return !(error is InputError || error is UsageError) }
        if let object, parse.path.count <= object.count { return false }
        let offset = parse.location.byteOffset
        let lineStart = offset - (parse.location.column - 1)
        // The excerpt starts at the line's start or `excerptReach` bytes before the error, if
        // the resumed stream has read from there; the array resumed in is named otherwise.
        return start.byteOffset <= max(lineStart, offset - ErrorContext.excerptReach)
            && !parse.message.containsBytes(of: "resumed in at")
    }

    /// The ``ParseError`` that `error` is or wraps (a `Decodable` model's
    /// `DecodingError.dataCorrupted`).
    static func parseError(in error: any Error) -> ParseError? {
        if let parse = error as? ParseError { return parse }
        if case .dataCorrupted(let context)? = error as? DecodingError { return context.underlyingError as? ParseError }
        return nil
    }
}
