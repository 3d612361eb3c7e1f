internal import CYajl

/// A second, minimal way to drive yajl: grammar only, for ``QuickValidator``.
///
/// Its callbacks keep no path, no positions and no tokens; they count events, track the
/// nesting depth and look at text lengths, and cancel the parse (return 0) as soon as the
/// input leaves what they can vouch for. Whatever makes them cancel, ``QuickValidator`` hands
/// the input to the full engine, which then decides and explains. The handle is set up like
/// ``YajlEventRecorder``'s (no UTF-8 validation by yajl, one top-level value, no comments):
/// ``StrictnessScan`` checks the UTF-8.
final class YajlSyntaxCheck {
    /// What the callbacks see; yajl's context pointer points here.
    final class State {
        /// Callbacks seen so far.
        var events = 0
        var depth = 0
        let maxDepth: Int
        /// Strings and keys whose decoded text is longer than this cancel the parse: with
        /// escapes, up to six source bytes make one decoded byte, so only text this short is
        /// certainly within ``JSONParsingOptions/maxStringLength`` in its source.
        let maxDecodedString: Int
        let maxNumberLength: Int
        /// Absolute offset of the bytes of the current `parse` call.
        var chunkBase = 0
        /// Where the top-level value ended, once it has. yajl accepts a string left open after
        /// it (`0 "abc`: the string might end later, and at the end it is never lexed again),
        /// so the caller checks that only whitespace follows.
        var valueEnd: Int?
        fileprivate var handle: yajl_handle?

        init(options: JSONParsingOptions) {
            maxDepth = options.parserMaxDepth
            maxDecodedString = options.effectiveMaxStringLength / 6
            maxNumberLength = options.maxNumberLength
        }
    }

    let state: State
    private let yajl: YajlHandle
    private var handle: yajl_handle? { yajl.handle }

    init(options: JSONParsingOptions) {
        state = State(options: options)
        yajl = YajlHandle(
            callbacks: YajlSyntaxCheck.makeCallbacks(), context: Unmanaged.passUnretained(state).toOpaque(),
            options: options)
        state.handle = yajl.handle
    }

    /// Feeds `count` bytes, which start at absolute offset `base`, to yajl. False when yajl
    /// found an error or a callback cancelled.
    func parse(_ bytes: UnsafePointer<UInt8>, count: Int, base: Int) -> Bool {
        guard let handle else { return false }
        state.chunkBase = base
        return yajl_parse(handle, bytes, count) == yajl_status_ok
    }

    /// Ends the input. False when the text is not one complete value, or a callback cancelled.
    func complete() -> Bool {
        guard let handle else { return false }
        state.handle = nil  // offsets would point into yajl's own one-byte buffer
        return yajl_complete_parse(handle) == yajl_status_ok
    }

    /// yajl's message for the error that stopped the parse, if yajl (not a callback) stopped
    /// it: for the tests that pin the messages ``YajlError`` reads.
    func errorMessage() -> String? {
        guard let handle, let text = yajl_get_error(handle, 0, nil, 0) else { return nil }
        defer { yajl_free_error(handle, text) }
        return String(cString: text)
    }

    private static func makeCallbacks() -> yajl_callbacks {
        var callbacks = yajl_callbacks()
        callbacks.yajl_null = { context in
            guard let context else { return 0 }
            return withState(context) { scalar($0) } ? 1 : 0
        }
        callbacks.yajl_boolean = { context, _ in
            guard let context else { return 0 }
            return withState(context) { scalar($0) } ? 1 : 0
        }
        callbacks.yajl_number = { context, _, count in
            guard let context else { return 0 }
            return withState(context) { scalar($0) && count <= $0.maxNumberLength } ? 1 : 0
        }
        callbacks.yajl_string = { context, _, count in
            guard let context else { return 0 }
            return withState(context) { scalar($0) && count <= $0.maxDecodedString } ? 1 : 0
        }
        callbacks.yajl_map_key = { context, _, count in
            guard let context else { return 0 }
            return withState(context) { $0.events &+= 1; return count <= $0.maxDecodedString } ? 1 : 0
        }
        callbacks.yajl_start_map = { context in
            guard let context else { return 0 }
            return withState(context) { enter($0) } ? 1 : 0
        }
        callbacks.yajl_end_map = { context in
            guard let context else { return 0 }
            return withState(context) { leave($0) } ? 1 : 0
        }
        callbacks.yajl_start_array = { context in
            guard let context else { return 0 }
            return withState(context) { enter($0) } ? 1 : 0
        }
        callbacks.yajl_end_array = { context in
            guard let context else { return 0 }
            return withState(context) { leave($0) } ? 1 : 0
        }
        return callbacks
    }
}

@inline(__always)
private func enter(_ state: YajlSyntaxCheck.State) -> Bool {
    state.events &+= 1
    state.depth &+= 1
    return state.depth <= state.maxDepth
}

@inline(__always)
private func leave(_ state: YajlSyntaxCheck.State) -> Bool {
    state.events &+= 1
    state.depth &-= 1
    if state.depth == 0 { valueDone(state) }
    return true
}

@inline(__always)
private func scalar(_ state: YajlSyntaxCheck.State) -> Bool {
    state.events &+= 1
    if state.depth == 0 { valueDone(state) }
    return true
}

/// The top-level value has ended: where, from yajl's offset just past the current token.
@inline(never)
private func valueDone(_ state: YajlSyntaxCheck.State) {
    if let handle = state.handle { state.valueEnd = state.chunkBase + yajl_get_bytes_consumed(handle) }
}

/// The state behind yajl's context pointer, not retained: the ``YajlSyntaxCheck`` holding it
/// strongly is alive for the whole `yajl_parse` call.
@inline(__always)
private func withState(_ context: UnsafeMutableRawPointer, _ body: (YajlSyntaxCheck.State) -> Bool) -> Bool {
    Unmanaged<YajlSyntaxCheck.State>.fromOpaque(context)._withUnsafeGuaranteedRef(body)
}
