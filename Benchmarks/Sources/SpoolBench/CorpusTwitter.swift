import Foundation

// twitter.json (nativejson-benchmark): a Twitter API v1.1 search response of 100 statuses,
// modelled as an app would model the API, every field the file has. snake_case keys are
// mapped by `CodingKeys`; `TwitterSnake` (CorpusTwitterSnake.swift) is the same response for
// `.convertFromSnakeCase`. Optionality follows the file: a field null or missing in some
// status is optional; the fields null in every status (`geo`, `coordinates`, `place`,
// `contributors`) have the API's documented shapes.

/// The models of twitter.json, with `CodingKeys` for its snake_case keys.
enum Twitter {
    /// The document: `GET search/tweets` for "一".
    struct SearchResponse: Codable, Equatable, Sendable {
        let statuses: [Status]
        let searchMetadata: SearchMetadata

        enum CodingKeys: String, CodingKey {
            case statuses
            case searchMetadata = "search_metadata"
        }
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

        enum CodingKeys: String, CodingKey {
            case completedIn = "completed_in"
            case maxId = "max_id"
            case maxIdStr = "max_id_str"
            case nextResults = "next_results"
            case query
            case refreshUrl = "refresh_url"
            case count
            case sinceId = "since_id"
            case sinceIdStr = "since_id_str"
        }
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

        enum CodingKeys: String, CodingKey {
            case metadata
            case createdAt = "created_at"
            case id
            case idStr = "id_str"
            case text, source, truncated
            case inReplyToStatusId = "in_reply_to_status_id"
            case inReplyToStatusIdStr = "in_reply_to_status_id_str"
            case inReplyToUserId = "in_reply_to_user_id"
            case inReplyToUserIdStr = "in_reply_to_user_id_str"
            case inReplyToScreenName = "in_reply_to_screen_name"
            case user, geo, coordinates, place, contributors
            case retweetedStatus = "retweeted_status"
            case retweetCount = "retweet_count"
            case favoriteCount = "favorite_count"
            case entities, favorited, retweeted
            case possiblySensitive = "possibly_sensitive"
            case lang
        }
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

        enum CodingKeys: String, CodingKey {
            case metadata
            case createdAt = "created_at"
            case id
            case idStr = "id_str"
            case text, source, truncated
            case inReplyToStatusId = "in_reply_to_status_id"
            case inReplyToStatusIdStr = "in_reply_to_status_id_str"
            case inReplyToUserId = "in_reply_to_user_id"
            case inReplyToUserIdStr = "in_reply_to_user_id_str"
            case inReplyToScreenName = "in_reply_to_screen_name"
            case user, geo, coordinates, place, contributors
            case retweetCount = "retweet_count"
            case favoriteCount = "favorite_count"
            case entities, favorited, retweeted
            case possiblySensitive = "possibly_sensitive"
            case lang
        }
    }

    /// Why the search returned a status.
    enum ResultType: String, Codable, Equatable, Sendable {
        case recent, popular, mixed
    }

    /// The search's notes on one status.
    struct StatusMetadata: Codable, Equatable, Sendable {
        let resultType: ResultType
        let isoLanguageCode: String

        enum CodingKeys: String, CodingKey {
            case resultType = "result_type"
            case isoLanguageCode = "iso_language_code"
        }
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

        enum CodingKeys: String, CodingKey {
            case id
            case idStr = "id_str"
            case name
            case screenName = "screen_name"
            case location, description, url, entities, protected
            case followersCount = "followers_count"
            case friendsCount = "friends_count"
            case listedCount = "listed_count"
            case createdAt = "created_at"
            case favouritesCount = "favourites_count"
            case utcOffset = "utc_offset"
            case timeZone = "time_zone"
            case geoEnabled = "geo_enabled"
            case verified
            case statusesCount = "statuses_count"
            case lang
            case contributorsEnabled = "contributors_enabled"
            case isTranslator = "is_translator"
            case isTranslationEnabled = "is_translation_enabled"
            case profileBackgroundColor = "profile_background_color"
            case profileBackgroundImageUrl = "profile_background_image_url"
            case profileBackgroundImageUrlHttps = "profile_background_image_url_https"
            case profileBackgroundTile = "profile_background_tile"
            case profileImageUrl = "profile_image_url"
            case profileImageUrlHttps = "profile_image_url_https"
            case profileBannerUrl = "profile_banner_url"
            case profileLinkColor = "profile_link_color"
            case profileSidebarBorderColor = "profile_sidebar_border_color"
            case profileSidebarFillColor = "profile_sidebar_fill_color"
            case profileTextColor = "profile_text_color"
            case profileUseBackgroundImage = "profile_use_background_image"
            case defaultProfile = "default_profile"
            case defaultProfileImage = "default_profile_image"
            case following
            case followRequestSent = "follow_request_sent"
            case notifications
        }
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

        enum CodingKeys: String, CodingKey {
            case hashtags, symbols, urls
            case userMentions = "user_mentions"
            case media
        }
    }

    /// A `#hashtag` and where it is in the text (`indices`: first and past-the-end).
    struct Hashtag: Codable, Equatable, Sendable {
        let text: String
        let indices: [Int]
    }

    /// A `$cashtag` and where it is in the text.
    struct Symbol: Codable, Equatable, Sendable {
        let text: String
        let indices: [Int]
    }

    /// A t.co link in the text, what it expands to and what is shown.
    struct URLEntity: Codable, Equatable, Sendable {
        let url: URL
        let expandedUrl: URL
        let displayUrl: String
        let indices: [Int]

        enum CodingKeys: String, CodingKey {
            case url
            case expandedUrl = "expanded_url"
            case displayUrl = "display_url"
            case indices
        }
    }

    /// An `@mention`.
    struct UserMention: Codable, Equatable, Sendable {
        let screenName: String
        let name: String
        let id: Int
        let idStr: String
        let indices: [Int]

        enum CodingKeys: String, CodingKey {
            case screenName = "screen_name"
            case name, id
            case idStr = "id_str"
            case indices
        }
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

        enum CodingKeys: String, CodingKey {
            case id
            case idStr = "id_str"
            case indices
            case mediaUrl = "media_url"
            case mediaUrlHttps = "media_url_https"
            case url
            case displayUrl = "display_url"
            case expandedUrl = "expanded_url"
            case type, sizes
            case sourceStatusId = "source_status_id"
            case sourceStatusIdStr = "source_status_id_str"
        }
    }

    /// The sizes a photo is served in.
    struct MediaSizes: Codable, Equatable, Sendable {
        let medium: MediaSize
        let small: MediaSize
        let thumb: MediaSize
        let large: MediaSize
    }

    /// How a photo was scaled to a size.
    enum Resize: String, Codable, Equatable, Sendable {
        case fit, crop
    }

    /// One size of a photo, in pixels.
    struct MediaSize: Codable, Equatable, Sendable {
        let w: Int
        let h: Int
        let resize: Resize
    }

    /// A GeoJSON point (`coordinates` and the deprecated `geo`): null throughout the file.
    struct Point: Codable, Equatable, Sendable {
        let type: String
        let coordinates: [Double]
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

        enum CodingKeys: String, CodingKey {
            case id, url
            case placeType = "place_type"
            case name
            case fullName = "full_name"
            case countryCode = "country_code"
            case country
            case boundingBox = "bounding_box"
        }
    }

    /// A GeoJSON polygon around a place.
    struct BoundingBox: Codable, Equatable, Sendable {
        let type: String
        let coordinates: [[[Double]]]
    }

    /// A user who wrote a status on the author's behalf: null throughout the file.
    struct Contributor: Codable, Equatable, Sendable {
        let id: Int
        let idStr: String
        let screenName: String

        enum CodingKeys: String, CodingKey {
            case id
            case idStr = "id_str"
            case screenName = "screen_name"
        }
    }
}
