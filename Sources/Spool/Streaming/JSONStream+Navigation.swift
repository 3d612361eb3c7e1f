/// Moving a stream's reader to the array or object it streams, recording what it passes for
/// the stream's ``JSONStream/remainder``.
extension JSONStream {
    /// Reads up to the first element of the array (or member of the object) at `path`,
    /// recording what it passes. Returns true when the elements are the top-level values (NDJSON).
    func navigate(to path: JSONKeyPath, container: RawToken.Kind?) throws -> Bool {
        if path.isEmpty && reader.options.allowsMultipleValues && container != .objectStart { return true }
        guard try reader.next() != nil else { return true }
        recorder.record(from: reader)
        var walked: [JSONKeyPath.Component] = []
        for component in path.components {
            let parent = reader.current
            guard let token = reader.currentToken else { return true }
            switch component {
            case .key(let key):
                guard token.kind == .objectStart else { throw mismatch(expected: "object", at: walked, streaming: path) }
                while true {
                    guard let next = try reader.next() else { return true }
                    if next == .objectEnd { throw missing(component, in: walked, container: parent, streaming: path) }
                    recorder.record(from: reader)
                    if reader.textEquals(key) { break }
                    try recordValue()
                }
            case .index(let position):
                guard token.kind == .arrayStart else { throw mismatch(expected: "array", at: walked, streaming: path) }
                for _ in 0..<position {
                    if try reader.peek() == .arrayEnd { throw missing(component, in: walked, container: parent, streaming: path) }
                    try recordValue()
                }
                if try reader.peek() == .arrayEnd { throw missing(component, in: walked, container: parent, streaming: path) }
            }
            walked.append(component)
            guard try reader.next() != nil else { return true }
            recorder.record(from: reader)
        }
        let kind = reader.currentToken?.kind
        let matches = container.map { kind == $0 } ?? (kind == .arrayStart || kind == .objectStart)
        guard matches else {
            let expected = container == .arrayStart ? "array" : container == .objectStart ? "object" : "array or object"
            throw mismatch(expected: expected, at: walked, streaming: path)
        }
        recorder.streamedArrayDepth = reader.depth
        return false
    }

    /// Reads the next value whole, recording its tokens.
    private func recordValue() throws {
        var depth = 0
        repeat {
            guard let token = try reader.next() else { return }
            recorder.record(from: reader)
            depth += token.depthChange
        } while depth > 0
    }

    private func mismatch(expected: String, at walked: [JSONKeyPath.Component], streaming path: JSONKeyPath) -> DecodeError {
        StreamErrors.notFound(expected: expected, at: walked, reader: reader, streaming: path)
    }

    private func missing(
        _ component: JSONKeyPath.Component, in walked: [JSONKeyPath.Component], container: Int, streaming path: JSONKeyPath
    ) -> DecodeError {
        StreamErrors.missing(component, in: walked, container: container, reader: reader, streaming: path)
    }
}
