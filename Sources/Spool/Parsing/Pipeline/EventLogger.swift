/// The background thread's half of a ``BackgroundPipeline`` whose tape writer stays on the
/// reader's thread: a ``YajlFeed`` whose calls go to yajl with the logging table, each logged
/// (``ParseCall``, its events in the batch's ``ParseEventLog``) for the reader's
/// ``TapeBuilder`` to consume through the same checks as its own calls.
///
/// It decides its calls by the feed's rules, as a tape builder would. Without a writer, it
/// finds the token yajl left unfinished itself: the first byte after the last event that
/// cannot come between tokens (a comment counts as a token here). It stops calling yajl at
/// the first error or form feed (the consumer reports it), and goes on reading for the
/// error's context.
final class EventLogger {
    let feed: YajlFeed
    private let recorder: YajlEventRecorder

    /// Whether calls to yajl have stopped (an error, a form feed, the end).
    @exclusivity(unchecked) private var stopped = false
    /// How far the bytes after the last event were looked at for an unfinished token.
    @exclusivity(unchecked) private var tailScanned = 0

    init(options: JSONParsingOptions) {
        recorder = YajlEventRecorder(options: options)
        feed = YajlFeed(options: options, window: YajlFeed.makeWindow(options: options), recorder: recorder)
    }

    /// Where calls and events go: a batch's log.
    var eventLog: ParseEventLog {
        get { recorder.state.log }
        set { recorder.state.log = newValue }
    }

    /// Reads up to one chunk from `source` and logs the calls it allows; at the end of the
    /// input, finishes instead. Returns false once the input has ended.
    func readChunk(from source: any ByteSource) throws(InputError) -> Bool {
        if try feed.read(from: source) == 0 {
            finish()
            return false
        }
        logAvailable(force: false)
        return true
    }

    /// Logs the calls the feed allows over the bytes received (`force`: the input has ended).
    private func logAvailable(force: Bool) {
        if stopped { return }
        if case .waiting = feed.checkStart(inputEnded: force) { return }
        guard feed.hasCallDue(force: force) else { return }
        feed.makeCalls(force: force) { end, badWhitespace in
            logCall(to: end, badWhitespace: badWhitespace)
            return !stopped
        }
    }

    /// A logged call: yajl's events and status go to the log for the reader's builder to
    /// consume and check.
    private func logCall(to end: Int, badWhitespace: Int?) {
        let start = feed.parsedEnd
        let log = recorder.state.log
        let before = log.count
        let status = feed.call(to: end) { bytes, count, base in recorder.parse(bytes, count: count, base: base) } ?? .ok
        log.calls.append(
            ParseCall(
                start: start, end: end, badWhitespace: badWhitespace, isCompletion: false, events: before..<log.count,
                status: status))
        if case .ok = status {} else { stopped = true }
        if badWhitespace != nil || end > YajlFeed.maxInputLength { stopped = true }
        if log.count > before {
            feed.pendingStart = nil
            tailScanned = max(recorder.state.lastEventEnd, start)
        }
        guard feed.pendingStart == nil else { return }
        let window = feed.window
        var p = max(tailScanned, window.base)
        while p < end {
            switch window[p] {
            case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ","), UInt8(ascii: ":"): p += 1
            default:
                feed.pendingStart = p
                tailScanned = p
                return
            }
        }
        tailScanned = p
    }

    /// Ends the input: logs what is held back, then yajl's completion.
    private func finish() {
        logAvailable(force: true)
        if !stopped {
            let log = recorder.state.log
            let before = log.count
            let status = recorder.complete()
            log.calls.append(
                ParseCall(start: 0, end: 0, badWhitespace: nil, isCompletion: true, events: before..<log.count, status: status))
        }
        stopped = true
    }

    /// Drops input bytes not needed any more: only the unfinished token's, for the rules of
    /// the next calls.
    func compactWindow() {
        let parsedEnd = feed.parsedEnd
        feed.discard(below: stopped ? feed.window.end : min(parsedEnd, feed.pendingStart ?? parsedEnd))
    }
}
