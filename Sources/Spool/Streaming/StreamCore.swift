import Synchronization

/// The one streaming loop behind ``JSONStream``, ``AsyncJSONStream`` and ``PushJSONStream``:
/// navigation to the container at a path, the element (or member) loop, skip-and-report, and
/// the recording of the ``JSONStream/remainder()``.
///
/// It never reads input itself. Each step either hands out the next complete element, or says
/// that it needs input (``awaitsInput``): a pull reader's shell never sees that (its reader
/// reads as it goes), an async shell awaits the next chunk, a push shell returns to its caller,
/// who appends the next chunk. Every state is resumable, so a chunk may end anywhere.
///
/// ```text
///             ┌───────── start ◀──────────────────────────────┐ (NDJSON with a path:
///             ▼                                                │  the next top-level value)
///   value at path[0..<i] ──key──▶ seek key ──found──▶ enter ──┤
///        │            ├─index──▶ seek index ─found──▶ enter ──┤
///        │            └─[*]────▶ next child ─child──▶ enter ──┘
///        │                   (end: leave the child ▲ or, outermost, finish value)
///        └─ i == path.count ──▶ streaming ──end of container──▶ finish value ──▶ done
///                                   └─ inside a [*] child ──▶ leave child ──▶ next child
/// ```
///
/// A wildcard (`objects[*].members`) crosses its array (or object) child by child, walking the
/// rest of the path in each; the children are not recorded for the remainder, which keeps the
/// crossed container empty, so memory stays bounded by one element however many children.
final class StreamCore {
    let reader: JSONReader
    let recorder = RemainderRecorder()

    /// What the stream was asked for: one request per stream.
    enum Request: Equatable {
        case elements, members, count

        /// What the request hands out, for ``UsageError``.
        var handOut: String {
            switch self {
            case .elements: return "its elements"
            case .members: return "its members"
            case .count: return "a count"
            }
        }

        /// How the request is named in ``UsageError``.
        var call: String {
            switch self {
            case .elements: return "elements(of:at:)"
            case .members: return "members(of:at:)"
            case .count: return "count(at:)"
            }
        }
    }

    private enum Phase {
        /// Before the first token of the (next) top-level value.
        case start
        /// The current token is the value at `path[..<component]`.
        case atValue(component: Int)
        /// Inside the object at `path[..<component]`, looking for the key `path[component]`.
        case seekingKey(component: Int)
        /// Inside the array at `path[..<component]`, `remaining` elements before the wanted one.
        case seekingIndex(component: Int, remaining: Int)
        /// The next token is the value at `path[...component]`.
        case entering(component: Int)
        /// Recording the next value (one beside the path) token by token, `open` of its
        /// containers still open, then going on with `then`.
        indirect case recordingValue(open: Int, then: Phase)
        /// Handing out the container's elements or members; `topLevel` for NDJSON's values.
        case streaming(topLevel: Bool)
        /// Inside the container a wildcard crosses (``crossings``' last): before its next child.
        case nextChild
        /// Inside a child of the container a wildcard crosses, after the part the path wanted:
        /// reading to the child's end.
        case leavingChild
        /// After the streamed container of an NDJSON value: reading to the value's end.
        case finishingValue
        case done

        var isDone: Bool {
            if case .done = self { return true }
            return false
        }
    }

    private var request: Request?
    private var path = JSONKeyPath.root
    private var phase = Phase.start
    /// Where the container being searched starts, for a missing key's location (its token may
    /// be gone from the tape once the key is known to be missing).
    private var containerLocation: SourceLocation?
    /// A key of the object being searched near the one the path wants, for a missing key's
    /// "did you mean" (``KeySuggestion``).
    private var nearKey: String?
    /// A container a ``JSONKeyPath/Component/wildcard`` crosses.
    private struct Crossing {
        /// The wildcard's position in the path.
        let component: Int
        /// The reader's depth inside the container.
        let depth: Int
        let isObject: Bool
        /// The child being walked, as a concrete component (its index or key).
        var child: JSONKeyPath.Component = .wildcard
        var nextIndex = 0
    }
    /// The containers the path's wildcards are crossing, outermost first.
    @exclusivity(unchecked) private var crossings: [Crossing] = []
    /// The path of the container being streamed, from the document root: the request's path
    /// with the value's index in front (NDJSON) and each wildcard's current child in its place.
    @exclusivity(unchecked) private var streamedPath = JSONKeyPath.root
    /// The top-level value being streamed, counted from 0 (more than one with NDJSON).
    private var valueIndex = 0
    /// The next element's index in its array (or among the top-level values).
    private var indexInContainer = 0
    /// Elements (or members) handed out or skipped so far, over every top-level value.
    private(set) var count = 0
    /// The most elements ``next(decode:skipping:)`` reads (``JSONElements/countLimit``): at
    /// that count it ends without reading on; nil for no limit.
    var countLimit: Int?

    /// Whether the request, at the end of its container, throws a parse error the reader
    /// already holds for the input after it (``JSONReader/knownFailure``) rather than ending:
    /// ``PushJSONStream``'s contract. The other shells leave the input after the container to
    /// `finish()` and the remainder, so that their element loops do not depend on how far
    /// parsing has run ahead.
    let endsWithKnownFailure: Bool
    /// Whether calls are kept from overlapping (``exclusive(_:_:)``): a push stream's, which
    /// its caller makes from callbacks, where a call from another thread or from inside a call
    /// is an easy mistake (two threads appending at once failed an assertion inside yajl).
    let guardsUse: Bool
    /// Whether a guarded call is running.
    private let inUse = Atomic<Bool>(false)

    /// For a stream resumed at an element (``JSONStream/init(_:options:resumingAt:element:)``):
    /// the path of the array the element is in, and its index there. The reader's input is that
    /// array from the element on.
    private let resumed: (container: JSONKeyPath, index: Int)?
    /// Whether the container resumed in is an object: the stream's one request is its members.
    private let resumedInObject: Bool
    /// Why every request is refused (a resume point that cannot be one).
    private let refusal: UsageError?

    /// A core over `reader`; `pushed` for a ``PushJSONStream`` (see ``endsWithKnownFailure``
    /// and ``guardsUse``).
    init(reader: JSONReader, pushed: Bool = false) {
        self.reader = reader
        endsWithKnownFailure = pushed
        guardsUse = pushed
        resumed = nil
        resumedInObject = false
        refusal = nil
    }

    /// A core over a reader resumed at the element at index `index` of the array at
    /// `container` (`inObject`: at member `index` of the object there); or, with `refusal`,
    /// one that refuses every request.
    init(reader: JSONReader, resumedIn container: JSONKeyPath, at index: Int, inObject: Bool = false, refusal: UsageError?) {
        self.reader = reader
        endsWithKnownFailure = false
        guardsUse = false
        resumed = (container, index)
        resumedInObject = inObject
        self.refusal = refusal
        recorder.isRecording = false
    }

    /// Runs `body` as the one call on the stream in progress (for a stream that
    /// ``guardsUse``): two atomic operations, no lock.
    /// - Throws: ``UsageError`` when another call is running, on another thread or
    ///   further up this one (from a callback); else what `body` throws.
    @inline(__always)
    func exclusive<Result>(_ call: @autoclosure () -> String, _ body: () throws -> Result) throws -> Result {
        guard guardsUse else { return try body() }
        guard inUse.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
            throw UsageError.overlappingCall(call())
        }
        defer { inUse.store(false, ordering: .releasing) }
        return try body()
    }

    // MARK: - Requests

    /// Takes the stream's one request. A second one is refused: the error returned is for the
    /// refused request's sequence to throw from its first step.
    func begin(_ request: Request, at path: JSONKeyPath) -> UsageError? {
        do {
            return try exclusive(request.call) { () -> UsageError? in
                if let first = self.request { return .secondRequest(request.call, first: first.handOut) }
                if let refusal = self.refusal { return refusal }
                if let resumed = self.resumed {
                    if (request == .members) != self.resumedInObject {
                        return .resumed(request == .members ? "members(of:at:)" : "a request other than members(of:at:)", in: resumed.container)
                    }
                    if path != resumed.container { return .resumed("a request at \(path)", in: resumed.container) }
                }
                self.request = request
                self.path = path
                self.streamedPath = path
                return nil
            }
        } catch {
            return error as? UsageError
        }
    }

    /// Whether the request has handed out everything (or failed).
    var isFinished: Bool { phase.isDone }

    private var multipleValues: Bool { reader.options.allowsMultipleValues }

    /// The container the request streams: an array for elements, an object for members,
    /// either for a count.
    private var container: RawToken.Kind? {
        switch request {
        case .elements: return .arrayStart
        case .members: return .objectStart
        default: return nil
        }
    }

    // MARK: - Stepping

    /// Whether the last ``next(decode:skipping:)`` or ``countStep()`` returned nil because the
    /// next element needs input that has not arrived yet (a push or async stream), not because
    /// the elements ended.
    private(set) var awaitsInput = false

    /// The next element, decoded by `decode` from its first token's index, or nil: the elements
    /// ended, or the next one needs input that has not arrived (``awaitsInput``). Skipped
    /// elements go to `skip` (which returns true to go on, false to throw).
    ///
    /// (A plain optional, not an enum of the three outcomes: an enum generic over `Value` has
    /// its metadata looked up in every caller not specialized for `Value`, once per element,
    /// about 330 instructions and two atomic writes to the runtime's shared metadata cache,
    /// where the parallel engine's workers wait on each other.)
    func next<Value>(
        decode: (_ start: Int, _ path: ElementPath) throws -> Value,
        skipping skip: (_ index: Int, _ start: Int, _ error: any Error) -> Bool
    ) throws -> Value? {
        awaitsInput = false
        do {
            while true {
                if let countLimit, count >= countLimit { return nil }
                guard case .available(let start, let component) = try advance() else {
                    awaitsInput = !phase.isDone
                    return nil
                }
                reader.pinnedFrom = start
                defer { reader.pinnedFrom = nil }
                try reader.readWholeValue(at: start)
                let index = indexInContainer
                let elementPath = ElementPath(container: streamedPath, last: component)
                count += 1
                indexInContainer += 1
                do {
                    return try decode(start, elementPath)
                } catch let error where error is DecodeError || error is DecodingError {
                    guard case .index = component, skip(index, start, error) else { throw error }
                }
            }
        } catch let error as ParseError {
            throw ended(by: error)
        } catch {
            phase = .done
            throw error
        }
    }

    /// Decodes the element whose first token is at `start` on the tape as `Value`, with `path`
    /// from the document root.
    func decoder<Value: JSONDecodable>(_ type: Value.Type) -> (_ start: Int, _ path: ElementPath) throws -> Value {
        { [reader] start, path in
            let context = DecodingContext(tape: reader.tape, rootIndex: start, element: path)
            return try Extractor(context: context, index: start).decode(as: Value.self)
        }
    }

    /// Decodes the element whose first token is at `start` as the `Decodable` `Value`, in
    /// `session` (with its decoder's strategies) and with a coding path from the document root.
    func decoder<Value: Decodable>(
        _ type: Value.Type, in session: DecodingSession
    ) -> (_ start: Int, _ path: ElementPath) throws -> Value {
        { [reader] start, path in
            let context = DecodingContext(tape: reader.tape, rootIndex: start, element: path)
            return try session.decode { try TapeDecoder(context: context, session: session).unwrap(type) }
        }
    }

    /// Counts the remaining elements (or members), skipping each one whole: the count, or nil
    /// while the input that follows has not arrived (``awaitsInput``).
    func countStep() throws -> Int? {
        awaitsInput = false
        do {
            while case .available = try advance() {
                try reader.skipValue()  // an element, or a key and its value; O(1) once whole
                count += 1
                indexInContainer += 1
            }
            awaitsInput = !phase.isDone
            return phase.isDone ? count : nil
        } catch let error as ParseError {
            throw ended(by: error)
        } catch {
            phase = .done
            throw error
        }
    }

    /// Ends the request without an error of its own (its task was cancelled): no more steps.
    func end() {
        phase = .done
    }

    /// `error` ends the request: it says how many elements (or members) were handed out
    /// before it.
    func ended(by error: ParseError) -> ParseError {
        // Before any request (a push stream's input failed first), nothing has ended: the
        // request asked for later meets the error again, with its note.
        guard let request else { return error }
        phase = .done
        let noun = request == .members ? "member" : request == .count && path.isEmpty && multipleValues ? "value" : "element"
        // (Resumed: counted from the array's start, as a stream from the input's start counts.)
        return error.noting(count + (resumed?.index ?? 0), noun, of: path)
    }

    /// Where ``advance()`` stopped.
    private enum Advance {
        /// The next element is wholly on the tape from `start`; `component` is its index or key.
        case available(start: Int, component: JSONKeyPath.Component)
        /// More input is needed, or (with the phase done) the elements have ended.
        case stopped
    }

    /// Moves to the next element whose tokens are all on the tape (a member's key has been
    /// read), or stops for input or at the end.
    private func advance() throws -> Advance {
        while true {
            switch phase {
            case .done:
                return .stopped
            case .start:
                if path.isEmpty && multipleValues && request != .members {
                    // (Resumed at a top-level value: counted from there.)
                    if let resumed { indexInContainer = resumed.index }
                    phase = .streaming(topLevel: true)
                    continue
                }
                guard try reader.next() != nil else { return try stopAtEndOr(.stopped) }
                recorder.record(from: reader)
                phase = .atValue(component: 0)
            case .atValue(let component):
                containerLocation = reader.location
                let kind = reader.currentToken?.kind
                if let resumed, component == 0 {
                    // The array that opens just before the element resumed at.
                    streamedPath = resumed.container
                    indexInContainer = resumed.index
                    phase = .streaming(topLevel: false)
                    continue
                }
                guard component < path.components.count else {
                    let matches = container.map { kind == $0 } ?? (kind == .arrayStart || kind == .objectStart)
                    guard matches else {
                        let expected = container == .arrayStart ? "array" : container == .objectStart ? "object" : "array or object"
                        throw mismatch(expected: expected, walkedCount: component)
                    }
                    if crossings.isEmpty { recorder.streamedArrayDepth = reader.depth }
                    streamedPath = JSONKeyPath(walked(component))
                    indexInContainer = 0
                    phase = .streaming(topLevel: false)
                    continue
                }
                switch path.components[component] {
                case .wildcard:
                    guard kind == .arrayStart || kind == .objectStart else {
                        throw mismatch(expected: "array or object", walkedCount: component)
                    }
                    // The children are not recorded: the remainder keeps the container empty.
                    if crossings.isEmpty { recorder.streamedArrayDepth = reader.depth }
                    crossings.append(Crossing(component: component, depth: reader.depth, isObject: kind == .objectStart))
                    phase = .nextChild
                case .key:
                    guard kind == .objectStart else { throw mismatch(expected: "object", walkedCount: component) }
                    nearKey = nil
                    phase = .seekingKey(component: component)
                case .index(let position):
                    guard kind == .arrayStart else { throw mismatch(expected: "array", walkedCount: component) }
                    phase = .seekingIndex(component: component, remaining: position)
                }
            case .seekingKey(let component):
                guard let token = try reader.peek() else { return try stopAtEndOr(.stopped) }
                if token == .objectEnd { throw missing(component) }
                _ = try reader.next()
                recorder.record(from: reader)
                guard case .key(let key) = path.components[component], reader.textEquals(key) else {
                    if nearKey == nil, case .key(let key) = path.components[component] {
                        nearKey = KeySuggestion.suggestion(from: reader, for: key)
                    }
                    phase = .recordingValue(open: 0, then: .seekingKey(component: component))
                    continue
                }
                phase = .entering(component: component)
            case .seekingIndex(let component, let remaining):
                guard let token = try reader.peek() else { return try stopAtEndOr(.stopped) }
                if token == .arrayEnd { throw missing(component) }
                phase = remaining == 0
                    ? .entering(component: component)
                    : .recordingValue(open: 0, then: .seekingIndex(component: component, remaining: remaining - 1))
            case .entering(let component):
                guard try reader.next() != nil else { return try stopAtEndOr(.stopped) }
                recorder.record(from: reader)
                phase = .atValue(component: component + 1)
            case .recordingValue(let open, let then):
                guard let token = try reader.next() else { return try stopAtEndOr(.stopped) }
                recorder.record(from: reader)
                let stillOpen = open + token.depthChange
                phase = stillOpen > 0 ? .recordingValue(open: stillOpen, then: then) : then
            case .streaming(let topLevel):
                guard let token = try reader.peek() else { return try stopAtEndOr(.stopped) }
                if !topLevel && (token == .arrayEnd || token == .objectEnd) {
                    _ = try reader.next()
                    try containerEnded()
                    continue
                }
                let isMember = !topLevel && token == .key
                if request == .count && !reader.isIncremental {
                    // Counting from a pull reader: the count skips the value as it reads.
                    return .available(start: reader.position, component: .index(indexInContainer))
                }
                // The value (a member's, after its key) wholly on the tape first.
                let valueStart = isMember ? reader.position + 1 : reader.position
                guard try completeValue(at: valueStart) != nil else { return try stopAtEndOr(.stopped) }
                if isMember && request != .count {
                    _ = try reader.next()
                    return .available(start: reader.position, component: .key(reader.text ?? ""))
                }
                return .available(start: reader.position, component: .index(indexInContainer))
            case .nextChild:
                guard let token = try reader.peek() else { return try stopAtEndOr(.stopped) }
                let last = crossings.count - 1
                if token == .arrayEnd || token == .objectEnd {
                    _ = try reader.next()
                    crossings.removeLast()
                    try containerEnded()
                    continue
                }
                if crossings[last].isObject {
                    _ = try reader.next()  // the member's key
                    crossings[last].child = .key(reader.text ?? "")
                } else {
                    crossings[last].child = .index(crossings[last].nextIndex)
                }
                crossings[last].nextIndex += 1
                phase = .entering(component: crossings[last].component)
            case .leavingChild:
                let depth = crossings[crossings.count - 1].depth
                while reader.depth > depth {
                    guard try reader.next() != nil else { return try stopAtEndOr(.stopped) }
                }
                phase = .nextChild
            case .finishingValue:
                while reader.depth > 0 {
                    guard try reader.next() != nil else { return try stopAtEndOr(.stopped) }
                    recorder.record(from: reader)
                }
                recorder.isRecording = false
                guard try reader.peek() != nil else { return try stopAtEndOr(.stopped) }
                valueIndex += 1
                phase = .start
            }
        }
    }

    /// After the end token of the streamed container, or of one a wildcard crossed: back to
    /// the child of the wildcard around it, or on to the request's end.
    private func containerEnded() throws {
        if !crossings.isEmpty {
            phase = .leavingChild
            return
        }
        recorder.recordStreamedEnd(from: reader)
        // (NDJSON: the next value's container, at the same path.)
        phase = multipleValues ? .finishingValue : .done
        // Pushed input already known to be invalid after the container: the request ends with
        // that error, not normally (the tokens before it are never read here, so the reader
        // would not throw it).
        if phase.isDone && endsWithKnownFailure, let failure = reader.knownFailure { throw failure }
    }

    /// The last index of the value starting at tape index `index`, once it is wholly on the
    /// tape; nil while input is missing (a pull reader reads until it is there).
    private func completeValue(at index: Int) throws -> Int? {
        try reader.readToEnd(ofValueAt: index)
    }

    /// `result`, after noting the end when the reader has no more input coming.
    private func stopAtEndOr(_ result: Advance) throws -> Advance {
        if reader.isAtEnd { phase = .done }
        return result
    }

    // MARK: - Paths and errors

    /// How the paths of the current top-level value's elements start: `[v]`, the value's
    /// index, with several top-level values and a container below them (a non-empty path, or
    /// the members of each value); nothing otherwise.
    private var valuePrefix: [JSONKeyPath.Component] {
        multipleValues && (!path.isEmpty || request == .members) ? [.index(valueIndex)] : []
    }

    /// The first `count` components of the path, concrete: the value's index in front
    /// (NDJSON) and each wildcard crossed replaced by its current child's index or key.
    private func walked(_ count: Int) -> [JSONKeyPath.Component] {
        let prefix = valuePrefix
        var components = prefix + path.components.prefix(count)
        for crossing in crossings where crossing.component < count {
            components[prefix.count + crossing.component] = crossing.child
        }
        return components
    }

    private func mismatch(expected: String, walkedCount: Int) -> DecodeError {
        var error = StreamErrors.notFound(expected: expected, at: walked(walkedCount), reader: reader, streaming: path)
        // `objects.0.name` meets an array where it wanted the object with key "0".
        if walkedCount < path.components.count, case .key(let key) = path.components[walkedCount],
            reader.currentToken?.kind == .arrayStart, key.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let index = Int(key)
        {
            let fixed = JSONKeyPath(walked(walkedCount) + [.index(index)] + path.components[(walkedCount + 1)...])
            error.message += "; for an element, write \(fixed) (an index goes in brackets)"
        }
        return error
    }

    private func missing(_ component: Int) -> DecodeError {
        StreamErrors.missing(
            path.components[component], in: walked(component), container: containerLocation, streaming: path, nearKey: nearKey)
    }

    // MARK: - The rest of the input

    /// Reads the rest of the input, passing over elements not handed out and recording the
    /// rest for the remainder; false while input is missing.
    func readRest() throws -> Bool {
        if let depth = recorder.streamedArrayDepth {
            while reader.depth >= depth {
                guard try reader.next() != nil else { return reader.isAtEnd }
            }
            recorder.recordStreamedEnd(from: reader)
        }
        while try reader.next() != nil { recorder.record(from: reader) }
        return reader.isAtEnd
    }

    /// The recorded document (the first top-level value without the streamed elements).
    func remainder() throws -> Extractor {
        if let resumed { throw UsageError.resumed("remainder()", in: resumed.container) }
        return try recorder.finish()
    }
}
