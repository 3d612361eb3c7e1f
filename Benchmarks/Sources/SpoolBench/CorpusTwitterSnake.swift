import Foundation

// twitter.json again, as an app that sets `keyDecodingStrategy = .convertFromSnakeCase` models
// it: the same fields as `Twitter` (CorpusTwitter.swift), camelCase names and no `CodingKeys`
// (`profile_image_url_https` becomes `profileImageUrlHttps`). The types whose keys have no
// underscore are `Twitter`'s own.

/// The models of twitter.json for `.convertFromSnakeCase`: no `CodingKeys`.
enum TwitterSnake {
    typealias Hashtag = Twitter.Hashtag
    typealias Symbol = Twitter.Symbol
    typealias MediaSizes = Twitter.MediaSizes
    typealias ResultType = Twitter.ResultType
    typealias Point = Twitter.Point
    typealias BoundingBox = Twitter.BoundingBox

    /// The document: `GET search/tweets` for "一".
    struct SearchResponse: Codable, Equatable, Sendable {
        let statuses: [Status]
        let searchMetadata: SearchMetadata
    }

    /// About the search: its query, the ids it spans and the requests for more.
    struct SearchMetadata: Codable, Equatable, Sendable {
        let completedIn: Double
        let maxId: Int
        let maxIdStr: String
        let nextResults: String
        let query: String
        let refreshUrl: String
        let count: Int
        let sinceId: Int
        let sinceIdStr: String
    }

    /// A tweet; `retweetedStatus` is the tweet it retweets, if it is a retweet.
    struct Status: Codable, Equatable, Sendable {
        let metadata: StatusMetadata
        let createdAt: String
        let id: Int
        let idStr: String
        let text: String
        let source: String
        let truncated: Bool
        let inReplyToStatusId: Int?
        let inReplyToStatusIdStr: String?
        let inReplyToUserId: Int?
        let inReplyToUserIdStr: String?
        let inReplyToScreenName: String?
        let user: User
        let geo: Point?
        let coordinates: Point?
        let place: Place?
        let contributors: [Contributor]?
        let retweetedStatus: RetweetedStatus?
        let retweetCount: Int
        let favoriteCount: Int
        let entities: Entities
        let favorited: Bool
        let retweeted: Bool
        let possiblySensitive: Bool?
        let lang: String
    }

    /// The tweet a retweet retweets: a `Status` without a retweet of its own (a struct cannot
    /// hold itself).
    struct RetweetedStatus: Codable, Equatable, Sendable {
        let metadata: StatusMetadata
        let createdAt: String
        let id: Int
        let idStr: String
        let text: String
        let source: String
        let truncated: Bool
        let inReplyToStatusId: Int?
        let inReplyToStatusIdStr: String?
        let inReplyToUserId: Int?
        let inReplyToUserIdStr: String?
        let inReplyToScreenName: String?
        let user: User
        let geo: Point?
        let coordinates: Point?
        let place: Place?
        let contributors: [Contributor]?
        let retweetCount: Int
        let favoriteCount: Int
        let entities: Entities
        let favorited: Bool
        let retweeted: Bool
        let possiblySensitive: Bool?
        let lang: String
    }

    /// The search's notes on one status.
    struct StatusMetadata: Codable, Equatable, Sendable {
        let resultType: ResultType
        let isoLanguageCode: String
    }

    /// The author of a status.
    struct User: Codable, Equatable, Sendable {
        let id: Int
        let idStr: String
        let name: String
        let screenName: String
        let location: String
        let description: String
        let url: URL?
        let entities: UserEntities
        let protected: Bool
        let followersCount: Int
        let friendsCount: Int
        let listedCount: Int
        let createdAt: String
        let favouritesCount: Int
        let utcOffset: Int?
        let timeZone: String?
        let geoEnabled: Bool
        let verified: Bool
        let statusesCount: Int
        let lang: String
        let contributorsEnabled: Bool
        let isTranslator: Bool
        let isTranslationEnabled: Bool
        let profileBackgroundColor: String
        let profileBackgroundImageUrl: URL
        let profileBackgroundImageUrlHttps: URL
        let profileBackgroundTile: Bool
        let profileImageUrl: URL
        let profileImageUrlHttps: URL
        let profileBannerUrl: URL?
        let profileLinkColor: String
        let profileSidebarBorderColor: String
        let profileSidebarFillColor: String
        let profileTextColor: String
        let profileUseBackgroundImage: Bool
        let defaultProfile: Bool
        let defaultProfileImage: Bool
        let following: Bool
        let followRequestSent: Bool
        let notifications: Bool
    }

    /// The links in a user's profile URL and description.
    struct UserEntities: Codable, Equatable, Sendable {
        let url: URLEntities?
        let description: URLEntities
    }

    /// A list of links.
    struct URLEntities: Codable, Equatable, Sendable {
        let urls: [URLEntity]
    }

    /// What a status's text holds besides words.
    struct Entities: Codable, Equatable, Sendable {
        let hashtags: [Hashtag]
        let symbols: [Symbol]
        let urls: [URLEntity]
        let userMentions: [UserMention]
        let media: [Media]?
    }

    /// A t.co link in the text, what it expands to and what is shown.
    struct URLEntity: Codable, Equatable, Sendable {
        let url: URL
        let expandedUrl: URL
        let displayUrl: String
        let indices: [Int]
    }

    /// An `@mention`.
    struct UserMention: Codable, Equatable, Sendable {
        let screenName: String
        let name: String
        let id: Int
        let idStr: String
        let indices: [Int]
    }

    /// An attached photo; `sourceStatusId` is the status it was first posted with.
    struct Media: Codable, Equatable, Sendable {
        let id: Int
        let idStr: String
        let indices: [Int]
        let mediaUrl: URL
        let mediaUrlHttps: URL
        let url: URL
        let displayUrl: String
        let expandedUrl: URL
        let type: String
        let sizes: MediaSizes
        let sourceStatusId: Int?
        let sourceStatusIdStr: String?
    }

    /// The place a status is tagged with: null throughout the file.
    struct Place: Codable, Equatable, Sendable {
        let id: String
        let url: URL
        let placeType: String
        let name: String
        let fullName: String
        let countryCode: String
        let country: String
        let boundingBox: BoundingBox?
    }

    /// A user who wrote a status on the author's behalf: null throughout the file.
    struct Contributor: Codable, Equatable, Sendable {
        let id: Int
        let idStr: String
        let screenName: String
    }
}
