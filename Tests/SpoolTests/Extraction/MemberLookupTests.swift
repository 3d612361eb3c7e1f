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

    // MARK: - Lookups in any order, against the first member with each key

    /// A lookup that finds nothing forgets the members it passed after the hint, but not
    /// those before it: here `a` is passed before the hint (on the way to `b`) and again
    /// after it, and the first one counts after the missing `x` too.
    @Test(arguments: [1, 65_536])
    func aMissingKeyForgetsOnlyWhatItPassedAfterTheHint(_ chunkSize: Int) throws {
        struct Model: JSONDecodable {
            let b: Int, x: Int?, a: Int, c: Int
            static func decode(_ e: Extractor) throws -> Model {
                try Model(b: e <| "b", x: e <|? "x", a: e <| "a", c: e <| "c")
            }
        }
        var options = JSONParsingOptions()
        options.chunkSize = chunkSize
        let model = try Model.decodeValue(from: .string(#"{"a": 1, "b": 2, "a": 3, "c": 4}"#), options: options)
        #expect(model.b == 2 && model.x == nil && model.a == 1 && model.c == 4)
    }

    /// A keyed container takes up its object where it left it after a nested model has
    /// looked up keys in its own objects, and still finds the first of duplicate keys.
    @Test func aContainerGoesOnAfterANestedModel() throws {
        struct Inner: Decodable, Equatable { let b: Int; let a: Int }
        struct Outer: Decodable, Equatable {
            let a: Int, n: Inner, b: Int, m: Inner, c: Int, z: Int?
        }
        let text = #"{"a": 1, "n": {"a": 5, "b": 6, "a": 7}, "b": 2, "m": {"b": 8, "a": 9}, "b": 3, "c": 4, "a": 0}"#
        let spool = try StreamingJSONDecoder().decode(Outer.self, from: .string(text))
        let foundation = try JSONDecoder().decode(Outer.self, from: Data(text.utf8))
        #expect(spool == foundation)
        #expect(spool == Outer(a: 1, n: Inner(b: 6, a: 5), b: 2, m: Inner(b: 8, a: 9), c: 4, z: nil))
    }

    /// Random objects (nested, with duplicate keys) and random lookups in them, interleaved
    /// across objects, by the operators and by keyed containers: each answer is the value of
    /// the first member with the key, or nothing, whatever came before.
    @Test(arguments: 0..<4)
    func randomLookupsFindTheFirstMember(_ seed: Int) throws {
        var random = SplitMix(seed: UInt64(seed))
        for _ in 0..<60 {
            var next = 0
            let tree = LookupTree.random(depth: 0, using: &random, next: &next)
            let plan = (0..<80).map { _ in
                Step(path: Int(random.next() % 4), key: LookupTree.wideKeys[Int(random.next() % 24)])
            }
            let document = #"{"plan": "# + Step.json(plan) + #", "tree": "# + tree.json + "}"
            let expected = LookupTree.answers(plan, in: tree)
            for chunkSize in [1, 7, 65_536] {
                var options = JSONParsingOptions()
                options.chunkSize = chunkSize
                let walk = try Walk.decodeValue(from: .string(document), options: options)
                #expect(walk.answers == expected, "seed \(seed), chunk \(chunkSize): \(document)")
            }
            let codable = try StreamingJSONDecoder().decode(CodableWalk.self, from: .string(document))
            #expect(codable.answers == expected, "seed \(seed), Codable: \(document)")
        }
    }

    /// One lookup of a random walk: `key` in the object reached by following the plan's
    /// first object-valued answers `path` levels down (as deep as there are).
    struct Step: JSONDecodable, Decodable {
        let path: Int
        let key: String
        static func decode(_ e: Extractor) throws -> Step { try Step(path: e <| "path", key: e <| "key") }
        init(path: Int, key: String) {
            self.path = path
            self.key = key
        }
        static func json(_ plan: [Step]) -> String {
            "[" + plan.map { #"{"path": \#($0.path), "key": "\#($0.key)"}"# }.joined(separator: ", ") + "]"
        }
    }

    /// A random object: members with keys from a small set (so keys repeat), each an integer
    /// (numbered in document order, so that every value is distinct) or an object.
    indirect enum LookupTree {
        case number(Int)
        case object([(String, LookupTree)])

        /// Keys of small objects; wide ones (more than 32 members, whose keys the lookups
        /// index by hash) also have `k0` to `k39`.
        static let keys = ["a", "b", "c", "d", "e", "f"]
        static let wideKeys = keys + (0..<40).map { "k\($0)" }

        static func random(depth: Int, using generator: inout SplitMix, next: inout Int) -> LookupTree {
            let wide = generator.next() % 8 == 0
            let count = wide ? 33 + Int(generator.next() % 20) : Int(generator.next() % 7)
            let names = wide ? wideKeys : keys
            var members: [(String, LookupTree)] = []
            for _ in 0..<count {
                let key = names[Int(generator.next() % UInt64(names.count))]
                if depth < 3 && generator.next() % 3 == 0 {
                    members.append((key, random(depth: depth + 1, using: &generator, next: &next)))
                } else {
                    next += 1
                    members.append((key, .number(next)))
                }
            }
            return .object(members)
        }

        var json: String {
            switch self {
            case .number(let value): return "\(value)"
            case .object(let members): return "{" + members.map { #""\#($0.0)": \#($0.1.json)"# }.joined(separator: ", ") + "}"
            }
        }

        /// The first member with `key`.
        func member(_ key: String) -> LookupTree? {
            guard case .object(let members) = self else { return nil }
            return members.first { $0.0 == key }?.1
        }

        /// What each step finds: the number, 0 for an object, -1 for nothing.
        static func answers(_ plan: [Step], in root: LookupTree) -> [Int] {
            var chain = [root]  // the objects entered, outermost first
            return plan.map { step in
                let object = chain[min(step.path, chain.count - 1)]
                chain.removeSubrange((min(step.path, chain.count - 1) + 1)...)
                switch object.member(step.key) {
                case .number(let value)?: return value
                case .object?:
                    chain.append(object.member(step.key) ?? object)
                    return 0
                case nil: return -1
                }
            }
        }
    }

    /// The walk by the operators.
    struct Walk: JSONDecodable {
        let answers: [Int]
        static func decode(_ e: Extractor) throws -> Walk {
            let plan: [Step] = try e <|| "plan"
            var chain: [Extractor] = [try e <| "tree"]
            var answers: [Int] = []
            for step in plan {
                let level = min(step.path, chain.count - 1)
                let object = chain[level]
                chain.removeSubrange((level + 1)...)
                let key = JSONKeyPath([.key(step.key)])
                if let nested: Extractor = try? object <| key, nested.token == JSONToken.objectStart {
                    chain.append(nested)
                    answers.append(0)
                } else {
                    let value: Int? = try object <|? key
                    answers.append(value ?? -1)
                }
            }
            return Walk(answers: answers)
        }
    }

    /// The walk by keyed containers, each kept while the objects inside it are searched.
    struct CodableWalk: Decodable {
        let answers: [Int]
        enum Keys: String, CodingKey { case plan, tree }
        init(from decoder: any Decoder) throws {
            let root = try decoder.container(keyedBy: Keys.self)
            let plan = try root.decode([Step].self, forKey: .plan)
            var chain = [try root.nestedContainer(keyedBy: JSONCodingKeyForTests.self, forKey: .tree)]
            var answers: [Int] = []
            for step in plan {
                let level = min(step.path, chain.count - 1)
                let object = chain[level]
                chain.removeSubrange((level + 1)...)
                let key = JSONCodingKeyForTests(stringValue: step.key)
                if let nested = try? object.nestedContainer(keyedBy: JSONCodingKeyForTests.self, forKey: key) {
                    chain.append(nested)
                    answers.append(0)
                } else {
                    answers.append(try object.decodeIfPresent(Int.self, forKey: key) ?? -1)
                }
            }
            self.answers = answers
        }
    }

    struct JSONCodingKeyForTests: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
