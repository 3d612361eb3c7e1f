internal import CYajl

/// One yajl 2.1 parser handle and the callbacks struct it points at, set up from the options
/// and freed together (for ``YajlEventRecorder`` and ``YajlSyntaxCheck``).
///
/// yajl keeps the *pointer* to the callbacks (it does not copy them) and takes its context only
/// in `yajl_alloc`, so the callbacks live at a stable allocated address, and the context must
/// outlive the handle.
final class YajlHandle {
    let callbacks: UnsafeMutablePointer<yajl_callbacks>
    /// Nil when yajl could not allocate a parser.
    let handle: yajl_handle?

    init(callbacks table: yajl_callbacks, context: UnsafeMutableRawPointer, options: JSONParsingOptions) {
        callbacks = .allocate(capacity: 1)
        callbacks.initialize(to: table)
        handle = yajl_alloc(callbacks, nil, context)
        if let handle {
            _ = cyajl_config(handle, yajl_allow_comments, options.allowsComments ? 1 : 0)
            // Spool checks every string's UTF-8 itself, more strictly than yajl (StringChecks,
            // StrictnessScan), so yajl's own check, byte by byte in its lexer, is not asked for.
            _ = cyajl_config(handle, yajl_dont_validate_strings, 1)
            _ = cyajl_config(handle, yajl_allow_multiple_values, options.allowsMultipleValues ? 1 : 0)
            _ = cyajl_config(handle, yajl_allow_trailing_garbage, options.stopsAfterFirstValue ? 1 : 0)
        }
    }

    /// Spool's view of how a call into yajl ended.
    func status(_ status: yajl_status) -> YajlStatus {
        guard let handle else { return .noParser }
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

    deinit {
        if let handle { yajl_free(handle) }
        callbacks.deinitialize(count: 1)
        callbacks.deallocate()
    }
}
