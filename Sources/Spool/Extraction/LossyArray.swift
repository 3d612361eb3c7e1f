/// A JSON array decoded leniently: the elements that decode, and for every one that does not,
/// why (with its index, path and location).
///
/// ```swift
/// let reviews: LossyArray<Review> = try e <| "reviews"
/// for failure in reviews.failures { log(failure.error) }     // 3:14: error: expected Int at reviews[2].stars, ...
/// ```
public struct LossyArray<Element: JSONDecodable>: JSONDecodable {
    /// The elements that decoded, in order.
    public var elements: [Element]
    /// The elements skipped, with their index in the JSON array and the error.
    public var failures: [(index: Int, error: DecodeError)]

    /// A JSON array; elements that fail to decode are skipped and reported in ``failures``.
    public static func decode(_ e: Extractor) throws -> LossyArray<Element> {
        let token = try e.checkedToken()
        guard token.kind == .arrayStart else { throw e.mismatchFailure(at: e.index, expected: [Element].self) }
        var result = LossyArray(elements: [], failures: [])
        result.elements.reserveCapacity(Int(token.length))
        var position = 0
        try e.context.forEachChild(of: e.index, releasing: true) { child in
            do {
                result.elements.append(try e.decode(Element.self, at: child))
            } catch let error as DecodeError {
                result.failures.append((position, error))
            }
            position += 1
        }
        return result
    }
}
