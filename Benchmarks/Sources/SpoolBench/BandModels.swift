import Foundation
import Spool

// The band catalog three ways: Spool models (operators, enum, URL, parsed dates), Codable
// structs for JSONDecoder (dates kept as strings: its fastest configuration), and manual
// extraction from JSONSerialization's dictionaries (Himotoki/Argo style, dates as strings).

enum BandStatus: String, JSONDecodable, Codable {
    case active, hiatus, disbanded
}

struct SpoolMember: JSONDecodable {
    let name: String
    let birthDate: Date
    static let birthDates = DateTransformers.pattern("yyyy-MM-dd")
    static func decode(_ e: Extractor) throws -> SpoolMember {
        try SpoolMember(name: e <| "name", birthDate: e.value("birth_date", birthDates))
    }
}

struct SpoolBand: JSONDecodable {
    let name: String
    let homepage: URL?
    let active: Bool
    let status: BandStatus
    let members: [SpoolMember]
    static func decode(_ e: Extractor) throws -> SpoolBand {
        try SpoolBand(
            name: e <| "name", homepage: e <|? "homepage", active: e <| "active", status: e <| "status",
            members: e <|| "members")
    }
}

struct SpoolCatalog: JSONDecodable {
    let objects: [SpoolBand]
    let lastUpdated: Date
    static func decode(_ e: Extractor) throws -> SpoolCatalog {
        try SpoolCatalog(objects: e <|| "objects", lastUpdated: e.value("last_updated", DateTransformers.iso8601))
    }
}

struct CodableMember: Codable {
    let name: String
    let birth_date: String
}

struct CodableBand: Codable {
    let name: String
    let homepage: URL?
    let active: Bool
    let status: BandStatus
    let members: [CodableMember]
}

struct CodableCatalog: Codable {
    let objects: [CodableBand]
    let last_updated: String
}

enum ManualExtraction {
    struct Failure: Error {}

    static func catalog(_ data: Data) throws -> CodableCatalog {
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let objects = root["objects"] as? [[String: Any]], let lastUpdated = root["last_updated"] as? String
        else { throw Failure() }
        let bands = try objects.map { object -> CodableBand in
            guard let name = object["name"] as? String, let active = object["active"] as? Bool,
                let statusText = object["status"] as? String, let status = BandStatus(rawValue: statusText),
                let members = object["members"] as? [[String: Any]]
            else { throw Failure() }
            let homepage = (object["homepage"] as? String).flatMap(URL.init(string:))
            return CodableBand(
                name: name, homepage: homepage, active: active, status: status,
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
