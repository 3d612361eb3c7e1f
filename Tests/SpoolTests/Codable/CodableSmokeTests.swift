import Foundation
import Spool
import Testing

@Suite("Codable smoke")
struct CodableSmokeTests {
    struct Member: Codable, Equatable {
        let name: String
        let birthDate: String
    }
    struct Band: Codable, Equatable {
        enum Status: String, Codable { case active, hiatus, disbanded = "inactive" }
        let name: String
        let homepage: URL?
        let active: Status
        let members: [Member]
    }
    struct Catalog: Codable, Equatable {
        let objects: [Band]
        let lastUpdated: Date
    }

    @Test func decodesTheCatalogLikeJSONDecoder() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: SeedModelTests.bandsPath))
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        foundation.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            return try Transformer.iso8601.apply(text)
        }
        let spool = StreamingJSONDecoder()
        spool.keyDecodingStrategy = .convertFromSnakeCase
        spool.dateDecodingStrategy = .iso8601
        let expected = try foundation.decode(Catalog.self, from: data)
        let decoded = try spool.decode(Catalog.self, from: data)
        #expect(decoded == expected)
    }

    @Test func errorsArePathedAndLocated() throws {
        struct Review: Decodable { let stars: Int }
        let error = #expect(throws: DecodingError.self) {
            try StreamingJSONDecoder().decode([Review].self, from: .string(#"[{"stars": 5}, {"stars": "4"}]"#))
        }
        guard case .typeMismatch(_, let context)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(context.codingPath.map(\.stringValue) == ["Index 1", "stars"])
        #expect(context.debugDescription == #"1:26: expected Int at [1].stars, found string "4""#)
    }
}
