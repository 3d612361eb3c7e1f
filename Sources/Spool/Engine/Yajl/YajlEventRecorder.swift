internal import CYajl

/// One yajl callback as an event: the one format in which yajl's callbacks reach the
/// ``TapeWriter``, at once on the thread that runs yajl, or logged for another thread.
struct YajlEvent {
    enum Kind: UInt8 {
        case null, `true`, `false`, number, string, key, startMap, endMap, startArray, endArray
    }

    var kind: Kind
    /// Whether the text lies verbatim in the call's buffer (at `text`), rather than somewhere
    /// else (yajl decoded it, or it spanned calls): then it had no escapes.
    var inChunk: Bool
    /// Offset of a number's, string's or key's text in the call's buffer, or (text not in the
    /// buffer, logged) in the log's side bytes.
    var text: Int
    var count: Int
    /// `yajl_get_bytes_consumed` during the callback, where the text alone cannot place the
    /// token (containers, literals, text outside the buffer); else 0.
    var consumed: Int
}

/// What one call to yajl did, for a consumer on another thread: the bytes it was given, the
/// events it produced (a range of the log's), and how it ended.
struct YajlCall {
    /// The absolute range given to yajl; `end` is where a form feed or vertical tab stopped it.
    var start: Int
    var end: Int
    /// Where the call was cut short by a form feed or vertical tab (see `Tokenizer.parseAvailable`).
    var badWhitespace: Int?
    /// True for `yajl_complete_parse` (then `start` and `end` are unused).
    var isCompletion: Bool
    var events: Range<Int>
    var status: YajlStatus
}

/// Everything logged for one shipment: calls, their events, and the text yajl handed from
/// its own buffers (decoded escapes, tokens split across calls), which it reuses at once.
final class YajlEventLog {
    private(set) var events: UnsafeMutablePointer<YajlEvent>
    private(set) var count = 0
    private var capacity: Int
    private(set) var side: [UInt8] = []
    var calls: [YajlCall] = []

    init(capacity: Int = 8192) {
        self.capacity = capacity
        events = .allocate(capacity: capacity)
    }

    deinit { events.deallocate() }

    /// Forgets everything, keeping the storage.
    func reset() {
        count = 0
        side.removeAll(keepingCapacity: true)
        calls.removeAll(keepingCapacity: true)
    }

    @inline(__always)
    func append(_ event: YajlEvent) {
        if count == capacity { grow() }
        (events + count).initialize(to: event)
        count &+= 1
    }

    @inline(never)
    private func grow() {
        let fresh = UnsafeMutablePointer<YajlEvent>.allocate(capacity: capacity * 2)
        fresh.moveInitialize(from: events, count: count)
        events.deallocate()
        events = fresh
        capacity *= 2
    }

    /// Copies text to the side bytes; returns its offset there.
    @inline(never)
    func appendSide(_ bytes: UnsafeRawPointer?, count: Int) -> Int {
        let offset = side.count
        if let bytes, count > 0 {
            side.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: count))
        }
        return offset
    }
}

/// A yajl handle whose callbacks turn each callback into a ``YajlEvent``: the one way Spool
/// drives yajl for tokens.
///
/// The event goes to one of two places, fixed at construction:
/// - a ``TapeWriter`` on the same thread, which consumes it inside the callback (returning 0,
///   which cancels the parse, when the writer has stored an error), with its recording or its
///   lean validating handlers: parsing on one thread;
/// - a ``YajlEventLog``, for a writer on another thread to consume later
///   (``BackgroundPipeline``): the parsing thread then does little more than yajl itself.
///
/// The trampolines are non-capturing closures that recover the state behind yajl's context
/// pointer; numbers go through the raw `yajl_number` callback so they keep their exact text
/// (yajl's own integer conversion rejects 2^64 and has signed-overflow UB).
///
/// The files of this folder (this one, ``YajlHandle`` and ``YajlSyntaxCheck`` for validation's
/// shortcut) are the only ones that import CYajl; no yajl type leaves them. yajl's messages
/// are read in one place too, ``YajlError``.
final class YajlEventRecorder {
    /// What the callbacks see; yajl's context pointer points here.
    final class State {
        /// The writer that consumes events at once, or nil to log them. Not retained: the
        /// writer's tokenizer holds both it and this recorder.
        fileprivate let liveWriter: Unmanaged<TapeWriter>?
        /// Whether events go to the log (there is no live writer).
        fileprivate let logs: Bool
        /// For the current call: `liveWriter` while it records values, else nil.
        fileprivate var recordingWriter: Unmanaged<TapeWriter>?
        /// For the current call: `liveWriter` while it validates, else nil.
        fileprivate var validatingWriter: Unmanaged<TapeWriter>?
        /// Where logged events go: the batch being filled. Not retained, because the callbacks
        /// would otherwise retain and release it on every event; whoever sets it keeps it alive
        /// (the batches live as long as their ``BackgroundPipeline``), see ``log``.
        private var target: Unmanaged<YajlEventLog>
        private var targetOwner: YajlEventLog

        init(writer: TapeWriter?) {
            liveWriter = writer.map { Unmanaged.passUnretained($0) }
            logs = writer == nil
            targetOwner = YajlEventLog(capacity: 16)
            target = Unmanaged.passUnretained(targetOwner)
        }

        /// The log events go to; setting it keeps the new log alive while it is the target.
        var log: YajlEventLog {
            get { targetOwner }
            set {
                targetOwner = newValue
                target = Unmanaged.passUnretained(newValue)
            }
        }

        /// Calls `body` with the target log, without retaining it.
        @inline(__always)
        fileprivate func withLog<Result>(_ body: (YajlEventLog) -> Result) -> Result {
            target._withUnsafeGuaranteedRef(body)
        }

        /// The current call's buffer (its length 0 when comments are allowed, so that the
        /// writer finds every token's start by scanning, as ``TapeWriter/beginChunk(from:to:)``).
        fileprivate var chunkPointer = UnsafeRawPointer(bitPattern: 1).unsafelyUnwrapped
        fileprivate var chunkLength = 0
        fileprivate var chunkBase = 0
        /// Absolute end of the last token a logged event reported, or -1 (for holding input back).
        var lastEventEnd = -1
        fileprivate var handle: yajl_handle?
        fileprivate var finishing = false

        /// Reads, once per call, whether the live writer records values or validates: the
        /// callbacks then pick its handlers without asking it on every event.
        fileprivate func takeWritersMode() {
            guard let liveWriter else { return }
            let records = liveWriter._withUnsafeGuaranteedRef { !$0.usesLeanHandlers }
            recordingWriter = records ? liveWriter : nil
            validatingWriter = records ? nil : liveWriter
        }
    }

    let state: State
    private let allowsComments: Bool
    private let yajl: YajlHandle
    private var handle: yajl_handle? { yajl.handle }

    /// A recorder whose events `writer` consumes at once, or (nil) that logs them to
    /// ``State/log``.
    init(options: JSONParsingOptions, writer: TapeWriter?) {
        allowsComments = options.allowsComments
        state = State(writer: writer)
        yajl = YajlHandle(
            callbacks: YajlEventRecorder.makeCallbacks(), context: Unmanaged.passUnretained(state).toOpaque(),
            options: options)
        state.handle = yajl.handle
    }

    /// Gives yajl `count` bytes at `bytes`, which start at absolute offset `base`.
    func parse(_ bytes: UnsafePointer<UInt8>, count: Int, base: Int) -> YajlStatus {
        guard count > 0 else { return .ok }
        guard let handle else { return .noParser }
        state.chunkPointer = UnsafeRawPointer(bytes)
        state.chunkLength = allowsComments ? 0 : count
        state.chunkBase = base
        state.takeWritersMode()
        defer { state.chunkLength = 0 }
        return yajl.status(yajl_parse(handle, bytes, count))
    }

    /// Ends the input: yajl reports a trailing number, or truncation.
    func complete() -> YajlStatus {
        guard let handle else { return .noParser }
        state.finishing = true
        state.takeWritersMode()
        defer { state.finishing = false }
        return yajl.status(yajl_complete_parse(handle))
    }

    private static func makeCallbacks() -> yajl_callbacks {
        var callbacks = yajl_callbacks()
        callbacks.yajl_null = { context in
            guard let context else { return 0 }
            return withState(context) { place(.null, $0) } ? 1 : 0
        }
        callbacks.yajl_boolean = { context, value in
            guard let context else { return 0 }
            return withState(context) { place(value != 0 ? .true : .false, $0) } ? 1 : 0
        }
        callbacks.yajl_number = { context, bytes, count in
            guard let context else { return 0 }
            return withState(context) { text(.number, UnsafeRawPointer(bytes), count, quoted: 0, $0) } ? 1 : 0
        }
        callbacks.yajl_string = { context, bytes, count in
            guard let context else { return 0 }
            return withState(context) { text(.string, UnsafeRawPointer(bytes), count, quoted: 1, $0) } ? 1 : 0
        }
        callbacks.yajl_map_key = { context, bytes, count in
            guard let context else { return 0 }
            return withState(context) { text(.key, UnsafeRawPointer(bytes), count, quoted: 1, $0) } ? 1 : 0
        }
        callbacks.yajl_start_map = { context in
            guard let context else { return 0 }
            return withState(context) { place(.startMap, $0) } ? 1 : 0
        }
        callbacks.yajl_end_map = { context in
            guard let context else { return 0 }
            return withState(context) { place(.endMap, $0) } ? 1 : 0
        }
        callbacks.yajl_start_array = { context in
            guard let context else { return 0 }
            return withState(context) { place(.startArray, $0) } ? 1 : 0
        }
        callbacks.yajl_end_array = { context in
            guard let context else { return 0 }
            return withState(context) { place(.endArray, $0) } ? 1 : 0
        }
        return callbacks
    }
}

// Each callback serves three consumers, all inlined into it: the log first (on a background
// thread that does little more than yajl, its few instructions matter most), then the writer's
// recording handlers, then its lean validating ones. Callgrind, 10 MB catalog, against the
// separate tables this one replaced (live recording, lean validating, logging): the cursor
// +0.6 % instructions on one thread and in the background, JSONStream +0.4 %, validating
// standard input +3.9 %. Calling the log or the lean handlers out of line, or putting the
// recording handlers first, cost more (up to +11 %) on some path.

/// A container or literal: placed by yajl's offset past it.
@inline(__always)
private func place(_ kind: YajlEvent.Kind, _ state: YajlEventRecorder.State) -> Bool {
    // (yajl calls back only through a handle it has, so `handle` is set.)
    let consumed = yajl_get_bytes_consumed(state.handle)
    let event = YajlEvent(kind: kind, inChunk: false, text: 0, count: 0, consumed: consumed)
    if state.logs {
        state.withLog { $0.append(event) }
        if !state.finishing { state.lastEventEnd = state.chunkBase &+ consumed }
        return true
    }
    if let writer = state.recordingWriter {
        return writer._withUnsafeGuaranteedRef { $0.consumeRecording(event, text: nil) }
    }
    return state.validatingWriter?._withUnsafeGuaranteedRef { $0.consumeValidating(event, text: nil) } ?? false
}

/// A number, string or key: placed by where its text lies in the buffer when it is there
/// verbatim (`quoted`: its closing quote, for where it ends), else by yajl's offset past it.
@inline(__always)
private func text(
    _ kind: YajlEvent.Kind, _ bytes: UnsafeRawPointer?, _ count: Int, quoted: Int, _ state: YajlEventRecorder.State
) -> Bool {
    if state.logs {
        if let bytes {
            let offset = bytes - state.chunkPointer
            if UInt(bitPattern: offset) < UInt(bitPattern: state.chunkLength) {
                state.withLog { $0.append(YajlEvent(kind: kind, inChunk: true, text: offset, count: count, consumed: 0)) }
                state.lastEventEnd = state.chunkBase &+ offset &+ count &+ quoted
                return true
            }
        }
        return textElsewhere(kind, bytes, count, state)
    }
    if let writer = state.recordingWriter {
        // The writer knows the call's buffer too (``TapeWriter/beginChunk(from:to:)``): asking it
        // keeps this thread's hot path to one object.
        return writer._withUnsafeGuaranteedRef { writer in
            if let offset = writer.chunkOffset(of: bytes) {
                return writer.consumeRecording(YajlEvent(kind: kind, inChunk: true, text: offset, count: count, consumed: 0), text: bytes)
            }
            return textElsewhere(kind, bytes, count, state)
        }
    }
    guard let validatingWriter = state.validatingWriter else { return false }
    return validatingWriter._withUnsafeGuaranteedRef { writer in
        if let offset = writer.chunkOffset(of: bytes) {
            return writer.consumeValidating(YajlEvent(kind: kind, inChunk: true, text: offset, count: count, consumed: 0), text: bytes)
        }
        return textElsewhere(kind, bytes, count, state)
    }
}

/// Text yajl decoded (escapes) or took from its own buffer (it spanned calls): placed by
/// yajl's offset past it; a logged copy goes to the side bytes.
@inline(never)
private func textElsewhere(
    _ kind: YajlEvent.Kind, _ bytes: UnsafeRawPointer?, _ count: Int, _ state: YajlEventRecorder.State
) -> Bool {
    let consumed = yajl_get_bytes_consumed(state.handle)
    if let writer = state.liveWriter {
        let event = YajlEvent(kind: kind, inChunk: false, text: 0, count: count, consumed: consumed)
        return writer._withUnsafeGuaranteedRef { $0.consume(event, text: bytes) }
    }
    state.withLog { log in
        let text = log.appendSide(bytes, count: count)
        log.append(YajlEvent(kind: kind, inChunk: false, text: text, count: count, consumed: consumed))
    }
    if !state.finishing { state.lastEventEnd = state.chunkBase &+ consumed }
    return true
}

/// The state behind yajl's context pointer, not retained: the ``YajlEventRecorder`` holding
/// it strongly is alive for the whole `yajl_parse` call.
@inline(__always)
private func withState(_ context: UnsafeMutableRawPointer, _ body: (YajlEventRecorder.State) -> Bool) -> Bool {
    Unmanaged<YajlEventRecorder.State>.fromOpaque(context)._withUnsafeGuaranteedRef(body)
}
