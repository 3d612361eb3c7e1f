internal import CYajl

/// The callbacks yajl calls, in Swift's types (no yajl type leaves this folder): the logging
/// table here, or a live consumer's (``LiveEventTables``). Each gets yajl's context pointer,
/// the ``YajlEventRecorder/State`` (``YajlEventRecorder/State/withState(_:_:)``), and
/// returns 1 to go on or 0 to cancel.
struct YajlCallbackTable {
    typealias Place = @convention(c) (UnsafeMutableRawPointer?) -> Int32
    typealias Boolean = @convention(c) (UnsafeMutableRawPointer?, Int32) -> Int32
    typealias Number = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int) -> Int32
    typealias Text = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt8>?, Int) -> Int32

    var null: Place
    var boolean: Boolean
    var number: Number
    var string: Text
    var key: Text
    var startMap: Place
    var endMap: Place
    var startArray: Place
    var endArray: Place

    /// yajl's struct (numbers go through the raw `yajl_number` callback only).
    fileprivate var callbacks: yajl_callbacks {
        var callbacks = yajl_callbacks()
        callbacks.yajl_null = null
        callbacks.yajl_boolean = boolean
        callbacks.yajl_number = number
        callbacks.yajl_string = string
        callbacks.yajl_map_key = key
        callbacks.yajl_start_map = startMap
        callbacks.yajl_end_map = endMap
        callbacks.yajl_start_array = startArray
        callbacks.yajl_end_array = endArray
        return callbacks
    }
}

/// A yajl handle whose callbacks turn each callback into a ``ParseEvent``: the one way Spool
/// drives yajl for tokens.
///
/// The events go where the callback table sends them, chosen by the recorder's owner:
/// - to a consumer on the same thread, inside the callback (a ``TapeWriter``, through
///   ``LiveEventTables``), which cancels the parse by returning 0 once it has an error:
///   parsing on one thread;
/// - to a ``ParseEventLog`` (this file's logging table), for a writer on another thread to
///   consume later (``BackgroundPipeline``): the parsing thread then does little more than
///   yajl itself.
///
/// The recorder knows no consumer: a live table reaches its own behind ``State/consumer``.
/// Logging each event and consuming the log after the call, one path for both, was measured
/// instead: twitter.json's decode took 50.59M -> 52.16M instructions (+3.1 %), so a live
/// table calls its consumer straight from the callback.
///
/// The trampolines are non-capturing closures that recover the state behind yajl's context
/// pointer; numbers go through the raw `yajl_number` callback so they keep their exact text
/// (yajl's own integer conversion rejects 2^64 and has signed-overflow UB).
///
/// The files of this folder (this one, ``YajlHandle`` and ``YajlSyntaxCheck`` for validation's
/// shortcut) are the only ones that import CYajl for yajl (``StackLimit`` takes its frame
/// address from the module's shim); no yajl type leaves them. yajl's messages are read in one
/// place too, ``YajlError``.
final class YajlEventRecorder {
    /// What the callbacks see; yajl's context pointer points here.
    final class State {
        /// The live table's consumer (not retained: whoever installs the table holds it), or
        /// nil while events are logged.
        let consumer: UnsafeMutableRawPointer?
        /// Where logged events go: the batch being filled. Not retained, because the callbacks
        /// would otherwise retain and release it on every event; whoever sets it keeps it alive
        /// (the batches live as long as their ``BackgroundPipeline``), see ``log``.
        private var target: Unmanaged<ParseEventLog>
        private var targetOwner: ParseEventLog

        init(consumer: AnyObject?) {
            self.consumer = consumer.map { Unmanaged.passUnretained($0).toOpaque() }
            targetOwner = ParseEventLog(capacity: 16)
            target = Unmanaged.passUnretained(targetOwner)
        }

        /// The log events go to; setting it keeps the new log alive while it is the target.
        var log: ParseEventLog {
            get { targetOwner }
            set {
                targetOwner = newValue
                target = Unmanaged.passUnretained(newValue)
            }
        }

        /// Calls `body` with the target log, without retaining it.
        @inline(__always)
        fileprivate func withLog<Result>(_ body: (ParseEventLog) -> Result) -> Result {
            target._withUnsafeGuaranteedRef(body)
        }

        /// Calls `body` with the live consumer, of type `type`, without retaining it (only a
        /// live table calls this: the consumer is set).
        @inline(__always)
        func withConsumer<Consumer: AnyObject>(_ type: Consumer.Type, _ body: (Consumer) -> Bool) -> Bool {
            Unmanaged<Consumer>.fromOpaque(consumer.unsafelyUnwrapped)._withUnsafeGuaranteedRef(body)
        }

        /// `yajl_get_bytes_consumed` during a callback: yajl's offset past the token just
        /// reported, in the call's buffer.
        @inline(__always)
        var bytesConsumed: Int { yajl_get_bytes_consumed(handle) }

        /// The current call's buffer (its length 0 when comments are allowed, so that the
        /// writer finds every token's start by scanning, as ``TapeWriter/beginChunk(from:to:)``).
        fileprivate var chunkPointer = UnsafeRawPointer(bitPattern: 1).unsafelyUnwrapped
        fileprivate var chunkLength = 0
        fileprivate var chunkBase = 0
        /// Absolute end of the last token a logged event reported, or -1 (for holding input back).
        var lastEventEnd = -1
        fileprivate var handle: yajl_handle?
        fileprivate var finishing = false

        /// A trampoline's body: calls `body` with the state behind yajl's context pointer, not
        /// retained (the ``YajlEventRecorder`` holding it strongly is alive for the whole
        /// `yajl_parse` call), and returns to yajl 1 to go on or 0 to cancel.
        ///
        /// A body that captures the callback's arguments is an `@inline(__always)` local
        /// function, not a closure: the optimizer left such a closure out of line, one more call
        /// per event (callgrind, 10 MB catalog: validating a pipe 401.8M -> 400.3M instructions,
        /// JSONStream 986.4M -> 982.2M, the cursor 0.1 % less).
        @inline(__always)
        static func withState(_ context: UnsafeMutableRawPointer?, _ body: (State) -> Bool) -> Int32 {
            guard let context else { return 0 }
            return Unmanaged<State>.fromOpaque(context)._withUnsafeGuaranteedRef(body) ? 1 : 0
        }
    }

    let state: State
    private let allowsComments: Bool
    private let yajl: YajlHandle
    private var handle: yajl_handle? { yajl.handle }

    /// A recorder whose events go to a log (``State/log``).
    convenience init(options: JSONParsingOptions) {
        self.init(options: options, table: YajlEventRecorder.loggingTable, consumer: nil)
    }

    /// A recorder whose events go to `consumer` through `table`'s callbacks (not retained: the
    /// caller holds both).
    init(options: JSONParsingOptions, table: YajlCallbackTable, consumer: AnyObject?) {
        allowsComments = options.allowsComments
        state = State(consumer: consumer)
        yajl = YajlHandle(callbacks: table.callbacks, context: Unmanaged.passUnretained(state).toOpaque(), options: options)
        state.handle = yajl.handle
    }

    /// Makes `table` yajl's callbacks from the next call on. yajl reads the callbacks struct (its
    /// pointer kept since `yajl_alloc`) at every event, so a new table takes effect at once.
    func install(_ table: YajlCallbackTable) {
        yajl.callbacks.pointee = table.callbacks
    }

    /// Gives yajl `count` bytes at `bytes`, which start at absolute offset `base`.
    func parse(_ bytes: UnsafePointer<UInt8>, count: Int, base: Int) -> YajlStatus {
        guard count > 0 else { return .ok }
        guard let handle else { return .noParser }
        state.chunkPointer = UnsafeRawPointer(bytes)
        state.chunkLength = allowsComments ? 0 : count
        state.chunkBase = base
        defer { state.chunkLength = 0 }
        return yajl.status(yajl_parse(handle, bytes, count))
    }

    /// Ends the input: yajl reports a trailing number, or truncation.
    func complete() -> YajlStatus {
        guard let handle else { return .noParser }
        state.finishing = true
        defer { state.finishing = false }
        return yajl.status(yajl_complete_parse(handle))
    }

    /// The callbacks that log every event to ``State/log``.
    static let loggingTable = YajlCallbackTable(
        null: { context in
            State.withState(context) { logPlace(.null, $0) }
        },
        boolean: { context, value in
            @inline(__always) func body(_ state: State) -> Bool {
                logPlace(value != 0 ? .true : .false, state)
            }
            return State.withState(context, body)
        },
        number: { context, bytes, count in
            @inline(__always) func body(_ state: State) -> Bool {
                logText(.number, UnsafeRawPointer(bytes), count, quoted: 0, state)
            }
            return State.withState(context, body)
        },
        string: { context, bytes, count in
            @inline(__always) func body(_ state: State) -> Bool {
                logText(.string, UnsafeRawPointer(bytes), count, quoted: 1, state)
            }
            return State.withState(context, body)
        },
        key: { context, bytes, count in
            @inline(__always) func body(_ state: State) -> Bool {
                logText(.key, UnsafeRawPointer(bytes), count, quoted: 1, state)
            }
            return State.withState(context, body)
        },
        startMap: { context in
            State.withState(context) { logPlace(.startMap, $0) }
        },
        endMap: { context in
            State.withState(context) { logPlace(.endMap, $0) }
        },
        startArray: { context in
            State.withState(context) { logPlace(.startArray, $0) }
        },
        endArray: { context in
            State.withState(context) { logPlace(.endArray, $0) }
        })
}

// MARK: - Logging

/// A container or literal, logged: placed by yajl's offset past it.
@inline(__always)
private func logPlace(_ kind: ParseEvent.Kind, _ state: YajlEventRecorder.State) -> Bool {
    // (yajl calls back only through a handle it has, so `handle` is set.)
    let consumed = yajl_get_bytes_consumed(state.handle)
    state.withLog { $0.append(ParseEvent(kind: kind, inChunk: false, text: 0, count: 0, consumed: consumed)) }
    if !state.finishing { state.lastEventEnd = state.chunkBase &+ consumed }
    return true
}

/// A number, string or key, logged: by where its text lies in the buffer when it is there
/// verbatim (`quoted`: its closing quote, for where it ends), else copied to the side bytes.
@inline(__always)
private func logText(
    _ kind: ParseEvent.Kind, _ bytes: UnsafeRawPointer?, _ count: Int, quoted: Int, _ state: YajlEventRecorder.State
) -> Bool {
    if let bytes {
        let offset = bytes - state.chunkPointer
        if UInt(bitPattern: offset) < UInt(bitPattern: state.chunkLength) {
            state.withLog { $0.append(ParseEvent(kind: kind, inChunk: true, text: offset, count: count, consumed: 0)) }
            state.lastEventEnd = state.chunkBase &+ offset &+ count &+ quoted
            return true
        }
    }
    return logTextElsewhere(kind, bytes, count, state)
}

/// Text yajl decoded (escapes) or took from its own buffer (it spanned calls), logged: a copy
/// goes to the side bytes, placed by yajl's offset past it.
@inline(never)
private func logTextElsewhere(
    _ kind: ParseEvent.Kind, _ bytes: UnsafeRawPointer?, _ count: Int, _ state: YajlEventRecorder.State
) -> Bool {
    let consumed = yajl_get_bytes_consumed(state.handle)
    state.withLog { log in
        let text = log.appendSide(bytes, count: count)
        log.append(ParseEvent(kind: kind, inChunk: false, text: text, count: count, consumed: consumed))
    }
    if !state.finishing { state.lastEventEnd = state.chunkBase &+ consumed }
    return true
}
