/// Spool was asked for something it cannot do, whatever the input: the fix is in the code
/// that asks, not in the JSON.
///
/// - A date pattern Spool does not read, refused when the pattern is compiled, before any
///   value: by ``Transformer/pattern(_:)``, and by a ``StreamingJSONDecoder`` whose date
///   strategy is `.pattern` when a decode or a stream starts, before it reads any input. A
///   letter outside single quotes is a field: one Spool does not read (`h`, `a`, `ZZZZ`, the
///   two-digit year `yy`) is refused rather than matched as literal text, which would fail on
///   every value as an invalid date (or, for `yy`, read `94` as the year 94). Quote literal
///   text: `yyyy-MM-dd'T'HH:mm:ss`. The message names the pattern, the field and its offset:
///
///   ```text
///   error: date pattern "hh:mm a": hh at offset 0 is not a field Spool reads (it reads yyyy MM dd HH mm ss SSS, MMM MMMM EEE EEEE, Z XXX ZZZZZ zzz); put literal text in single quotes ('T')
///   ```
/// - A stream used twice: a stream reads its input once, so it hands out one sequence of
///   elements or members (or one count). The sequence returned by a second `elements(...)`,
///   `members(...)` or `count(at:)` call throws this from its first `next()`, and ends.
/// - A stream called while another call on it is running: a ``PushJSONStream`` takes one
///   call at a time, so a call from another thread, or from a callback of a running call (its
///   `onProgress`, a model's decode, a skipped element's report), throws this and does
///   nothing; the running call goes on. (A sequence asked for that way throws it from its
///   first `next()`.)
/// - A stream resumed where no element can start, or for a path that names no element of an
///   array by its index, or asked for more than that array's elements; a push stream's
///   ``PushJSONStream/remainder()`` before ``PushJSONStream/finishInput()``.
public struct UsageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was asked, and why it cannot be done.
    public var message: String

    /// The error for a second request on one stream.
    static func secondRequest(_ request: String, first: String) -> UsageError {
        UsageError(
            message: "\(request) was called on a stream that already handed out \(first); a stream reads its input "
                + "once, so make one request per stream (or a new stream over the input)")
    }

    /// The error for a call on a push stream while another call on it is running.
    static func overlappingCall(_ call: String) -> UsageError {
        UsageError(
            message: "\(call) was called on a PushJSONStream while another call on it was running (on another thread, "
                + "or from a callback of that call such as onProgress or a model's decode); a stream takes one call "
                + "at a time, from one thread at a time")
    }

    /// The error for what a stream resumed at an element of the array at `container` cannot do.
    static func resumed(_ call: String, in container: JSONKeyPath) -> UsageError {
        UsageError(
            message: "\(call) was asked of a stream resumed inside \(container): it reads only that array's elements from "
                + "the one it resumed at (elements(of:at: \"\(container)\") or count(at:))")
    }

    /// The error for a date pattern Spool does not read: `why` names the field, its offset and
    /// what to write instead.
    static func datePattern(_ pattern: String, _ why: String) -> UsageError {
        UsageError(message: "date pattern \(JSONKeyPath.quoted(pattern)): \(why)")
    }

    /// `error: MESSAGE`.
    public var description: String { "error: \(message)" }
}

/// The name ``UsageError`` had while it covered only streams' misuse.
@available(*, deprecated, renamed: "UsageError")
public typealias StreamUsageError = UsageError
