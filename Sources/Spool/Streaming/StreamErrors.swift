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
