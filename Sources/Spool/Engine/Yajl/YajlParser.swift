internal import CYajl

/// Drives yajl for a ``TapeWriter``: parsing live, its callbacks writing tokens.
///
/// The handle (``YajlHandle``) takes its context only in `yajl_alloc`; the context is the
/// ``TapeWriter``, which exists before the handle. The trampolines are non-capturing
/// closures that recover the writer, copy what yajl hands them onto the tape before returning,
/// and return 0 (cancel) when the writer has stored an error. Numbers go through the raw
/// `yajl_number` callback so they keep their exact text (yajl's own integer conversion rejects
/// 2^64 and has signed-overflow UB).
///
/// The files of this folder (this one, ``YajlHandle``, ``YajlEventRecorder`` for background
/// parsing and ``YajlSyntaxCheck`` for validation's shortcut) are the only ones that import
/// CYajl; no yajl type leaves them. yajl's messages are read in one place too, ``YajlError``.
final class YajlParser {
    /// How a call into yajl ended.
    enum Status {
        case ok
        /// A callback returned 0; the writer holds the reason.
        case cancelled
        /// yajl found an error: its kind and the offset it reports in the last buffer.
        case failed(YajlError, consumed: Int)

        /// What a call reports when `yajl_alloc` failed.
        static let noParser = Status.failed(.unknown("out of memory: cannot allocate a yajl parser"), consumed: 0)
    }

    private let writer: TapeWriter
    private let yajl: YajlHandle
    private var handle: yajl_handle? { yajl.handle }

    init(writer: TapeWriter, options: JSONParsingOptions) {
        self.writer = writer
        yajl = YajlHandle(
            callbacks: YajlParser.makeCallbacks(), context: Unmanaged.passUnretained(writer).toOpaque(), options: options)
        writer.handle = yajl.handle
    }

    /// Switches between the full callbacks and the lean validating ones (see
    /// TapeWriter+Validation.swift). yajl reads the callbacks struct at every event, so this
    /// takes effect from the next `yajl_parse` call.
    func useValidatingCallbacks(_ validating: Bool) {
        yajl.callbacks.pointee = validating ? YajlParser.makeValidatingCallbacks() : YajlParser.makeCallbacks()
    }

    /// Feeds `count` bytes at `bytes` to yajl; callbacks run before this returns.
    func parse(_ bytes: UnsafePointer<UInt8>, count: Int) -> Status {
        guard let handle else { return .noParser }
        return YajlParser.status(yajl_parse(handle, bytes, count), handle: handle)
    }

    /// Tells yajl the input has ended, so it can finish a trailing number or report truncation.
    func complete() -> Status {
        guard let handle else { return .noParser }
        return YajlParser.status(yajl_complete_parse(handle), handle: handle)
    }

    /// Spool's view of how a call into yajl ended (also ``YajlEventRecorder``'s).
    static func status(_ status: yajl_status, handle: yajl_handle) -> Status {
        switch status {
        case yajl_status_ok:
            return .ok
        case yajl_status_client_canceled:
            return .cancelled
        default:
            var message = "unknown yajl error"
            if let text = yajl_get_error(handle, 0, nil, 0) {
                message = String(cString: text)
                yajl_free_error(handle, text)
            }
            return .failed(YajlError(message: message), consumed: yajl_get_bytes_consumed(handle))
        }
    }

    // MARK: - Trampolines

    private static func makeCallbacks() -> yajl_callbacks {
        var callbacks = yajl_callbacks()
        callbacks.yajl_null = { context in
            guard let context else { return 0 }
            return withWriter(context) { w in w.didParseLiteral(.null, consumed: w.bytesConsumedByYajl) } ? 1 : 0
        }
        callbacks.yajl_boolean = { context, value in
            guard let context else { return 0 }
            return withWriter(context) { w in w.didParseLiteral(value != 0 ? .true : .false, consumed: w.bytesConsumedByYajl) } ? 1 : 0
        }
        callbacks.yajl_number = { context, bytes, count in
            guard let context else { return 0 }
            return withWriter(context) { w in w.didParseNumber(UnsafeRawPointer(bytes), count: count) } ? 1 : 0
        }
        callbacks.yajl_string = { context, bytes, count in
            guard let context else { return 0 }
            return withWriter(context) { w in w.recordString(UnsafeRawPointer(bytes), count: count) } ? 1 : 0
        }
        callbacks.yajl_map_key = { context, bytes, count in
            guard let context else { return 0 }
            return withWriter(context) { w in w.recordKey(UnsafeRawPointer(bytes), count: count) } ? 1 : 0
        }
        callbacks.yajl_start_map = { context in
            guard let context else { return 0 }
            return withWriter(context) { w in w.didStartContainer(isObject: true, consumed: w.bytesConsumedByYajl) } ? 1 : 0
        }
        callbacks.yajl_end_map = { context in
            guard let context else { return 0 }
            return withWriter(context) { w in w.didEndContainer(isObject: true, consumed: w.bytesConsumedByYajl) } ? 1 : 0
        }
        callbacks.yajl_start_array = { context in
            guard let context else { return 0 }
            return withWriter(context) { w in w.didStartContainer(isObject: false, consumed: w.bytesConsumedByYajl) } ? 1 : 0
        }
        callbacks.yajl_end_array = { context in
            guard let context else { return 0 }
            return withWriter(context) { w in w.didEndContainer(isObject: false, consumed: w.bytesConsumedByYajl) } ? 1 : 0
        }
        return callbacks
    }
}

extension YajlParser {
    fileprivate static func makeValidatingCallbacks() -> yajl_callbacks {
        var callbacks = yajl_callbacks()
        callbacks.yajl_null = { context in
            guard let context else { return 0 }
            return withWriter(context) { w in w.validateLiteral(.null, consumed: w.bytesConsumedByYajl) } ? 1 : 0
        }
        callbacks.yajl_boolean = { context, value in
            guard let context else { return 0 }
            return withWriter(context) { w in w.validateLiteral(value != 0 ? .true : .false, consumed: w.bytesConsumedByYajl) } ? 1 : 0
        }
        callbacks.yajl_number = { context, bytes, count in
            guard let context else { return 0 }
            return withWriter(context) { w in w.validateNumber(UnsafeRawPointer(bytes), count: count) } ? 1 : 0
        }
        callbacks.yajl_string = { context, bytes, count in
            guard let context else { return 0 }
            return withWriter(context) { w in w.validateString(UnsafeRawPointer(bytes), count: count) } ? 1 : 0
        }
        callbacks.yajl_map_key = { context, bytes, count in
            guard let context else { return 0 }
            return withWriter(context) { w in w.validateKey(UnsafeRawPointer(bytes), count: count) } ? 1 : 0
        }
        callbacks.yajl_start_map = { context in
            guard let context else { return 0 }
            return withWriter(context) { w in w.validateContainerStart(isObject: true, consumed: w.bytesConsumedByYajl) } ? 1 : 0
        }
        callbacks.yajl_end_map = { context in
            guard let context else { return 0 }
            return withWriter(context) { w in w.validateContainerEnd(isObject: true, consumed: w.bytesConsumedByYajl) } ? 1 : 0
        }
        callbacks.yajl_start_array = { context in
            guard let context else { return 0 }
            return withWriter(context) { w in w.validateContainerStart(isObject: false, consumed: w.bytesConsumedByYajl) } ? 1 : 0
        }
        callbacks.yajl_end_array = { context in
            guard let context else { return 0 }
            return withWriter(context) { w in w.validateContainerEnd(isObject: false, consumed: w.bytesConsumedByYajl) } ? 1 : 0
        }
        return callbacks
    }
}

extension TapeWriter {
    /// yajl's offset just past the token being reported, in the current chunk (asked only when
    /// a token's position cannot be derived from the pointer yajl hands over).
    var bytesConsumedByYajl: Int {
        @inline(__always) get { replaying ? replayedConsumed : yajl_get_bytes_consumed(handle) }
    }
}

// Free functions, so the C callbacks capture nothing.

/// Calls `body` with the writer behind yajl's context pointer, without retaining it: the
/// ``YajlParser`` (which holds the writer strongly) is alive for the whole `yajl_parse` call.
@inline(__always)
private func withWriter(_ context: UnsafeMutableRawPointer, _ body: (TapeWriter) -> Bool) -> Bool {
    Unmanaged<TapeWriter>.fromOpaque(context)._withUnsafeGuaranteedRef(body)
}
