#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Spool

/// The Himotoki tutorial's generic response: a page of `objects` and when the catalog was
/// last updated.
///
/// ```json
/// {"objects": [ ... ], "last_updated": "2016-05-17T22:43:04.000000+00:00"}
/// ```
public struct Response<T: JSONDecodable>: JSONDecodable {
    /// The page's items.
    public let objects: [T]
    /// `last_updated`, ISO 8601 with fractional seconds and an offset.
    public let lastUpdated: Date

    /// Creates a response.
    public init(objects: [T], lastUpdated: Date) {
        self.objects = objects
        self.lastUpdated = lastUpdated
    }

    /// Reads `objects` and `last_updated`.
    public static func decode(_ e: Extractor) throws -> Response<T> {
        try Response(objects: e <|| "objects", lastUpdated: e.value("last_updated", .iso8601))
    }
}

/// The tutorial's catalog of bands.
public typealias BandResponse = Response<Band>
