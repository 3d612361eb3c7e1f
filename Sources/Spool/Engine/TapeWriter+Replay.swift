/// Replays events that a ``YajlEventRecorder`` logged on another thread, through the same
/// handlers as yajl's live callbacks (``YajlParser``), so the tape, the checks and the errors
/// are exactly those of parsing on this thread.
extension TapeWriter {
    /// Replays `events`, whose in-buffer text lies in the current chunk (``beginChunk(from:to:)``)
    /// and whose other text lies in `side`. Returns false where a handler failed, as a live
    /// callback cancels the parse.
    func replay(_ events: UnsafeBufferPointer<YajlEvent>, side: UnsafeRawPointer?) -> Bool {
        replaying = true
        defer { replaying = false }
        for event in events {
            replayedConsumed = event.consumed
            let bytes = event.inChunk ? chunkPointer + event.text : side.map { $0 + event.text }
            let accepted: Bool
            switch event.kind {
            case .null: accepted = didParseLiteral(.null, consumed: event.consumed)
            case .true: accepted = didParseLiteral(.true, consumed: event.consumed)
            case .false: accepted = didParseLiteral(.false, consumed: event.consumed)
            case .number: accepted = didParseNumber(bytes, count: event.count)
            case .string: accepted = recordString(bytes, count: event.count)
            case .key: accepted = recordKey(bytes, count: event.count)
            case .startMap: accepted = didStartContainer(isObject: true, consumed: event.consumed)
            case .endMap: accepted = didEndContainer(isObject: true, consumed: event.consumed)
            case .startArray: accepted = didStartContainer(isObject: false, consumed: event.consumed)
            case .endArray: accepted = didEndContainer(isObject: false, consumed: event.consumed)
            }
            if !accepted { return false }
        }
        return true
    }
}
