#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Spool

// The band catalog of the Himotoki tutorial, as `spool bands` decodes it.

enum BandStatus: String, JSONDecodable {
    case active, hiatus, disbanded
}

struct BandMember: JSONDecodable {
    let name: String
    let birthDate: Date
    /// The date as written, for printing.
    let birthDateText: String

    static let birthDates = DateTransformers.pattern("yyyy-MM-dd")

    static func decode(_ e: Extractor) throws -> BandMember {
        try BandMember(
            name: e <| "name", birthDate: e.value("birth_date", birthDates), birthDateText: e <| "birth_date")
    }
}

struct Band: JSONDecodable {
    let name: String
    let homepage: URL?
    let active: Bool
    let status: BandStatus
    let members: [BandMember]

    static func decode(_ e: Extractor) throws -> Band {
        try Band(
            name: e <| "name",
            homepage: e <|? "homepage",
            active: e <| "active",
            status: e <| "status",
            members: e <|| "members"
        )
    }
}
