#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Spool

/// A band of the Himotoki tutorial's catalog.
///
/// ```json
/// {"name": "Beatles", "homepage": "http://www.thebeatles.com/", "active": "inactive", "members": [ ... ]}
/// ```
public struct Band: JSONDecodable, Hashable, Sendable {
    /// How active a band is: the tutorial keeps it under the key `active`.
    public enum Status: String, JSONDecodable, Hashable, Sendable {
        /// `"active"`.
        case active
        /// `"hiatus"`.
        case hiatus
        /// `"inactive"`: the tutorial calls the case `Disbanded`.
        case disbanded = "inactive"
    }

    /// `name`.
    public let name: String
    /// `homepage`, when the band has one (the key may be missing or `null`).
    public let homepageURL: URL?
    /// `active`: the band's status.
    public let status: Status
    /// `members`.
    public let members: [BandMember]

    /// Creates a band.
    public init(name: String, homepageURL: URL?, status: Status, members: [BandMember]) {
        self.name = name
        self.homepageURL = homepageURL
        self.status = status
        self.members = members
    }

    /// Reads `name`, `homepage`, `active` and `members` with Himotoki's operators.
    public static func decode(_ e: Extractor) throws -> Band {
        try Band(
            name: e <| "name",
            homepageURL: e <|? "homepage",
            status: e <| "active",
            members: e <|| "members"
        )
    }
}
