/// The rest of the array read by one stream on the consumer's thread of
/// ``ParallelJSONElements``: from a batch the scan could not vouch for, or from a batch whose
/// stream stopped on an error that only the serial stream's reading can place.
///
/// The stream starts at a batch's first element (or the document's start) and passes over the
/// elements the consumer already has, then hands out the rest, as the serial stream does from
/// there. An error that a resumed stream does not show as the serial stream would
/// (``ResumedErrors/isShownAlike(_:resumedAt:)``) is read again from the document's start.
final class SerialRun<Value> {
    /// How the run's stream (and a stream from the start, to read again) is made.
    private let streams: ElementStreams<Value>
    /// The stream's elements.
    private var elements: JSONElements<Value>
    /// Where the stream resumed; nil when it reads from the document's start.
    private var start: SourceLocation?
    /// The index of the stream's first element in the array.
    private var firstIndex: Int
    /// What the consumer has had, shared with the stream's `.skip` closure.
    private let progress: Progress

    /// A run from the element at `index`, which starts at `start` (from the document's start
    /// when nil), handing out (and reporting as skipped) the elements from index `firstUnread`
    /// on; `report`: the caller's `.skip` closure, if the elements are skipped.
    init(_ streams: ElementStreams<Value>, from start: SourceLocation?, index: Int, firstUnread: Int, report: ((SkippedElement) -> Void)?) {
        self.streams = streams
        self.start = start
        firstIndex = index
        progress = Progress(firstUnread: max(index, firstUnread), report: report)
        elements = streams.elements(from: start, index: index, serially: true, onError: progress.policy)
    }

    /// The serial stream's ``JSONElements/count``: the elements before the stream's first, and
    /// those it handed out, passed over or skipped, and the one it threw an error for, if any.
    var countedElements: Int { firstIndex + elements.count }

    /// Where the array's `]` is, once ``next()`` has returned nil.
    var arrayEnd: SourceLocation? { elements.arrayEnd }

    /// The next element; nil at the array's end.
    func next() throws -> Value? {
        while true {
            do {
                guard let value = try elements.next() else { return nil }
                // (Its index: the stream counts every element it read, this one included.)
                let index = countedElements - 1
                if index < progress.firstUnread { continue }
                progress.firstUnread = index + 1
                return value
            } catch {
                let members = streams.request.isMembers ? streams.path : nil
                guard let resumed = start, !ResumedErrors.isShownAlike(error, resumedAt: resumed, membersOf: members) else {
                    throw error
                }
                // Read again as the serial stream reads, to its error.
                start = nil
                firstIndex = 0
                elements = streams.elements(from: nil, index: 0, serially: true, onError: progress.policy)
            }
        }
    }

    /// The index of the first element the consumer has not had (handed out or reported as
    /// skipped): a stream that reads again passes over those before it, and does not report
    /// their skips again. Shared by the run and its stream's `.skip` closure.
    private final class Progress {
        var firstUnread: Int
        /// The caller's `.skip` closure; nil with `.stop`.
        let report: ((SkippedElement) -> Void)?

        init(firstUnread: Int, report: ((SkippedElement) -> Void)?) {
            self.firstUnread = firstUnread
            self.report = report
        }

        /// The policy of the run's streams: the caller's, for the elements not had yet.
        var policy: ElementErrorPolicy {
            guard let report else { return .stop }
            return .skip { [self] skipped in
                guard skipped.index >= firstUnread else { return }
                firstUnread = skipped.index + 1
                report(skipped)
            }
        }
    }
}
