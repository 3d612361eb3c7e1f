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
    /// Elements to pass over before handing any out.
    private var toSkip: Int
    /// The index of the stream's first element in the array.
    private var firstIndex: Int

    /// A run from the element at `index`, which starts at `start` (from the document's start
    /// when nil), passing over `skip` elements.
    init(_ streams: ElementStreams<Value>, from start: SourceLocation?, index: Int, skipping skip: Int) {
        self.streams = streams
        self.start = start
        toSkip = max(0, skip)
        firstIndex = index
        elements = streams.elements(from: start, index: index, serially: true)
    }

    /// The serial stream's ``JSONElements/count``: the elements before the stream's first, and
    /// those it handed out or passed over, and the one it threw an error for, if any.
    var countedElements: Int { firstIndex + elements.count }

    /// Where the array's `]` is, once ``next(handedOut:)`` has returned nil.
    var arrayEnd: SourceLocation? { elements.arrayEnd }

    /// The next element; nil at the array's end. `handedOut` is how many elements the consumer
    /// has had, for a run read again from the document's start.
    func next(handedOut: Int) throws -> Value? {
        while true {
            do {
                guard let value = try elements.next() else { return nil }
                if toSkip > 0 {
                    toSkip -= 1
                    continue
                }
                return value
            } catch {
                guard let resumed = start, !ResumedErrors.isShownAlike(error, resumedAt: resumed) else { throw error }
                // Read again as the serial stream reads, to its error.
                start = nil
                toSkip = handedOut
                firstIndex = 0
                elements = streams.elements(from: nil, index: 0, serially: true)
            }
        }
    }
}
