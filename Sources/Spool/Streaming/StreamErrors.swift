/// A stream used in a way it cannot be.
///
/// - Used twice: a stream reads its input once, so it hands out one sequence of elements or
///   members (or one count). The sequence returned by a second `elements(...)`,
///   `members(...)` or `count(at:)` call throws this from its first `next()`, and ends.
/// - Called while another call on it is running: a ``PushJSONStream`` takes one call at a
///   time, so a call from another thread, or from a callback of a running call (its
///   `onProgress`, a model's decode, a skipped element's report), throws this and does
///   nothing; the running call goes on. (A sequence asked for that way throws it from its
///   first `next()`.)
public struct StreamUsageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was asked, and why it cannot be done.
    public var message: String

    /// The error for a second request on one stream.
    static func secondRequest(_ request: String, first: String) -> StreamUsageError {
        StreamUsageError(
            message: "\(request) was called on a stream that already handed out \(first); a stream reads its input "
                + "once, so make one request per stream (or a new stream over the input)")
    }

    /// The error for a call on a push stream while another call on it is running.
    static func overlappingCall(_ call: String) -> StreamUsageError {
        StreamUsageError(
            message: "\(call) was called on a PushJSONStream while another call on it was running (on another thread, "
                + "or from a callback of that call such as onProgress or a model's decode); a stream takes one call "
                + "at a time, from one thread at a time")
    }

    /// The error for what a stream resumed at an element of the array at `container` cannot do.
    static func resumed(_ call: String, in container: JSONKeyPath) -> StreamUsageError {
        StreamUsageError(
            message: "\(call) was asked of a stream resumed inside \(container): it reads only that array's elements from "
                + "the one it resumed at (elements(of:at: \"\(container)\") or count(at:))")
    }

    /// `error: MESSAGE`.
    public var description: String { "error: \(message)" }
}

/// Errors a stream raises while moving to its array or object, shared by the synchronous and
/// asynchronous streams.
enum StreamErrors {
    /// The value at `walked` is not the container the path needs.
    static func notFound(expected: String, at walked: [JSONKeyPath.Component], reader: JSONReader, streaming path: JSONKeyPath) -> DecodeError {
        let at = walked.isEmpty ? "" : " at \(JSONKeyPath(walked).clippedDescription)"
        let found = reader.currentToken.map { "\($0.publicKind)" } ?? "nothing"
        return DecodeError(
            code: .typeMismatch, keyPath: JSONKeyPath(walked), location: reader.location, expected: expected,
            actual: reader.currentToken?.kind.valueKindName,
            message: "expected \(expected)\(at) to stream \(path), found \(found)")
    }

    /// The path's next step is not in the container at `walked`, which starts at `container`;
    /// `nearKey`, a key seen there near the one wanted, is suggested.
    static func missing(
        _ component: JSONKeyPath.Component, in walked: [JSONKeyPath.Component], container location: SourceLocation?,
        streaming path: JSONKeyPath, nearKey: String? = nil
    ) -> DecodeError {
        let what: String
        switch component {
        case .key(let key): what = "missing key \(JSONKeyPath.quoted(key))"
        case .index(let position): what = "missing element [\(position)]"
        case .wildcard: what = "no element"
        }
        let inside = walked.isEmpty ? "" : " in \(JSONKeyPath(walked).clippedDescription)"
        let hint =
            nearKey.map { "; did you mean \(JSONKeyPath.quoted($0))?" } ?? JSONKeyPath.pathSyntaxHint(for: component).map { "; \($0)" }
            ?? ""
        return DecodeError(
            code: .missingKey, keyPath: JSONKeyPath(walked + [component]), location: location,
            message: "\(what)\(inside) (streaming \(path.clippedDescription))\(hint)")
    }
}

extension ParseError {
    /// The error, noting how far a stream got before it (`3 elements of objects read before it`).
    func noting(_ count: Int, _ noun: String, of path: JSONKeyPath) -> ParseError {
        var error = self
        error.message += " (\(count) \(noun)\(count == 1 ? "" : "s") of \(path.isEmpty ? "the input" : path.clippedDescription) read before it)"
        return error
    }
}
