import Foundation
@testable import Spool
import Testing

/// The member lookup's bookkeeping: the keys it has passed belong to one object, and it reads
/// no further into an object than the member it finds.
@Suite("Member lookup")
struct MemberLookupTests {
    /// A lookup in another object that finds nothing notes that object's keys; the next lookup
    /// in the first object must not take them for its own. In the first document `b` holds
    /// the `k` that `a` repeats; in the second, `a`'s `k` comes before the member found last.
    static let documents = [
        #"{"a": {"k": 1, "x": 0, "k": 2}, "b": {"k": 9}}"#,
        #"{"a": {"k": 1, "x": 0}, "b": {"z": 5}}"#,
    ]

    @Test(arguments: documents, [1, 65_536])
    func aLookupInAnotherObjectDoesNotLendItsKeys(_ text: String, _ chunkSize: Int) throws {
        struct Model: JSONDecodable {
            let x: Int, q: Int?, k: Int
            static func decode(_ e: Extractor) throws -> Model {
                let a: Extractor = try e <| "a"
                let b: Extractor = try e <| "b"
                let x: Int = try a <| "x"
                let q: Int? = try b <|? "q"
                return try Model(x: x, q: q, k: a <| "k")
            }
        }
        var options = JSONParsingOptions()
        options.chunkSize = chunkSize
        let model = try Model.decodeValue(from: .string(text), options: options)
        #expect(model.x == 0 && model.q == nil && model.k == 1)
    }

    @Test(arguments: documents)
    func codableModelsToo(_ text: String) throws {
        struct Model: Decodable {
            enum Keys: String, CodingKey { case a, b }
            enum AKeys: String, CodingKey { case k, x }
            enum BKeys: String, CodingKey { case q }
            let x: Int, q: Int?, k: Int
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Keys.self)
                let a = try container.nestedContainer(keyedBy: AKeys.self, forKey: .a)
                let b = try container.nestedContainer(keyedBy: BKeys.self, forKey: .b)
                x = try a.decode(Int.self, forKey: .x)
                q = try b.decodeIfPresent(Int.self, forKey: .q)
                k = try a.decode(Int.self, forKey: .k)
            }
        }
        let model = try StreamingJSONDecoder().decode(Model.self, from: .string(text))
        #expect(model.x == 0 && model.q == nil && model.k == 1)
        let foundation = try JSONDecoder().decode(Model.self, from: Data(text.utf8))
        #expect(foundation.k == 1)
    }

    /// Finding a member must not read its value to the end: a large array is decoded while it
    /// is parsed, and released as it goes. Here the lookup of `items` comes after 40 keys (so
    /// an earlier duplicate is ruled out through the index of key hashes) and after a key the
    /// filter cannot tell from `items` (same length, first and last byte).
    @Test func findingAMemberDoesNotReadItsValueToTheEnd() throws {
        for twin in [false, true] {
            var text = "{" + (twin ? #""ixxxs": 0, "# : "")
            text += (0..<40).map { #""k\#($0)": \#($0)"# }.joined(separator: ", ")
            text += #", "items": ["# + (0..<20_000).map { #"{"id": \#($0)}"# }.joined(separator: ",\n") + "]}"
            var options = JSONParsingOptions()
            options.chunkSize = 4096
            options.parsesInBackground = false
            let wide = try Wide.decodeDocument(JSONReader(.string(text), options: options), rootKeyPath: .root)
            #expect(wide.items.count == 20_000 && wide.items.last?.id == 19_999)
            // The document is 80,000 tokens; the lookup reads no more than a chunk's worth.
            #expect(wide.tokensReadByTheLookup < 2_000, "twin: \(twin)")
        }
    }

    struct Item: JSONDecodable {
        let id: Int
        static func decode(_ e: Extractor) throws -> Item { try Item(id: e <| "id") }
    }

    struct Wide: JSONDecodable {
        let items: [Item]
        let tokensReadByTheLookup: Int
        static func decode(_ e: Extractor) throws -> Wide {
            let _: Int = try e <| "k39"
            let before = e.context.tape.end
            _ = try e.member("items", ofObjectAt: e.index)
            let read = e.context.tape.end - before
            return try Wide(items: e <|| "items", tokensReadByTheLookup: read)
        }
    }
}
