internal import CYajl

/// One yajl callback, as ``YajlEventRecorder`` logs it for replay on another thread.
struct YajlEvent {
    enum Kind: UInt8 {
        case null, `true`, `false`, number, string, key, startMap, endMap, startArray, endArray
    }

    var kind: Kind
    /// Whether the text lies verbatim in the call's buffer (at `text`), rather than in the
    /// log's side bytes (yajl decoded it, or it spanned calls).
    var inChunk: Bool
    /// Offset of a number's, string's or key's text in the call's buffer or the side bytes.
    var text: Int
    var count: Int
    /// `yajl_get_bytes_consumed` during the callback, where the text alone cannot place the
    /// token (containers, literals, text outside the buffer).
    var consumed: Int
}

/// What one call to yajl did, for replay: the bytes it was given, the events it produced
/// (a range of the log's), and how it ended.
struct YajlCall {
    /// The absolute range given to yajl; `end` is where a form feed or vertical tab stopped it.
    var start: Int
    var end: Int
    /// Where the call was cut short by a form feed or vertical tab (see `Tokenizer.parseAvailable`).
    var badWhitespace: Int?
    /// True for `yajl_complete_parse` (then `start` and `end` are unused).
    var isCompletion: Bool
    var events: Range<Int>
    var status: YajlParser.Status
}

/// Everything recorded for one shipment: calls, their events, and the text yajl handed from
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

/// A yajl handle whose callbacks only log events (``YajlEvent``) for a ``TapeWriter`` on
/// another thread to replay: the parsing thread of background parsing does little more than
/// yajl itself. The handle is set up like ``YajlParser``'s.
final class YajlEventRecorder {
    /// What the callbacks see; yajl's context pointer points here.
    final class State {
        /// Where events go: the batch being filled. Not retained, because the callbacks would
        /// otherwise retain and release it on every event; whoever sets it keeps it alive (the
        /// batches live as long as their ``BackgroundYajlPipeline``), see ``log``.
        private var target: Unmanaged<YajlEventLog>
        private var targetOwner: YajlEventLog

        init() {
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
        func withLog<Result>(_ body: (YajlEventLog) -> Result) -> Result {
            target._withUnsafeGuaranteedRef(body)
        }

        /// The current call's buffer (its length 0 when comments are allowed, so that the
        /// writer finds every token's start by scanning, as ``TapeWriter/beginChunk(from:to:)``).
        var chunkPointer = UnsafeRawPointer(bitPattern: 1).unsafelyUnwrapped
        var chunkLength = 0
        var chunkBase = 0
        /// Absolute end of the last token an event reported, or -1 (for holding input back).
        var lastEventEnd = -1
        fileprivate var handle: yajl_handle?
        fileprivate var finishing = false
    }

    let state = State()
    private let allowsComments: Bool
    private let yajl: YajlHandle
    private var handle: yajl_handle? { yajl.handle }

    init(options: JSONParsingOptions) {
        allowsComments = options.allowsComments
        yajl = YajlHandle(
            callbacks: YajlEventRecorder.makeCallbacks(), context: Unmanaged.passUnretained(state).toOpaque(),
            options: options)
        state.handle = yajl.handle
    }

    /// Gives yajl `count` bytes at `bytes`, which start at absolute offset `base`, logging their
    /// events; records the call.
    func parse(_ bytes: UnsafePointer<UInt8>, count: Int, base: Int, badWhitespace: Int?) -> YajlParser.Status {
        let first = state.log.count
        var status = YajlParser.Status.ok
        if count > 0 {
            state.chunkPointer = UnsafeRawPointer(bytes)
            state.chunkLength = allowsComments ? 0 : count
            state.chunkBase = base
            status = self.status(handle.map { yajl_parse($0, bytes, count) })
            state.chunkLength = 0
        }
        state.log.calls.append(
            YajlCall(
                start: base, end: base + count, badWhitespace: badWhitespace, isCompletion: false,
                events: first..<state.log.count, status: status))
        return status
    }

    /// Ends the input, logging the events of a trailing number; records the call.
    func complete() -> YajlParser.Status {
        let first = state.log.count
        state.finishing = true
        let status = self.status(handle.map { yajl_complete_parse($0) })
        state.finishing = false
        state.log.calls.append(
            YajlCall(start: 0, end: 0, badWhitespace: nil, isCompletion: true, events: first..<state.log.count, status: status))
        return status
    }

    private func status(_ status: yajl_status?) -> YajlParser.Status {
        guard let status, let handle else { return .noParser }
        return YajlParser.status(status, handle: handle)
    }

    private static func makeCallbacks() -> yajl_callbacks {
        var callbacks = yajl_callbacks()
        callbacks.yajl_null = { context in
            guard let context else { return 0 }
            withState(context) { logPlace(.null, $0) }
            return 1
        }
        callbacks.yajl_boolean = { context, value in
            guard let context else { return 0 }
            withState(context) { logPlace(value != 0 ? .true : .false, $0) }
            return 1
        }
        callbacks.yajl_number = { context, bytes, count in
            guard let context else { return 0 }
            withState(context) { logText(.number, UnsafeRawPointer(bytes), count, quoted: 0, $0) }
            return 1
        }
        callbacks.yajl_string = { context, bytes, count in
            guard let context else { return 0 }
            withState(context) { logText(.string, UnsafeRawPointer(bytes), count, quoted: 1, $0) }
            return 1
        }
        callbacks.yajl_map_key = { context, bytes, count in
            guard let context else { return 0 }
            withState(context) { logText(.key, UnsafeRawPointer(bytes), count, quoted: 1, $0) }
            return 1
        }
        callbacks.yajl_start_map = { context in
            guard let context else { return 0 }
            withState(context) { logPlace(.startMap, $0) }
            return 1
        }
        callbacks.yajl_end_map = { context in
            guard let context else { return 0 }
            withState(context) { logPlace(.endMap, $0) }
            return 1
        }
        callbacks.yajl_start_array = { context in
            guard let context else { return 0 }
            withState(context) { logPlace(.startArray, $0) }
            return 1
        }
        callbacks.yajl_end_array = { context in
            guard let context else { return 0 }
            withState(context) { logPlace(.endArray, $0) }
            return 1
        }
        return callbacks
    }
}

/// Logs a container or literal: placed by yajl's offset past it.
@inline(__always)
private func logPlace(_ kind: YajlEvent.Kind, _ state: YajlEventRecorder.State) {
    let consumed = state.handle.map { yajl_get_bytes_consumed($0) } ?? 0
    state.withLog { $0.append(YajlEvent(kind: kind, inChunk: false, text: 0, count: 0, consumed: consumed)) }
    if !state.finishing { state.lastEventEnd = state.chunkBase &+ consumed }
}

/// Logs a number, string or key: by its place in the buffer when it is there verbatim (plus
/// `quoted`, its closing quote, for where it ends), else copied to the side bytes.
@inline(__always)
private func logText(
    _ kind: YajlEvent.Kind, _ bytes: UnsafeRawPointer?, _ count: Int, quoted: Int, _ state: YajlEventRecorder.State
) {
    if let bytes {
        let offset = bytes - state.chunkPointer
        if UInt(bitPattern: offset) < UInt(bitPattern: state.chunkLength) {
            state.withLog { $0.append(YajlEvent(kind: kind, inChunk: true, text: offset, count: count, consumed: 0)) }
            state.lastEventEnd = state.chunkBase &+ offset &+ count &+ quoted
            return
        }
    }
    logCopied(kind, bytes, count, state)
}

@inline(never)
private func logCopied(_ kind: YajlEvent.Kind, _ bytes: UnsafeRawPointer?, _ count: Int, _ state: YajlEventRecorder.State) {
    let consumed = state.handle.map { yajl_get_bytes_consumed($0) } ?? 0
    state.withLog { log in
        let text = log.appendSide(bytes, count: count)
        log.append(YajlEvent(kind: kind, inChunk: false, text: text, count: count, consumed: consumed))
    }
    if !state.finishing { state.lastEventEnd = state.chunkBase &+ consumed }
}

@inline(__always)
private func withState(_ context: UnsafeMutableRawPointer, _ body: (YajlEventRecorder.State) -> Void) {
    Unmanaged<YajlEventRecorder.State>.fromOpaque(context)._withUnsafeGuaranteedRef(body)
}
