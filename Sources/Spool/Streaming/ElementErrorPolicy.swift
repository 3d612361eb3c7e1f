/// What a stream does when an element (or a member's value) does not decode: the `onError:`
/// argument of ``JSONStream/elements(of:at:onError:parallelism:)`` and the other element requests.
///
/// ```swift
/// let people = JSONStream(.string(json)).elements(of: BandMember.self, onError: .skip { skipped in
///     print(skipped)   // skipped element 1 at 1:43: ...
/// })
/// ```
public enum ElementErrorPolicy {
    /// Throw the ``DecodeError``; the stream ends.
    case stop
    /// Skip the element, hand its report to the closure, and go on.
    case skip((SkippedElement) -> Void)

    /// The core's skip hook for this policy: reports and goes on for `.skip`, stops for `.stop`.
    func skipper(_ core: StreamCore) -> (Int, Int, any Error) -> Bool {
        { index, start, error in
            guard case .skip(let report) = self else { return false }
            let location = core.reader.tape.location(at: start)
            report(SkippedElement(index: index, location: location, error: DecodeError(located: error, at: location)))
            return true
        }
    }
}

/// An element that did not decode, as ``ElementErrorPolicy/skip(_:)`` reports it.
public struct SkippedElement: CustomStringConvertible {
    /// The element's 0-based index in its array (or among the top-level values).
    public var index: Int
    /// Where the element starts.
    public var location: SourceLocation?
    /// Why it did not decode. For a `Decodable` element, the located error under the
    /// `DecodingError` (its `underlyingError`).
    public var error: DecodeError
    /// `skipped element 3 at 12:5: 12:18: error: ...`
    public var description: String {
        "skipped element \(index)" + (location.map { " at \($0)" } ?? "") + ": \(error)"
    }
}
