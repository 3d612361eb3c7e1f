/// The callback tables that hand yajl's events to a ``TapeWriter`` inside the callbacks, on
/// the thread that runs yajl: its recording handlers, or its lean validating ones
/// (``TapeWriter/usesLeanHandlers``). The tape builder installs the one its writer's mode
/// wants before each call (``YajlEventRecorder/install(_:)``).
///
/// Why one table per mode, not one whose callbacks ask on every event where it goes (commit
/// 7a6dcea): each callback then holds only its consumer's code, with no test of the mode and
/// no other consumer's registers to save. Callgrind, 10 MB catalog, one table -> three:
/// validating a pipe 416.4M -> 401.8M instructions (401.1M before the one table), the cursor
/// on one thread 533.6M -> 529.3M, in the background 634.7M -> 631.0M, JSONStream 987.0M ->
/// 986.4M.
///
/// The two tables differ only in `recording:`, a constant that each trampoline's inlined
/// handler folds away.
enum LiveEventTables {
    typealias State = YajlEventRecorder.State

    /// The writer's recording handlers.
    static let recording = YajlCallbackTable(
        null: { context in
            State.withState(context) { place(.null, $0, recording: true) }
        },
        boolean: { context, value in
            @inline(__always) func body(_ state: State) -> Bool {
                place(value != 0 ? .true : .false, state, recording: true)
            }
            return State.withState(context, body)
        },
        number: { context, bytes, count in
            @inline(__always) func body(_ state: State) -> Bool {
                text(.number, UnsafeRawPointer(bytes), count, state, recording: true)
            }
            return State.withState(context, body)
        },
        string: { context, bytes, count in
            @inline(__always) func body(_ state: State) -> Bool {
                text(.string, UnsafeRawPointer(bytes), count, state, recording: true)
            }
            return State.withState(context, body)
        },
        key: { context, bytes, count in
            @inline(__always) func body(_ state: State) -> Bool {
                text(.key, UnsafeRawPointer(bytes), count, state, recording: true)
            }
            return State.withState(context, body)
        },
        startMap: { context in
            State.withState(context) { place(.startMap, $0, recording: true) }
        },
        endMap: { context in
            State.withState(context) { place(.endMap, $0, recording: true) }
        },
        startArray: { context in
            State.withState(context) { place(.startArray, $0, recording: true) }
        },
        endArray: { context in
            State.withState(context) { place(.endArray, $0, recording: true) }
        })

    /// The writer's lean validating handlers.
    static let validating = YajlCallbackTable(
        null: { context in
            State.withState(context) { place(.null, $0, recording: false) }
        },
        boolean: { context, value in
            @inline(__always) func body(_ state: State) -> Bool {
                place(value != 0 ? .true : .false, state, recording: false)
            }
            return State.withState(context, body)
        },
        number: { context, bytes, count in
            @inline(__always) func body(_ state: State) -> Bool {
                text(.number, UnsafeRawPointer(bytes), count, state, recording: false)
            }
            return State.withState(context, body)
        },
        string: { context, bytes, count in
            @inline(__always) func body(_ state: State) -> Bool {
                text(.string, UnsafeRawPointer(bytes), count, state, recording: false)
            }
            return State.withState(context, body)
        },
        key: { context, bytes, count in
            @inline(__always) func body(_ state: State) -> Bool {
                text(.key, UnsafeRawPointer(bytes), count, state, recording: false)
            }
            return State.withState(context, body)
        },
        startMap: { context in
            State.withState(context) { place(.startMap, $0, recording: false) }
        },
        endMap: { context in
            State.withState(context) { place(.endMap, $0, recording: false) }
        },
        startArray: { context in
            State.withState(context) { place(.startArray, $0, recording: false) }
        },
        endArray: { context in
            State.withState(context) { place(.endArray, $0, recording: false) }
        })

    /// The writer's handler for `event`: its recording or its lean validating one.
    @inline(__always)
    private static func consume(_ event: ParseEvent, text: UnsafeRawPointer?, _ writer: TapeWriter, recording: Bool) -> Bool {
        recording ? writer.consumeRecording(event, text: text) : writer.consumeValidating(event, text: text)
    }

    /// A container or literal: placed by yajl's offset past it.
    @inline(__always)
    private static func place(_ kind: ParseEvent.Kind, _ state: State, recording: Bool) -> Bool {
        let event = ParseEvent(kind: kind, inChunk: false, text: 0, count: 0, consumed: state.bytesConsumed)
        return state.withConsumer(TapeWriter.self) { consume(event, text: nil, $0, recording: recording) }
    }

    /// A number, string or key: placed by where its text lies in the buffer when it is there
    /// verbatim, else by yajl's offset past it.
    @inline(__always)
    private static func text(
        _ kind: ParseEvent.Kind, _ bytes: UnsafeRawPointer?, _ count: Int, _ state: State, recording: Bool
    ) -> Bool {
        state.withConsumer(TapeWriter.self) { writer in
            // The writer knows the call's buffer too (``TapeWriter/beginChunk(from:to:)``):
            // asking it keeps this thread's hot path to one object.
            if let offset = writer.chunkOffset(of: bytes) {
                let event = ParseEvent(kind: kind, inChunk: true, text: offset, count: count, consumed: 0)
                return consume(event, text: bytes, writer, recording: recording)
            }
            return textElsewhere(kind, bytes, count, state, recording: recording)
        }
    }

    /// Text yajl decoded (escapes) or took from its own buffer (it spanned calls): placed by
    /// yajl's offset past it.
    @inline(never)
    private static func textElsewhere(
        _ kind: ParseEvent.Kind, _ bytes: UnsafeRawPointer?, _ count: Int, _ state: State, recording: Bool
    ) -> Bool {
        let event = ParseEvent(kind: kind, inChunk: false, text: 0, count: count, consumed: state.bytesConsumed)
        return state.withConsumer(TapeWriter.self) { consume(event, text: bytes, $0, recording: recording) }
    }
}
