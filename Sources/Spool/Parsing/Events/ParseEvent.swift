/// One parser callback as an event: the one format in which yajl's callbacks reach the
/// ``TapeWriter``, at once on the thread that runs yajl (``LiveEventTables``), or logged for
/// another thread (``ParseEventLog``). It names no yajl type: the parser's side
/// (``YajlEventRecorder``) makes events and the writer's side consumes them, and neither
/// knows the other.
struct ParseEvent {
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

/// What one call to the parser did, for a consumer on another thread: the bytes it was given, the
/// events it produced (a range of the log's), and how it ended.
struct ParseCall {
    /// The absolute range given to yajl; `end` is where a form feed or vertical tab stopped it.
    var start: Int
    var end: Int
    /// Where the call was cut short by a form feed or vertical tab (see ``YajlFeed``).
    var badWhitespace: Int?
    /// True for `yajl_complete_parse` (then `start` and `end` are unused).
    var isCompletion: Bool
    var events: Range<Int>
    var status: YajlStatus
}
