/// The writer's one entry: a yajl event (``YajlEvent``), whether yajl reported it a moment ago
/// on this thread (``YajlEventRecorder``'s callbacks hand it over at once) or on another thread
/// that logged it (``BackgroundPipeline``). Either way it goes through the same handlers,
/// so tokens, checks and errors do not depend on where yajl ran.
extension TapeWriter {
    /// Consumes one event whose text (key, string, number) is at `text`. Returns false, with
    /// ``pendingError`` set, when the input breaks a rule: a live callback then cancels the
    /// parse, a logged call stops there.
    @inline(__always)
    func consume(_ event: YajlEvent, text: UnsafeRawPointer?) -> Bool {
        recordsValues ? consumeRecording(event, text: text) : consumeValidating(event, text: text)
    }

    /// ``consume(_:text:)`` while recording values.
    @inline(__always)
    func consumeRecording(_ event: YajlEvent, text: UnsafeRawPointer?) -> Bool {
        switch event.kind {
        case .null: return didParseLiteral(.null, consumed: event.consumed)
        case .true: return didParseLiteral(.true, consumed: event.consumed)
        case .false: return didParseLiteral(.false, consumed: event.consumed)
        case .number: return didParseNumber(event, text: text)
        case .string: return recordString(event, text: text)
        case .key: return recordKey(event, text: text)
        case .startMap: return didStartContainer(isObject: true, consumed: event.consumed)
        case .endMap: return didEndContainer(isObject: true, consumed: event.consumed)
        case .startArray: return didStartContainer(isObject: false, consumed: event.consumed)
        case .endArray: return didEndContainer(isObject: false, consumed: event.consumed)
        }
    }

    /// ``consume(_:text:)`` while validating: the lean handlers (TapeWriter+Validation.swift).
    @inline(__always)
    func consumeValidating(_ event: YajlEvent, text: UnsafeRawPointer?) -> Bool {
        switch event.kind {
        case .null: return validateLiteral(.null, consumed: event.consumed)
        case .true: return validateLiteral(.true, consumed: event.consumed)
        case .false: return validateLiteral(.false, consumed: event.consumed)
        case .number: return validateNumber(event, text: text)
        case .string: return validateString(event, text: text)
        case .key: return validateKey(event, text: text)
        case .startMap: return validateContainerStart(isObject: true, consumed: event.consumed)
        case .endMap: return validateContainerEnd(isObject: true, consumed: event.consumed)
        case .startArray: return validateContainerStart(isObject: false, consumed: event.consumed)
        case .endArray: return validateContainerEnd(isObject: false, consumed: event.consumed)
        }
    }

    /// Consumes logged events, whose in-chunk text lies in the current chunk
    /// (``beginChunk(from:to:)``) and whose other text lies in `side`. Returns false where one
    /// was rejected.
    func consume(_ events: UnsafeBufferPointer<YajlEvent>, side: UnsafeRawPointer?) -> Bool {
        if recordsValues {
            for event in events where !consumeRecording(event, text: text(of: event, side: side)) { return false }
        } else {
            for event in events where !consumeValidating(event, text: text(of: event, side: side)) { return false }
        }
        return true
    }

    @inline(__always)
    private func text(of event: YajlEvent, side: UnsafeRawPointer?) -> UnsafeRawPointer? {
        event.inChunk ? chunkPointer + event.text : side.map { $0 + event.text }
    }
}
