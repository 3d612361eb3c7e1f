/// A ``JSONStream`` over input that arrives as an `AsyncSequence` of bytes or byte chunks (a
/// network body, `FileHandle.bytes`): the elements at a path come out as an `AsyncSequence`.
///
/// ```swift
/// let stream = AsyncJSONStream(chunks: body)
/// for try await band in stream.elements(of: Band.self, at: "objects") {
///     print(band.name)
/// }
/// let updated = try await stream.remainder.value("last_updated", DateTransformers.iso8601)
/// ```
///
/// Elements, errors, the remainder and memory bounds are those of ``JSONStream``. Stopping the
/// loop early stops pulling input. Use a stream from one task at a time.
///
/// Its `async` members run on the caller's actor, so main-actor code and actors can own a
/// stream and feed it a non-`Sendable` sequence. Parsing is then done on that actor too; to keep
/// a large document off the main actor, consume the stream in a `@concurrent` function.
public final class AsyncJSONStream {
    let input: AsyncJSONReader
    let recorder = RemainderRecorder()
    private var consumed = false
    /// The top-level value being streamed, counted from 0 (more than one with NDJSON).
    var valueIndex = 0

    /// Reads an asynchronous sequence of bytes.
    public init<Bytes: AsyncSequence>(bytes: Bytes, options: JSONParsingOptions = .init()) where Bytes.Element == UInt8 {
        input = AsyncJSONReader(bytes: bytes, options: options)
    }

    /// Reads an asynchronous sequence of byte chunks of any size.
    public init<Chunks: AsyncSequence>(chunks: Chunks, options: JSONParsingOptions = .init())
    where Chunks.Element: Sequence, Chunks.Element.Element == UInt8 {
        input = AsyncJSONReader(chunks: chunks, options: options)
    }

    var reader: JSONReader { input.reader }

    /// The elements of the array at `path`, each decoded as `T` (see ``JSONStream/elements(of:at:onError:)``).
    public func elements<T: JSONDecodable>(
        of type: T.Type, at path: JSONKeyPath = .root, onError policy: JSONElements<T>.ErrorPolicy = .stop
    ) -> AsyncJSONElements<T> {
        let refusal: StreamUsageError? = consumed ? .secondRequest("elements(of:at:)", first: "its elements") : nil
        consumed = true
        return AsyncJSONElements(state: AsyncElementState(stream: self, path: path, policy: policy, refusal: refusal))
    }

    /// Bytes received so far.
    public var bytesRead: Int { input.bytesRead }

    /// The document without the streamed elements, reading the rest of the input first.
    public var remainder: Extractor {
        get async throws {
            if let depth = recorder.streamedArrayDepth {
                while reader.depth >= depth, try await input.next() != nil {}
                recorder.recordStreamedEnd(from: reader)
            }
            while try await input.next() != nil { recorder.record(from: reader) }
            return try recorder.finish(reading: reader)
        }
    }

    // MARK: - Navigation (the asynchronous twin of JSONStream+Navigation.swift)

    /// Moves to the array at `path`; true when the elements are the top-level values (NDJSON).
    func navigate(to path: JSONKeyPath) async throws -> Bool {
        if path.isEmpty && reader.options.allowsMultipleValues { return true }
        guard try await input.next() != nil else { return true }
        recorder.record(from: reader)
        var walked = valuePrefix(for: path)
        for component in path.components {
            guard let token = reader.currentToken else { return true }
            let parent = reader.location  // taken now: the token may be dropped before it is needed
            switch component {
            case .key(let key):
                guard token.kind == .objectStart else { throw notFound(expected: "object", walked, path) }
                while true {
                    guard let next = try await input.next() else { return true }
                    if next == .objectEnd { throw missing(component, walked, parent, path) }
                    recorder.record(from: reader)
                    if reader.textEquals(key) { break }
                    try await recordValue()
                }
            case .index(let position):
                guard token.kind == .arrayStart else { throw notFound(expected: "array", walked, path) }
                for _ in 0..<position {
                    if try await input.peek() == .arrayEnd { throw missing(component, walked, parent, path) }
                    try await recordValue()
                }
                if try await input.peek() == .arrayEnd { throw missing(component, walked, parent, path) }
            }
            walked.append(component)
            guard try await input.next() != nil else { return true }
            recorder.record(from: reader)
        }
        guard reader.currentToken?.kind == .arrayStart else { throw notFound(expected: "array", walked, path) }
        recorder.streamedArrayDepth = reader.depth
        return false
    }

    /// Finishes the current top-level value and moves to the array at `path` in the next one
    /// (see ``JSONStream/advanceToNextValue(path:container:)``).
    func advanceToNextValue(path: JSONKeyPath) async throws -> Bool {
        guard reader.options.allowsMultipleValues, !path.isEmpty else { return false }
        while reader.depth > 0 {
            guard try await input.next() != nil else { return false }
            recorder.record(from: reader)
        }
        recorder.isRecording = false
        guard try await input.peek() != nil else { return false }
        valueIndex += 1
        return try await !navigate(to: path)
    }

    /// How the paths of the current top-level value's elements start (see ``JSONStream``).
    func valuePrefix(for path: JSONKeyPath) -> [JSONKeyPath.Component] {
        reader.options.allowsMultipleValues && !path.isEmpty ? [.index(valueIndex)] : []
    }

    private func recordValue() async throws {
        var depth = 0
        repeat {
            guard let token = try await input.next() else { return }
            recorder.record(from: reader)
            depth += token.depthChange
        } while depth > 0
    }

    private func notFound(expected: String, _ walked: [JSONKeyPath.Component], _ path: JSONKeyPath) -> DecodeError {
        StreamErrors.notFound(expected: expected, at: walked, reader: reader, streaming: path)
    }

    private func missing(
        _ component: JSONKeyPath.Component, _ walked: [JSONKeyPath.Component], _ parent: SourceLocation?,
        _ path: JSONKeyPath
    ) -> DecodeError {
        StreamErrors.missing(component, in: walked, container: parent, streaming: path)
    }
}

/// The elements of an ``AsyncJSONStream``: `for try await element in stream.elements(...)`.
public struct AsyncJSONElements<Element: JSONDecodable>: AsyncSequence {
    let state: AsyncElementState<Element>

    /// The iterator; all iterators of one sequence share its position in the stream.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let state: AsyncElementState<Element>

        /// The next element, or nil after the last one.
        public mutating func next() async throws -> Element? {
            try await state.next()
        }

        /// The next element, read on `actor` (what `for try await` calls): without it, the
        /// standard library's default would read on the global executor, off the caller's actor.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> Element? {
            try await state.next()
        }
    }

    /// An iterator over the stream's elements.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(state: state) }

    /// Elements handed out or skipped so far.
    public var count: Int { state.count }
}

/// Where an ``AsyncJSONElements`` sequence is in its stream.
final class AsyncElementState<Element: JSONDecodable> {
    private let stream: AsyncJSONStream
    private let path: JSONKeyPath
    private let policy: JSONElements<Element>.ErrorPolicy
    private var started = false
    private var done = false
    /// A second request on the stream: `next()` throws this once.
    private var refusal: StreamUsageError?
    private var topLevel = false
    private(set) var count = 0
    /// The next element's index in its array (or among the top-level values).
    private var indexInArray = 0

    init(stream: AsyncJSONStream, path: JSONKeyPath, policy: JSONElements<Element>.ErrorPolicy, refusal: StreamUsageError?) {
        self.stream = stream
        self.path = path
        self.policy = policy
        self.refusal = refusal
    }

    func next() async throws -> Element? {
        if let refusal {
            self.refusal = nil
            done = true
            throw refusal
        }
        guard !done else { return nil }
        let reader = stream.reader
        do {
            if !started {
                started = true
                topLevel = try await stream.navigate(to: path)
            }
            while true {
                guard let token = try await stream.input.peek() else {
                    done = true
                    return nil
                }
                if !topLevel && token == .arrayEnd {
                    _ = try await stream.input.next()
                    stream.recorder.recordStreamedEnd(from: reader)
                    guard try await stream.advanceToNextValue(path: path) else {
                        done = true
                        return nil
                    }
                    indexInArray = 0
                    continue
                }
                let start = reader.position
                reader.pinnedFrom = start
                defer { reader.pinnedFrom = nil }
                while !reader.valueIsComplete(at: start) {
                    guard try await stream.input.fill() else { break }
                }
                try reader.readWholeValue(at: start)
                let index = indexInArray
                let basePath = JSONKeyPath(stream.valuePrefix(for: path)) + path + [.index(index)]
                let context = DecodingContext(tape: reader.tape, rootIndex: start, basePath: basePath)
                count += 1
                indexInArray += 1
                do {
                    return try Extractor(context: context, index: start).decode(as: Element.self)
                } catch let error as DecodeError {
                    guard case .skip(let report) = policy else { throw error }
                    report(JSONElements<Element>.SkippedElement(index: index, location: reader.tape.location(at: start), error: error))
                }
            }
        } catch let error as ParseError {
            done = true
            throw error.noting(count, "element", of: path)
        } catch {
            done = true
            throw error
        }
    }
}
