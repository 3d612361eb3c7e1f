#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The URLs a decoding session parsed last, by their text: documents repeat URLs (a user's
/// avatar in every one of their posts, a site's links), and `URL(string:)` costs about 4,000
/// instructions where finding the text here costs a few hundred. twitter.json holds 1,170
/// URL strings, 542 of them distinct.
///
/// A small direct-mapped table (a slot per hash of the text, the newest text wins), so memory
/// stays bounded however many URLs a stream holds. A `URL` is an immutable value: the one
/// found is the one `URL(string:)` would make. A session whose URLs do not repeat (fewer than
/// one in eight of its first 256 found here) stops looking: the band catalog's homepages, all
/// distinct, would pay 1 % more for the table.
struct RecentURLs {
    private static let slotCount = 256
    private var slots: [(text: String, url: URL)?] = []
    private var lookups = 0
    private var hits = 0

    /// The URL for `text`, as `URL(string:)` makes it (nil when it makes none).
    mutating func url(for text: String) -> URL? {
        guard lookups < Self.slotCount || hits &* 8 >= lookups else { return URL(string: text) }
        if slots.isEmpty { slots = Array(repeating: nil, count: Self.slotCount) }
        lookups &+= 1
        var text = text
        let slot = text.withUTF8 { Self.hash($0) } & (Self.slotCount &- 1)
        if let entry = slots[slot], entry.text == text {
            hits &+= 1
            return entry.url
        }
        guard let url = URL(string: text) else { return nil }
        slots[slot] = (text, url)
        return url
    }

    /// FNV-1a over the bytes.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return Int(truncatingIfNeeded: hash ^ (hash >> 32))
    }
}
