import Foundation
import Testing
@testable import Spool

/// Repeated URL strings are parsed once per session; every URL is still the one
/// `URL(string:)` makes, and a text that is no URL is still refused.
@Suite("Recent URLs")
struct RecentURLsTests {
    @Test func everyTextGivesTheURLOfItsOwnText() {
        var recent = RecentURLs()
        // More texts than slots, each asked three times in turns: collisions replace slots.
        let texts = (0..<600).map { "https://example.com/users/\($0)/avatar.png" }
        for _ in 0..<3 {
            for text in texts {
                #expect(recent.url(for: text) == URL(string: text))
            }
        }
    }

    @Test func repeatedURLsDecodeAsJSONDecoderDecodesThem() throws {
        struct Post: Codable, Equatable {
            let avatar: URL
            let link: URL?
        }
        let text = #"[{"avatar":"https://a.example/1.png","link":"https://b.example"},"#
            + #"{"avatar":"https://a.example/1.png","link":null},{"avatar":"https://a.example/1.png","link":"https://b.example"}]"#
        let data = Data(text.utf8)
        #expect(try StreamingJSONDecoder().decode([Post].self, from: data) == JSONDecoder().decode([Post].self, from: data))
    }

    @Test func aTextThatIsNoURLIsRefusedEveryTime() throws {
        struct Link: Decodable { let url: URL }
        let data = Data(#"[{"url":"http://[::1"},{"url":"http://[::1"}]"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([Link].self, from: data) }
        let error = try #require(throws: DecodingError.self) { try StreamingJSONDecoder().decode([Link].self, from: data) }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["Index 0", "url"])
        #expect(context.debugDescription.contains("Invalid URL string"))
    }
}
