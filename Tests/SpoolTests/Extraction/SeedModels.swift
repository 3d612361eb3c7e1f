import Foundation
import Spool

// MARK: - Himotoki's tutorial: a band catalog

enum Status: String, JSONDecodable {
    case active, hiatus, disbanded
}

struct BandMember: JSONDecodable, Equatable {
    let name: String
    let birthDate: Date

    static let birthDates = DateTransformers.pattern("yyyy-MM-dd")

    static func decode(_ e: Extractor) throws -> BandMember {
        try BandMember(name: e <| "name", birthDate: e.value("birth_date", birthDates))
    }
}

struct Band: JSONDecodable {
    let name: String
    let homepage: URL?
    let active: Bool
    let status: Status
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

struct BandResponse: JSONDecodable {
    let objects: [Band]
    let lastUpdated: Date

    static func decode(_ e: Extractor) throws -> BandResponse {
        try BandResponse(objects: e <|| "objects", lastUpdated: e.value("last_updated", DateTransformers.iso8601))
    }
}

/// A generic wrapper, as in Himotoki's README.
struct Response<T: JSONDecodable>: JSONDecodable {
    let data: T
    let count: Int

    static func decode(_ e: Extractor) throws -> Response<T> {
        try Response(data: e <| "data", count: e <| "count")
    }
}

struct Group: JSONDecodable {
    let name: String
    let floor: Int
    let locationName: String
    let optional: [String]?

    static func decode(_ e: Extractor) throws -> Group {
        try Group(
            name: e <| "name",
            floor: e <| "floor",
            locationName: e <| ["location", "name"],  // a nested object
            optional: e <||? "optional"
        )
    }
}

// MARK: - Ladybug's trees

struct Leaf: JSONDecodable, Equatable {
    let size: Int
    let color: String

    static func decode(_ e: Extractor) throws -> Leaf {
        try Leaf(size: e <| "size", color: e <| "color")
    }
}

struct Tree: JSONDecodable {
    let name: String
    let plantedOn: Date
    let leaves: [Leaf]
    let heights: [String: Double]

    static func decode(_ e: Extractor) throws -> Tree {
        try Tree(
            name: e <| ["tree_names", "colloquial", 0],
            plantedOn: e.value("planted", DateTransformers.pattern("MM-dd-yyyy")),
            leaves: e <|| "leaves",
            heights: e <|-| "heights"
        )
    }
}

// MARK: - The hand-written blog example

struct Author: JSONDecodable {
    let name: String
    let twitterURL: URL?

    static func decode(_ e: Extractor) throws -> Author {
        try Author(name: e <| "name", twitterURL: e <|? "twitter_url")
    }
}

struct Review: JSONDecodable {
    let stars: Int
    let text: String

    static func decode(_ e: Extractor) throws -> Review {
        let stars: Int = try e <| "stars"
        guard (1...5).contains(stars) else { throw e.error("stars must be 1 to 5, not \(stars)") }
        return try Review(stars: stars, text: e <| "text")
    }
}

struct Book: JSONDecodable {
    let title: String
    let author: Author
    let reviews: LossyArray<Review>
    let tags: [String]

    static func decode(_ e: Extractor) throws -> Book {
        try Book(title: e <| "title", author: e <| "author", reviews: e <| "reviews", tags: e.value("tags", default: []))
    }
}
