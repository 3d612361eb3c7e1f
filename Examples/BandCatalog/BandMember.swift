#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Spool

/// A member of a ``Band``.
///
/// ```json
/// {"name": "George Harrison", "birth_date": "1943-02-25"}
/// ```
public struct BandMember: JSONDecodable, Hashable, Sendable {
    /// `name`.
    public let name: String
    /// `birth_date`, a `yyyy-MM-dd` day at midnight UTC.
    public let birthDate: Date

    /// Creates a member.
    public init(name: String, birthDate: Date) {
        self.name = name
        self.birthDate = birthDate
    }

    /// `birth_date`'s format, compiled once and parsed without a `DateFormatter`: the
    /// transformer, or the `UsageError` for a pattern Spool does not read (a stored
    /// property cannot throw), which `decode(_:)` then throws.
    public static let birthDates = Result { try Transformer.pattern("yyyy-MM-dd") }

    /// Reads `name` and `birth_date`.
    public static func decode(_ e: Extractor) throws -> BandMember {
        try BandMember(name: e <| "name", birthDate: e.value("birth_date", birthDates.get()))
    }
}
