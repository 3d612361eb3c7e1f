import Foundation
import Spool

// The band catalog three ways: Spool models (operators, enum, URL, parsed dates), Codable
// structs for JSONDecoder (dates kept as strings: its fastest configuration), and manual
// extraction from JSONSerialization's dictionaries (Himotoki/Argo style, dates as strings).

// Spool's models are the tutorial's, from the BandCatalog module (`Band`, `BandMember`,
// `BandResponse`), the same ones `spool bands` and the tests decode.

/// The status for the Codable and manual peers, read from `active` as the tutorial does.
enum CodableStatus: String, Codable {
    case active, hiatus, disbanded = "inactive"
}

struct CodableMember: Codable, Equatable {
    let name: String
    let birth_date: String
}

struct CodableBand: Codable, Equatable {
    let name: String
    let homepage: URL?
    let active: CodableStatus
    let members: [CodableMember]
}

struct CodableCatalog: Codable, Equatable {
    let objects: [CodableBand]
    let last_updated: String
}

/// The Codable structs as an app using `.convertFromSnakeCase` writes them: camelCase
/// properties, no `CodingKeys` (for the key-strategy rows of `bench.py --codable`).
struct SnakeMember: Codable, Equatable {
    let name: String
    let birthDate: String
}

struct SnakeBand: Codable, Equatable {
    let name: String
    let homepage: URL?
    let active: CodableStatus
    let members: [SnakeMember]
}

struct SnakeCatalog: Codable, Equatable {
    let objects: [SnakeBand]
    let lastUpdated: String
}

enum ManualExtraction {
    struct Failure: Error {}

    static func catalog(_ data: Data) throws -> CodableCatalog {
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let objects = root["objects"] as? [[String: Any]], let lastUpdated = root["last_updated"] as? String
        else { throw Failure() }
        let bands = try objects.map { object -> CodableBand in
            guard let name = object["name"] as? String,
                let statusText = object["active"] as? String, let status = CodableStatus(rawValue: statusText),
                let members = object["members"] as? [[String: Any]]
            else { throw Failure() }
            let homepage = (object["homepage"] as? String).flatMap(URL.init(string:))
            return CodableBand(
                name: name, homepage: homepage, active: status,
                members: try members.map { member in
                    guard let name = member["name"] as? String, let birth = member["birth_date"] as? String else {
                        throw Failure()
                    }
                    return CodableMember(name: name, birth_date: birth)
                })
        }
        return CodableCatalog(objects: bands, last_updated: lastUpdated)
    }
}

// The same catalog with parsed birth dates, for the Codable comparisons with dates.

struct DatedMember: Codable {
    let name: String
    let birth_date: Date
}

struct DatedBand: Codable {
    let name: String
    let homepage: URL?
    let active: CodableStatus
    let members: [DatedMember]
}

struct DatedCatalog: Codable {
    let objects: [DatedBand]
    let last_updated: String
}
