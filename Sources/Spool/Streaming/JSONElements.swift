/// The elements of one array of a ``JSONStream``, decoded one at a time.
///
/// ```swift
/// let bands = stream.elements(of: Band.self, at: "objects")
/// while let band = try bands.next() { ... }
/// // or: try bands.forEach { band in ... }
/// ```
///
/// (Swift has no throwing synchronous `Sequence`, so the loop is a throwing `next()`; over an
/// `AsyncSequence` input, use `for try await`.)
///
/// Errors: a ``DecodeError`` in element *k* carries its full path (`objects[k].members[2].name`)
/// and location. By default the first one ends the stream; with `.skip`, the element is
/// skipped, reported, and the stream goes on. A ``ParseError`` always ends it (the rest cannot
/// be trusted), and says how many elements were decoded before it.
public final class JSONElements<Element: JSONDecodable> {
    /// What to do when an element does not decode.
    public enum ErrorPolicy {
        /// Throw the ``DecodeError``; the stream ends.
        case stop
        /// Skip the element, hand its report to the closure, and go on.
        case skip((SkippedElement) -> Void)
    }

    /// An element that did not decode.
    public struct SkippedElement: CustomStringConvertible {
        /// The element's 0-based index in its array (or among the top-level values).
        public var index: Int
        /// Where the element starts.
        public var location: SourceLocation?
        /// Why it did not decode.
        public var error: DecodeError
        /// `skipped element 3 at 12:5: 12:18: error: ...`
        public var description: String {
            "skipped element \(index)" + (location.map { " at \($0)" } ?? "") + ": \(error)"
        }
    }

    private enum State {
        case notStarted
        /// Handing out the elements of the array at `path`; `topLevel` for NDJSON values.
        case streaming(topLevel: Bool)
        case done
    }

    private let stream: JSONStream
    private let path: JSONKeyPath
    private let policy: ErrorPolicy
    private var state: State
    /// Elements handed out or skipped so far.
    public private(set) var count = 0

    init(stream: JSONStream, path: JSONKeyPath, policy: ErrorPolicy, active: Bool) {
        self.stream = stream
        self.path = path
        self.policy = policy
        state = active ? .notStarted : .done
    }

    private var reader: JSONReader { stream.reader }

    /// The next element, or nil after the last one.
    public func next() throws -> Element? {
        do {
            while let start = try nextElementStart() {
                reader.pinnedFrom = start
                defer { reader.pinnedFrom = nil }
                try reader.readWholeValue(at: start)
                let context = DecodingContext(tape: reader.tape, rootIndex: start, basePath: path + [.index(count)])
                let element = Extractor(context: context, index: start)
                count += 1
                do {
                    return try element.decode(as: Element.self)
                } catch let error as DecodeError {
                    guard case .skip(let report) = policy else {
                        state = .done
                        throw error
                    }
                    report(SkippedElement(index: count - 1, location: reader.tape[start].location, error: error))
                }
            }
            return nil
        } catch var error as ParseError {
            state = .done
            let stopped = "\(count) element\(count == 1 ? "" : "s") of \(path.isEmpty ? "the input" : path.description) read before it"
            error.message += " (\(stopped))"
            throw error
        }
    }

    /// Calls `body` with every remaining element.
    public func forEach(_ body: (Element) throws -> Void) throws {
        while let element = try next() { try body(element) }
    }

    /// Moves to the start of the next element; nil (and the end state) after the last one.
    func nextElementStart() throws -> Int? {
        switch state {
        case .done:
            return nil
        case .notStarted:
            state = .streaming(topLevel: try navigate())
        case .streaming:
            break
        }
        guard case .streaming(let topLevel) = state else { return nil }
        guard let token = try reader.peek() else {
            state = .done
            return nil
        }
        if !topLevel && token == .arrayEnd {
            _ = try reader.next()
            stream.recorder.record(from: reader)
            stream.recorder.streamedArrayDepth = nil
            state = .done
            return nil
        }
        return reader.position
    }

    /// Reads up to the first element of the array at `path`, recording what it passes.
    /// Returns true when the elements are the top-level values (NDJSON).
    private func navigate() throws -> Bool {
        if path.isEmpty && reader.options.allowsMultipleValues { return true }
        guard try reader.next() != nil else { return true }
        stream.recorder.record(from: reader)
        var walked: [JSONKeyPath.Component] = []
        for component in path.components {
            let container = reader.current
            guard let token = reader.currentToken else { return true }
            switch component {
            case .key(let key):
                guard token.kind == .objectStart else { throw mismatch(expected: "object", at: walked) }
                while true {
                    guard let next = try reader.next() else { return true }
                    if next == .objectEnd { throw missing(component, in: walked, container: container) }
                    stream.recorder.record(from: reader)
                    if reader.textEquals(key) { break }
                    try recordValue()
                }
            case .index(let position):
                guard token.kind == .arrayStart else { throw mismatch(expected: "array", at: walked) }
                for _ in 0..<position {
                    if try reader.peek() == .arrayEnd { throw missing(component, in: walked, container: container) }
                    try recordValue()
                }
                if try reader.peek() == .arrayEnd { throw missing(component, in: walked, container: container) }
            }
            walked.append(component)
            guard try reader.next() != nil else { return true }
            stream.recorder.record(from: reader)
        }
        guard reader.currentToken?.kind == .arrayStart else { throw mismatch(expected: "array", at: walked) }
        stream.recorder.streamedArrayDepth = reader.depth
        return false
    }

    /// Reads the next value whole, recording its tokens.
    private func recordValue() throws {
        var depth = 0
        repeat {
            guard let token = try reader.next() else { return }
            stream.recorder.record(from: reader)
            switch token {
            case .objectStart, .arrayStart: depth += 1
            case .objectEnd, .arrayEnd: depth -= 1
            default: break
            }
        } while depth > 0
    }

    private func mismatch(expected: String, at walked: [JSONKeyPath.Component]) -> DecodeError {
        let token = reader.currentToken
        let found = token.map { "\($0.publicKind)" } ?? "nothing"
        let at = walked.isEmpty ? "" : " at \(JSONKeyPath(walked))"
        state = .done
        return DecodeError(
            code: .typeMismatch, keyPath: JSONKeyPath(walked), location: token?.location, expected: expected,
            message: "expected \(expected)\(at) to stream \(path), found \(found)")
    }

    private func missing(_ component: JSONKeyPath.Component, in walked: [JSONKeyPath.Component], container: Int) -> DecodeError {
        state = .done
        let parent = walked.isEmpty ? "" : " in \(JSONKeyPath(walked))"
        let what: String
        switch component {
        case .key(let key): what = "missing key \(JSONKeyPath.quoted(key))"
        case .index(let position): what = "missing element [\(position)]"
        }
        return DecodeError(
            code: .missingKey, keyPath: JSONKeyPath(walked + [component]),
            location: reader.tape.contains(container) ? reader.tape[container].location : nil,
            message: "\(what)\(parent) (streaming \(path))")
    }
}
