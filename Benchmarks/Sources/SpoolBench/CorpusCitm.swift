import Foundation

// citm_catalog.json (nativejson-benchmark): a ticketing site's catalog of events and their
// performances, with name tables keyed by id strings. Its keys are camelCase already, so no
// `CodingKeys` are needed. Every field the file has; `description`, `subjectCode`, `subtitle`
// and `seatMapImage` are null throughout, `logo` often, a performance's `name` always.

/// The models of citm_catalog.json.
enum Citm {
    /// The document. The name tables map an id (as a string, the way JSON keys are) to a
    /// display name; `venueNames` is keyed by venue code.
    struct Catalog: Codable, Equatable, Sendable {
        let areaNames: [String: String]
        let audienceSubCategoryNames: [String: String]
        let blockNames: [String: String]
        let events: [String: Event]
        let performances: [Performance]
        let seatCategoryNames: [String: String]
        let subTopicNames: [String: String]
        let subjectNames: [String: String]
        let topicNames: [String: String]
        let topicSubTopics: [String: [Int]]
        let venueNames: [String: String]
    }

    /// A show (a tour, an orchestra's season), filed under topics and subtopics.
    struct Event: Codable, Equatable, Sendable {
        let description: String?
        let id: Int
        let logo: String?
        let name: String
        let subTopicIds: [Int]
        let subjectCode: String?
        let subtitle: String?
        let topicIds: [Int]
    }

    /// One date of an event at a venue (`start`: milliseconds since 1970), with its prices.
    struct Performance: Codable, Equatable, Sendable {
        let eventId: Int
        let id: Int
        let logo: String?
        let name: String?
        let prices: [Price]
        let seatCategories: [SeatCategory]
        let seatMapImage: String?
        let start: Int
        let venueCode: String
    }

    /// The price of a seat category for an audience (`amount` in cents).
    struct Price: Codable, Equatable, Sendable {
        let amount: Int
        let audienceSubCategoryId: Int
        let seatCategoryId: Int
    }

    /// A seat category and the areas of the hall it covers.
    struct SeatCategory: Codable, Equatable, Sendable {
        let areas: [Area]
        let seatCategoryId: Int
    }

    /// An area of the hall and its blocks.
    struct Area: Codable, Equatable, Sendable {
        let areaId: Int
        let blockIds: [Int]
    }
}
