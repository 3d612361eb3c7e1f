/// The elements of one array of a ``JSONStream``, decoded one at a time.
///
/// ```swift
/// let bands = stream.elements(of: Band.self, at: "objects")
/// while let band = try bands.next() { ... }
/// // or: try bands.forEach { band in ... }
/// ```
///
/// It is also a lazy `Sequence` of `Result`s, since Swift has no throwing synchronous
/// sequence: `for result in bands { let band = try result.get() }`. Over an `AsyncSequence`
/// input, ``AsyncJSONElements`` gives `for try await band in ...`.
///
/// Errors: a ``DecodeError`` in element *k* carries its full path (`objects[k].members[2].name`)
/// and location. By default the first one ends the stream; with `.skip`, the element is
/// skipped, reported, and the stream goes on. A ``ParseError`` always ends it (the rest cannot
/// be trusted), and says how many elements were decoded before it.
public final class JSONElements<Value: JSONDecodable>: Sequence {
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
        /// A second request on the stream: `next()` throws this once.
        case refused(StreamUsageError)
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
    /// The next element's index in its array (or among the top-level values).
    private var indexInArray = 0

    init(stream: JSONStream, path: JSONKeyPath, policy: ErrorPolicy, refusal: StreamUsageError?) {
        self.stream = stream
        self.path = path
        self.policy = policy
        state = refusal.map { .refused($0) } ?? .notStarted
    }

    private var reader: JSONReader { stream.reader }

    /// The next element, or nil after the last one.
    public func next() throws -> Value? {
        do {
            while let start = try nextElementStart() {
                reader.pinnedFrom = start
                defer { reader.pinnedFrom = nil }
                try reader.readWholeValue(at: start)
                let index = indexInArray
                let context = DecodingContext(
                    tape: reader.tape, rootIndex: start, basePath: stream.elementPath(path, .index(index)))
                let element = Extractor(context: context, index: start)
                count += 1
                indexInArray += 1
                do {
                    return try element.decode(as: Value.self)
                } catch let error as DecodeError {
                    guard case .skip(let report) = policy else {
                        state = .done
                        throw error
                    }
                    report(SkippedElement(index: index, location: reader.tape.location(at: start), error: error))
                }
            }
            return nil
        } catch let error as ParseError {
            state = .done
            throw error.noting(count, "element", of: path)
        }
    }

    /// Calls `body` with every remaining element.
    public func forEach(_ body: (Value) throws -> Void) throws {
        while let element = try next() { try body(element) }
    }

    /// Each element as a `Result`: `.success` for a decoded element, `.failure` for the error
    /// that ends the stream (or nothing more after it).
    public typealias Element = Result<Value, any Error>

    /// An iterator over ``JSONElements`` as `Result`s.
    public struct Iterator: IteratorProtocol {
        let elements: JSONElements<Value>

        /// The next element or error; nil after the last element or after an error.
        public mutating func next() -> Result<Value, any Error>? {
            do {
                return try elements.next().map { .success($0) }
            } catch {
                return .failure(error)
            }
        }
    }

    /// An iterator sharing this sequence's position in the stream.
    public func makeIterator() -> Iterator { Iterator(elements: self) }

    /// Moves to the start of the next element; nil (and the end state) after the last one.
    func nextElementStart() throws -> Int? {
        switch state {
        case .done:
            return nil
        case .refused(let error):
            state = .done
            throw error
        case .notStarted:
            do {
                state = .streaming(topLevel: try stream.navigate(to: path, container: .arrayStart))
            } catch {
                state = .done
                throw error
            }
        case .streaming:
            break
        }
        guard case .streaming(let topLevel) = state else { return nil }
        while true {
            guard let token = try reader.peek() else {
                state = .done
                return nil
            }
            if topLevel || token != .arrayEnd { return reader.position }
            _ = try reader.next()
            stream.recorder.recordStreamedEnd(from: reader)
            do {
                guard try stream.advanceToNextValue(path: path, container: .arrayStart) else {
                    state = .done
                    return nil
                }
            } catch {
                state = .done
                throw error
            }
            indexInArray = 0
        }
    }
}
