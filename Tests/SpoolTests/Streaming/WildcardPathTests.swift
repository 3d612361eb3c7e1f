import Foundation
@testable import Spool
import Testing

/// Issue 24, item 3: `[*]` in a stream's path crosses every element of an array (or every
/// member's value of an object), in document order and bounded memory.
@Suite("Wildcard paths")
struct WildcardPathTests {
    // MARK: - The path

    @Test func parsesAndPrintsTheWildcard() throws {
        let path = try JSONKeyPath(parsing: "objects[*].members[*].tags")
        #expect(path.components == [.key("objects"), .wildcard, .key("members"), .wildcard, .key("tags")])
        #expect(path.description == "objects[*].members[*].tags")
        #expect(try JSONKeyPath(parsing: path.description) == path)
        let literal: JSONKeyPath = ["objects", .wildcard, "members"]
        #expect(literal == (try JSONKeyPath(parsing: "objects[*].members")))
        #expect((try JSONKeyPath(parsing: "[*]")).components == [.wildcard])
        // A key spelled "*" is a key, not a wildcard.
        #expect((try JSONKeyPath(parsing: #"a["*"]"#)).components == [.key("a"), .key("*")])
    }

    @Test(arguments: ["a[*", "a[**]", "a[* ]", "a[*x]"])
    func refusesABrokenWildcard(_ text: String) {
        #expect(throws: JSONKeyPath.SyntaxError.self) { try JSONKeyPath(parsing: text) }
    }

    @Test func aPathToOneValueRefusesTheWildcard() throws {
        let json = #"{"objects": [{"name": "A"}]}"#
        let extractor = try JSONValue.decodeValue(from: .string(json))
        #expect(extractor != .null)
        struct Names: JSONDecodable {
            static func decode(_ e: Extractor) throws -> Names {
                let _: String = try e <| ["objects", .wildcard, "name"]
                return Names()
            }
        }
        // (Inside a model's decode, as any error thrown there, located.)
        let error = try #require(throws: DecodeError.self) { _ = try Names.decodeValue(from: .string(json)) }
        #expect(error.message.hasPrefix(#"invalid path "objects[*].name": [*] selects many values"#), "\(error.message)")
        #expect(throws: JSONKeyPath.SyntaxError.self) {
            _ = try StreamingJSONDecoder().decode([String].self, from: Data(json.utf8), rootKeyPath: ["objects", .wildcard])
        }
    }

    // MARK: - Streaming

    static let catalog = """
        {"objects": [
          {"name": "A", "members": [{"name": "a1"}, {"name": "a2"}], "after": [1, {"members": [9]}]},
          {"name": "B", "members": []},
          {"members": [{"name": "c1"}], "name": "C ] [ \\" members"}
        ], "last_updated": "2016-05-17T22:43:04Z"}
        """

    struct Member: JSONDecodable, Decodable, Equatable {
        let name: String
        static func decode(_ e: Extractor) throws -> Member { try Member(name: e <| "name") }
    }

    @Test func streamsEveryMemberOfEveryBandInOrder() throws {
        let stream = JSONStream(.string(Self.catalog))
        let members = stream.elements(of: Member.self, at: ["objects", .wildcard, "members"])
        var names: [String] = []
        while let member = try members.next() { names.append(member.name) }
        #expect(names == ["a1", "a2", "c1"])
        #expect(members.count == 3)
        // The remainder keeps what the path did not cross: the crossed array, emptied.
        let remainder = try stream.remainder()
        #expect(try remainder <| "last_updated" == "2016-05-17T22:43:04Z")
        #expect(try remainder.compactJSON() == #"{"objects":[],"last_updated":"2016-05-17T22:43:04Z"}"#)
    }

    @Test func countsAcrossEveryMatch() throws {
        #expect(try JSONStream(.string(Self.catalog)).count(at: ["objects", .wildcard, "members"]) == 3)
        #expect(try JSONStream(.string(#"{"objects": []}"#)).count(at: ["objects", .wildcard, "members"]) == 0)
        #expect(try JSONStream(.string(#"{"objects": [{"members": []}, {"members": []}]}"#)).count(at: ["objects", .wildcard, "members"]) == 0)
    }

    @Test func crossesObjectsAndNestedWildcards() throws {
        let json = #"{"groups": {"x": {"people": [{"tags": [1, 2]}, {"tags": []}]}, "y": {"people": [{"tags": [3]}]}}}"#
        let tags = try JSONStream(.string(json)).elements(of: Int.self, at: JSONKeyPath(parsing: "groups[*].people[*].tags")).map { try $0.get() }
        #expect(tags == [1, 2, 3])
        // A wildcard last: the elements of every element.
        let flat = try JSONStream(.string("[[1, 2], [], [3]]")).elements(of: Int.self, at: [.wildcard]).map { try $0.get() }
        #expect(flat == [1, 2, 3])
        // Members of every object a wildcard reaches, with their keys.
        let members = JSONStream(.string(#"[{"a": 1, "b": 2}, {}, {"c": 3}]"#)).members(of: Int.self, at: [.wildcard])
        var pairs: [String] = []
        while let (key, value) = try members.next() { pairs.append("\(key)=\(value)") }
        #expect(pairs == ["a=1", "b=2", "c=3"])
    }

    @Test func errorsNameTheConcreteElement() throws {
        let json = #"{"objects": [{"members": [{"name": "a"}]}, {"members": [{"name": "b"}, {"name": 7}]}]}"#
        let members = JSONStream(.string(json)).elements(of: Member.self, at: ["objects", .wildcard, "members"])
        #expect(try members.next()?.name == "a")
        #expect(try members.next()?.name == "b")
        let error = try #require(throws: DecodeError.self) { _ = try members.next() }
        #expect(error.keyPath.description == "objects[1].members[1].name")
        #expect(error.location?.line == 1)

        let missing = #"{"objects": [{"members": []}, {"name": "B", "member": []}]}"#
        let noKey = try #require(throws: DecodeError.self) {
            _ = try JSONStream(.string(missing)).count(at: ["objects", .wildcard, "members"])
        }
        #expect(noKey.code == .missingKey)
        #expect(noKey.keyPath.description == "objects[1].members")
        #expect(noKey.message.contains("in objects[1] (streaming objects[*].members)"), "\(noKey.message)")
        #expect(noKey.message.hasSuffix(#"did you mean "member"?"#), "\(noKey.message)")

        let notArray = try #require(throws: DecodeError.self) {
            _ = try JSONStream(.string(#"{"objects": [{"members": []}, {"members": 3}]}"#)).count(at: ["objects", .wildcard, "members"])
        }
        #expect(notArray.code == .typeMismatch)
        #expect(notArray.keyPath.description == "objects[1].members")
    }

    @Test func skipReportsNameTheConcreteElement() throws {
        let json = #"{"objects": [{"members": [{"name": "a"}]}, {"members": [{"name": 7}, {"name": "c"}]}]}"#
        var skipped: [SkippedElement] = []
        let members = JSONStream(.string(json)).elements(
            of: Member.self, at: ["objects", .wildcard, "members"], onError: .skip { skipped.append($0) })
        #expect(try members.map { try $0.get().name } == ["a", "c"])
        #expect(skipped.map(\.index) == [0])
        #expect(skipped.first?.error.keyPath.description == "objects[1].members[0].name")
    }

    @Test func codableElementsHaveTheConcreteCodingPath() throws {
        let json = #"{"objects": [{"members": []}, {"members": [{"name": "b"}, {"nom": "c"}]}]}"#
        let members = JSONStream(.string(json)).elements(of: Member.self, at: ["objects", .wildcard, "members"], decoder: StreamingJSONDecoder())
        #expect(try members.next()?.name == "b")
        let error = try #require(throws: DecodingError.self) { _ = try members.next() }
        guard case .keyNotFound(let key, let context) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(key.stringValue == "name")
        #expect(context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue } == ["objects", "[1]", "members", "[1]"])
    }

    /// The wildcard's elements are those of the concrete paths, one after the other, at every
    /// chunk size, in the three shells.
    @Test(arguments: [1, 2, 7, 4096])
    func everyShellGivesTheConcretePathsElements(chunkSize: Int) async throws {
        let json = Self.generated(seed: UInt64(chunkSize))
        let groups = try JSONStream(.string(json)).count(at: ["objects"])
        var expected: [JSONValue] = []
        for group in 0..<groups {
            expected += try JSONStream(.string(json)).elements(of: JSONValue.self, at: ["objects", .index(group), "members"]).map { try $0.get() }
        }
        #expect(expected.count > 20)
        var options = JSONParsingOptions()
        options.chunkSize = chunkSize
        let path: JSONKeyPath = ["objects", .wildcard, "members"]

        let sync = try JSONStream(.string(json), options: options).elements(of: JSONValue.self, at: path).map { try $0.get() }
        #expect(sync == expected)

        let bytes = Array(json.utf8)
        let chunks = AsyncStream<[UInt8]> { continuation in
            for start in stride(from: 0, to: bytes.count, by: chunkSize) {
                continuation.yield(Array(bytes[start..<min(bytes.count, start + chunkSize)]))
            }
            continuation.finish()
        }
        var async: [JSONValue] = []
        for try await value in AsyncJSONStream(.chunks(chunks), options: options).elements(of: JSONValue.self, at: path) {
            async.append(value)
        }
        #expect(async == expected)

        let push = PushJSONStream(options: options)
        let pushedElements = push.elements(of: JSONValue.self, at: path)
        var pushed: [JSONValue] = []
        for start in stride(from: 0, to: bytes.count, by: chunkSize) {
            try push.append(bytes[start..<min(bytes.count, start + chunkSize)])
            while let value = try pushedElements.next() { pushed.append(value) }
        }
        try push.finishInput()
        while let value = try pushedElements.next() { pushed.append(value) }
        #expect(pushed == expected)
        #expect(try push.remainder().compactJSON() == #"{"objects":[],"end":true}"#)
    }

    /// A catalog whose bands hold members, and strings and keys that look like paths.
    static func generated(seed: UInt64) -> String {
        var random = SplitMix(seed: seed &+ 0x9E37_79B9_7F4A_7C15)
        var bands: [String] = []
        for band in 0..<20 {
            var members: [String] = []
            for member in 0..<Int(random.next() % 5) {
                members.append(#"{"name": "m\#(band).\#(member) ] [\"", "n": \#(random.next() % 1000), "members": [[]]}"#)
            }
            let before = random.next() % 2 == 0 ? "\"members \": [1], " : ""
            bands.append(#"{\#(before)"name": "b\#(band) [*]", "members": [\#(members.joined(separator: ", "))], "tail": {"members": [0]}}"#)
        }
        return #"{"objects": [\#(bands.joined(separator: ",\n"))], "end": true}"#
    }


    @Test func memoryStaysBoundedAcrossManyChildren() throws {
        let band = #"{"name": "Band", "members": [{"name": "x"}, {"name": "y"}], "notes": "\#(String(repeating: "n", count: 200))"}"#
        let text = #"{"objects": [\#(Array(repeating: band, count: 20_000).joined(separator: ","))], "tail": 1}"#
        var options = JSONParsingOptions()
        options.chunkSize = 4096
        let stream = JSONStream(.string(text), options: options)
        let members = stream.elements(of: Member.self, at: ["objects", .wildcard, "members"])
        var count = 0
        while try members.next() != nil { count += 1 }
        #expect(count == 40_000)
        #expect(stream.reader.tape.tokenCapacity <= 8192)
        #expect(stream.reader.tape.arenaCapacity <= 128 * 1024)
        #expect(try stream.remainder().compactJSON() == #"{"objects":[],"tail":1}"#)
    }

    @Test func stoppingEarlyStillGivesTheRemainder() throws {
        let stream = JSONStream(.string(Self.catalog))
        let members = stream.elements(of: Member.self, at: ["objects", .wildcard, "members"])
        #expect(try members.next()?.name == "a1")
        #expect(try stream.remainder().compactJSON() == #"{"objects":[],"last_updated":"2016-05-17T22:43:04Z"}"#)
    }
}
