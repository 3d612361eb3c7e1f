import Foundation
import Spool
@_exported import BandCatalog

// MARK: - Himotoki's tutorial: a band catalog
// The tutorial's models live in the BandCatalog module (Examples/BandCatalog), shared with the
// demo and the benchmarks.

/// A generic wrapper, as in Himotoki's README.
struct DataResponse<T: JSONDecodable>: JSONDecodable {
    let data: T
    let count: Int

    static func decode(_ e: Extractor) throws -> DataResponse<T> {
        try DataResponse(data: e <| "data", count: e <| "count")
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
            plantedOn: e.value("planted", .pattern("MM-dd-yyyy")),
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
