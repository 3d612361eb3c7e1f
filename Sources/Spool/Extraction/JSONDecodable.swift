/// A type that decodes itself from a JSON value read by an ``Extractor``.
///
/// ```swift
/// struct BandMember: JSONDecodable {
///     let name: String
///     let birthDate: Date
///
///     static func decode(_ e: Extractor) throws -> BandMember {
///         try BandMember(name: e <| "name", birthDate: Transformer.pattern("yyyy-MM-dd").apply(e <| "birth_date"))
///     }
/// }
/// ```
///
/// Named so it never clashes with `Swift.Decodable`: a Himotoki model ports by renaming its
/// `Decodable` conformance to `JSONDecodable`.
public protocol JSONDecodable {
    /// Creates a value from the JSON value `e` reads.
    /// - Throws: ``DecodeError``, or any error of your own (it is wrapped with the value's path
    ///   and location).
    static func decode(_ e: Extractor) throws -> Self
}
