/// Moving a stream's reader to the array or object it streams, recording what it passes for
/// the stream's ``JSONStream/remainder``.
extension JSONStream {
    /// Reads up to the first element of the array (or member of the object) at `path`,
    /// recording what it passes. Returns true when the elements are the top-level values (NDJSON).
    func navigate(to path: JSONKeyPath, container: RawToken.Kind?) throws -> Bool {
        if path.isEmpty && reader.options.allowsMultipleValues && container != .objectStart { return true }
        guard try reader.next() != nil else { return true }
        recorder.record(from: reader)
        var walked = valuePrefix(for: path)
        for component in path.components {
            // The container's location, taken now: its token may be gone from the tape by the
            // time a missing key is known (tokens are dropped once the cursor has passed them).
            let parent = reader.location
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

    /// With several top-level values (NDJSON) and a non-empty path, each value's array (or
    /// object) at the path is streamed in turn: this finishes the current value and moves to the
    /// container at `path` in the next one. False at the end of the input, or for a single
    /// document.
    func advanceToNextValue(path: JSONKeyPath, container: RawToken.Kind?) throws -> Bool {
        guard reader.options.allowsMultipleValues, !path.isEmpty else { return false }
        while reader.depth > 0 {
            guard try reader.next() != nil else { return false }
            recorder.record(from: reader)
        }
        recorder.isRecording = false
        guard try reader.peek() != nil else { return false }
        valueIndex += 1
        return try !navigate(to: path, container: container)
    }

    /// How the paths of the current top-level value's elements start: `[v]`, the value's
    /// index, with several top-level values and a non-empty path; nothing otherwise.
    func valuePrefix(for path: JSONKeyPath) -> [JSONKeyPath.Component] {
        reader.options.allowsMultipleValues && !path.isEmpty ? [.index(valueIndex)] : []
    }

    /// The path of element `index` of the array at `path` in the current top-level value.
    func elementPath(_ path: JSONKeyPath, _ component: JSONKeyPath.Component) -> JSONKeyPath {
        JSONKeyPath(valuePrefix(for: path)) + path + [component]
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
        _ component: JSONKeyPath.Component, in walked: [JSONKeyPath.Component], container: SourceLocation?,
        streaming path: JSONKeyPath
    ) -> DecodeError {
        StreamErrors.missing(component, in: walked, container: container, streaming: path)
    }
}
