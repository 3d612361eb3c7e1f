/// A ``JSONStream``'s elements request that ``ParallelJSONElements`` hands out
/// (``JSONStream/elements(of:at:onError:parallelism:)`` with more than one worker): the engine,
/// and what the stream needs from the run for ``JSONStream/finish()`` and
/// ``JSONStream/remainder()`` (``ParallelRest``).
final class ParallelRequest<Value> {
    /// The engine; its threads stop when this request goes (the sequence is dropped). Internal
    /// for tests.
    let engine: ParallelJSONElements<Value>
    /// What the stream reads the rest of the input with.
    private let rest: ParallelRest

    /// The engine for `streams`, on `workers` threads in batches of about `batchBytes`,
    /// reporting to `rest`; skipped elements go to `report` (with `.skip`).
    init(_ streams: ElementStreams<Value>, workers: Int, batchBytes: Int, rest: ParallelRest, report: ((SkippedElement) -> Void)?) {
        engine = ParallelJSONElements(streams, workers: workers, batchBytes: batchBytes, report: report)
        self.rest = rest
        engine.onBatchTaken = { [rest] batch in rest.handedOut(through: batch.nextStart) }
    }

    /// Elements handed out so far (and the one an error was thrown for, as the serial stream
    /// counts it).
    var count: Int { engine.countedElements }

    /// Whether the last element has been handed out, or an error has ended the sequence.
    var isFinished: Bool { engine.isFinished }

    /// Whether an error has ended the elements.
    private var failed = false

    /// The next element in document order; nil after the last one.
    /// - Throws: what the serial stream throws at this element.
    func next() throws -> Value? {
        // (The engine's answer is returned as it is, not bound and looked at: in code generic
        // over `Value`, an optional held here has its metadata looked up on every element,
        // with two atomic writes to the runtime's cache, which the workers use too. What it
        // was is told by the engine's state afterwards, in `noteStep()`.)
        defer { noteStep() }
        do {
            return try engine.next()
        } catch {
            failed = true
            rest.handedOutCount = engine.countedElements
            throw error
        }
    }

    /// After a step that threw nothing: an element was handed out while the engine is not
    /// finished; once it is, the elements have ended.
    private func noteStep() {
        guard !failed else { return }
        if engine.isFinished {
            rest.elementsEnded(arrayEnd: engine.arrayEnd)
        } else {
            rest.handedOutCount = engine.countedElements
        }
    }

    /// Whether the elements of the array at `path` of `input` are decoded in parallel with
    /// `options` (as far as can be told before the input is opened: a file must also be a
    /// regular file): a file, a file URL or bytes in memory (not a descriptor, which cannot be
    /// read at several places at once), JSON without comments, a path without a wildcard; with
    /// several top-level values (NDJSON), the values themselves (the empty path).
    static func isPossible(input: JSONInput, at path: JSONKeyPath, members: Bool = false, options: JSONParsingOptions) -> Bool {
        guard !path.hasWildcard, !(members && options.allowsMultipleValues) else { return false }
        switch input.source {
        case .descriptor: return false
        case .file, .url, .bytes, .data, .string: break
        }
        return BatchCutter(path: path, members: members, options: options, batchBytes: 1) != nil
    }
}

/// The rest of the input of a ``JSONStream`` whose elements ``ParallelJSONElements`` handed
/// out, read by ``JSONStream/finish()`` and ``JSONStream/remainder()`` as the serial stream
/// would read it from where its elements ended, but without parsing the array again when it
/// can.
///
/// **NDJSON.** Once every top-level value has been handed out, the input has been read to its
/// end: nothing is read again, and the remainder is the serial stream's (none).
///
/// **Quickly.** Once every element has been handed out, the `]` that closes the array is
/// known (``elementsEnded(arrayEnd:)``): a stream from the document's start reads up to the array's
/// first element (recording what comes before it for the remainder), then a reader resumed at
/// the `]` (``ResumePoint/init(arrayEndAt:inside:closesObject:)``) reads the rest, every token where it is
/// in the input. The array's elements are not read again.
///
/// **Serially.** Anything else (the elements stopped early or on an error, a `]` whose line
/// leaves no room for the containers' prefix, any error on the quick way, even one the serial
/// stream would give too) has the stream's own core read the whole input as the serial
/// stream does: its elements passed over undecoded, then the rest. It gives the serial
/// stream's values and errors, whatever happened on the quick way.
final class ParallelRest {
    /// The stream's core: the serial way, untouched until then.
    private let core: StreamCore
    private let input: JSONInput
    private let path: JSONKeyPath
    /// The caller's options.
    private let options: JSONParsingOptions
    /// Whether the members of the object at ``path`` were handed out, not the elements of an
    /// array.
    private let members: Bool

    /// Where the array's `]` is, once every element has been handed out.
    private var arrayEnd: SourceLocation?
    /// With several top-level values (NDJSON): whether every value has been handed out, so
    /// the input has been read to its end.
    private var valuesEnded = false
    /// Bytes of input whose elements have been handed out (or read by the rest): the stream's
    /// ``JSONStream/bytesRead``.
    private(set) var bytesRead = 0
    /// The elements handed out, and the one an error was thrown for: where the serial
    /// stream's request stopped, which the serial way passes over before reading the rest.
    var handedOutCount = 0

    /// How the rest was read, once it was.
    private enum State {
        /// Not yet.
        case unread
        /// The quick way: this core holds the remainder.
        case read(StreamCore)
        /// The serial way, on the stream's core (which reads the rest again on each call).
        case serial
    }
    private var state = State.unread

    /// Whether the rest was read the quick way (for tests).
    var wasReadQuickly: Bool {
        if case .read = state { return true }
        return false
    }

    /// The rest of `input` after the array at `path` (`members`: the object) of the stream
    /// whose core is `core`.
    init(core: StreamCore, input: JSONInput, path: JSONKeyPath, members: Bool = false, options: JSONParsingOptions) {
        self.core = core
        self.input = input
        self.path = path
        self.members = members
        self.options = options
    }

    /// Notes that the elements before `offset` have been handed out (nil: the batch's end is
    /// not known), and tells the stream's progress hook.
    func handedOut(through offset: Int?) {
        guard let offset, offset > bytesRead else { return }
        bytesRead = offset
        core.reader.onProgress?(offset)
    }

    /// Notes that every element has been handed out without an error: the array's `]` is at
    /// `arrayEnd` (when its stream saw it); for NDJSON, the input has ended.
    func elementsEnded(arrayEnd: SourceLocation?) {
        if options.allowsMultipleValues {
            valuesEnded = true
            if let total = core.reader.totalBytes { handedOut(through: total) }
        } else if let arrayEnd {
            self.arrayEnd = arrayEnd
            handedOut(through: arrayEnd.byteOffset + 1)
        }
    }

    /// Reads the rest of the input, checking that it is valid JSON and recording the
    /// remainder (``StreamCore/readRest()``).
    func readRest() throws {
        switch state {
        case .read:
            return
        case .serial:
            _ = try core.readRest()
        case .unread:
            if valuesEnded {
                // Nothing is left to read, and the serial stream records nothing of the values.
                state = .read(core)
                return
            }
            if let arrayEnd, let read = quickly(after: arrayEnd) {
                state = .read(read)
                if let total = core.reader.totalBytes { handedOut(through: total) }
                return
            }
            state = .serial
            passElements()
            _ = try core.readRest()
        }
    }

    /// The recorded document without the array's elements (``StreamCore/remainder()``).
    func remainder() throws -> Extractor {
        try readRest()
        if case .read(let read) = state { return try read.remainder() }
        return try core.remainder()
    }

    /// The stream's core passes over the elements its serial request would have handed out
    /// (``handedOutCount``), or to the first error (which the elements threw already, and the
    /// rest throws again if it is about the input): it stops where the serial request stopped,
    /// so the rest reads and records what the serial stream's rest does (for NDJSON, the values
    /// after that one).
    private func passElements() {
        var passed = 0
        do {
            while passed < handedOutCount, try core.next(decode: { _, _ in }, skipping: { _, _, _ in false }) != nil {
                passed += 1
            }
        } catch {
            // (The request ended here, as the serial one did.)
        }
    }

    /// Thrown to stop a stream at the array's first element.
    private struct EnteredArray: Error {}

    /// The rest read the quick way: a core that has recorded the document up to the array's
    /// first element and, from a reader resumed at `end`, the array's end and the rest; nil on
    /// any error, or when the array cannot be resumed at its end.
    private func quickly(after end: SourceLocation) -> StreamCore? {
        var containers: [Bool] = []
        for component in path.components {
            switch component {
            case .key: containers.append(true)
            case .index: containers.append(false)
            case .wildcard: return nil
            }
        }
        guard let point = ResumePoint(arrayEndAt: end, inside: containers, closesObject: members) else { return nil }
        var direct = options
        direct.parsesInBackground = false
        let head = StreamCore(reader: JSONReader(input, options: direct, work: .models))
        guard head.begin(members ? .members : .elements, at: path) == nil else { return nil }
        do {
            // To the first element: what comes before the array is recorded.
            let step: Void? = try head.next(decode: { _, _ in throw EnteredArray() }, skipping: { _, _, _ in false })
            guard step == nil, !head.awaitsInput else { return nil }
            // An empty array: the stream has read its `]` already.
            _ = try head.readRest()
            return head
        } catch is EnteredArray {
        } catch {
            return nil
        }
        do {
            let tail = JSONReader(input, options: options, resumingAt: point, afterArrayAt: path)
            // The prefix's tokens: each container's opening (and an object's key), the array's.
            for _ in 0..<(containers.count(where: { $0 }) + containers.count + 1) {
                guard try tail.next() != nil else { return nil }
            }
            guard try tail.next() == (members ? .objectEnd : .arrayEnd), tail.location == end else { return nil }
            head.recorder.recordStreamedEnd(from: tail)
            while try tail.next() != nil { head.recorder.record(from: tail) }
            head.end()
            return head
        } catch {
            return nil
        }
    }
}
