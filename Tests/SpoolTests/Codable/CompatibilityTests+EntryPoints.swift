import Foundation
import Spool
import Testing

/// `rootKeyPath:` against JSONDecoder reaching the same value through nested containers, and
/// every entry point (`Data`, `[UInt8]`, `String`, a file, async bytes and chunks, small
/// chunks without the background parser) against `Data`.
@Suite("Compatibility: entry points")
struct CompatibilityEntryPointTests {
    struct EntryCase: Sendable, CustomTestStringConvertible {
        let name: String
        let check: @Sendable () async throws -> Void
        var testDescription: String { name }
    }

    static func entry<T: Decodable & Equatable & Sendable & SendableMetatype>(
        _ type: T.Type, _ json: String, at path: JSONKeyPath = .root, _ settings: CompatSettings = .defaults,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> EntryCase {
        EntryCase(name: "\(T.self) at \(path.isEmpty ? "root" : path.description) ← \(json.prefix(60))") {
            let bytes = Array(json.utf8)
            var digging = settings
            digging.userInfo[digPathKey] = path.components
            let foundation = Compat.foundation(Dig<T>.self, bytes, digging).map(\.value)
            let decoder = settings.spool
            let fromData = Outcome { try decoder.decode(T.self, from: Data(bytes), rootKeyPath: path) }
            #expect(Outcome.same(fromData, foundation), "JSONDecoder: \(foundation)\nSpool:       \(fromData)", sourceLocation: sourceLocation)
            if path.isEmpty {
                #expect(Outcome.same(Outcome { try decoder.decode(T.self, from: Data(bytes)) }, fromData), "Data without rootKeyPath", sourceLocation: sourceLocation)
                #expect(Outcome.same(Outcome { try decoder.decode(T.self, from: .bytes(bytes)) }, fromData), "[UInt8]", sourceLocation: sourceLocation)
                #expect(Outcome.same(Outcome { try decoder.decode(T.self, from: .string(json)) }, fromData), "String", sourceLocation: sourceLocation)
            }
            #expect(Outcome.same(Outcome { try decoder.decode(T.self, from: .bytes(bytes), rootKeyPath: path) }, fromData), "[UInt8]", sourceLocation: sourceLocation)
            #expect(Outcome.same(Outcome { try decoder.decode(T.self, from: .string(json), rootKeyPath: path) }, fromData), "String", sourceLocation: sourceLocation)

            let file = FileManager.default.temporaryDirectory.appendingPathComponent("spool-compat-\(UUID()).json")
            try Data(bytes).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let fromFile = Outcome { try decoder.decode(T.self, from: .file(file.path), rootKeyPath: path) }
            #expect(Outcome.same(fromFile, fromData), "file: \(fromFile)", sourceLocation: sourceLocation)
            if path.isEmpty {
                #expect(Outcome.same(Outcome { try decoder.decode(T.self, from: .file(file.path)) }, fromData), "file", sourceLocation: sourceLocation)
            }

            let fromAsyncBytes = await Outcome.async { try await decoder.decode(T.self, from: .bytes(Self.byteStream(bytes)), rootKeyPath: path) }
            #expect(Outcome.same(fromAsyncBytes, fromData), "async bytes: \(fromAsyncBytes)", sourceLocation: sourceLocation)
            for size in [1, 7] {
                let fromChunks = await Outcome.async { try await decoder.decode(T.self, from: .chunks(Self.chunkStream(bytes, size: size)), rootKeyPath: path) }
                #expect(Outcome.same(fromChunks, fromData), "async chunks of \(size): \(fromChunks)", sourceLocation: sourceLocation)
            }

            let small = settings.spool
            var options = JSONParsingOptions()
            options.chunkSize = 3
            options.parsesInBackground = false
            small.options = options
            let fromSmallChunks = Outcome { try small.decode(T.self, from: Data(bytes), rootKeyPath: path) }
            #expect(Outcome.same(fromSmallChunks, fromData), "3-byte chunks: \(fromSmallChunks)", sourceLocation: sourceLocation)
        }
    }

    static func byteStream(_ bytes: [UInt8]) -> AsyncStream<UInt8> {
        AsyncStream { continuation in
            for byte in bytes { continuation.yield(byte) }
            continuation.finish()
        }
    }

    static func chunkStream(_ bytes: [UInt8], size: Int) -> AsyncStream<[UInt8]> {
        AsyncStream { continuation in
            var offset = 0
            while offset < bytes.count {
                continuation.yield(Array(bytes[offset..<min(bytes.count, offset + size)]))
                offset += size
            }
            continuation.finish()
        }
    }

    typealias Outer = CompatibilityErrorTests.Outer

    static let document = #"{"data": {"items": [1, 2], "name": "n", "none": null, "deep": [{"x": 1}, {"y": 2}]}, "list": [[1, 2], [3]]}"#

    static let cases: [EntryCase] = [
        entry([Int].self, "[1, 2, 3]"), entry([Int].self, #"[1, "x"]"#), entry(Outer.self, #"{"inner": {}}"#),
        entry(Outer.self, #"{"inner": {"x": 1}}"#), entry([Int].self, "[1,"), entry([Int].self, "[1, 2] x"), entry(String.self, #""a""#),
        entry(Int.self, ""), entry([String: Int].self, #"{"a_b": 1}"#, .snakeCase),
        entry(CompatibilityStrategyTests.SnakeModel.self, CompatibilityStrategyTests.snakeJSON + "}", .snakeCase),
        entry(Int.self, document, at: ["data", "items", 1]), entry([Int].self, document, at: ["data", "items"]),
        entry(String.self, document, at: ["data", "name"]), entry(Int.self, document, at: ["data", "missing"]),
        entry(Int.self, document, at: ["missing", "items"]), entry(Int.self, document, at: ["data", "items", "x"]), entry(Int.self, document, at: ["data", "name", "x"]),
        entry(Int.self, document, at: ["data", "name", 0]), entry(Int.self, document, at: ["data", "none", "x"]),
        entry(Int.self, document, at: ["data", "none"]), entry(Int?.self, document, at: ["data", "none"]),
        entry(Int.self, document, at: ["data", "name"]), entry(Int.self, document, at: ["list", 1, 0]),
        entry([[Int]].self, document, at: ["list"]), entry(Outer.Inner.self, document, at: ["data", "deep", 1]),
        entry([Outer.Inner].self, document, at: ["data", "deep"]), entry(Int.self, document, at: ["data", "deep", 0, "x"]),
        entry(Int.self, #"{"a": 1,"#, at: ["a"]), entry(Int.self, #"{"a": "x", "b": }"#, at: ["a"]),
        entry([String: Int].self, #"{"w": {"a_b": 1}}"#, at: ["w"], .snakeCase),
        entry(CompatibilityStrategyTests.SnakeModel.self, #"{"w": "# + CompatibilityStrategyTests.snakeJSON + "}}", at: ["w"], .snakeCase),
        entry([Int].self, "[1, 2]", at: [1]), entry([Int].self, "[1, [2]]", at: [1]), entry(Int.self, "[1, [2]]", at: [1, 0]),
    ]

    @Test(arguments: cases) func entryPointsAgree(_ row: EntryCase) async throws { try await row.check() }

    /// `rootKeyPath:` is Spool's, and its keys are the document's (no key strategy applies to
    /// them). A path that leads nowhere, past an array's end included, is `keyNotFound` for
    /// its last step at the path before it; reaching the same element through nested
    /// containers, JSONDecoder's unkeyed container says `valueNotFound` at its end instead.
    @Test func spoolRootKeyPathsLeadingNowhereAreKeyNotFound() throws {
        let decoder = StreamingJSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let past = Outcome { try decoder.decode(Int.self, from: .string(Self.document), rootKeyPath: ["data", "items", 5]) }
        #expect(past.error == ErrorRecord(.keyNotFound, [KeyRecord("data"), KeyRecord("items")], key: .index(5)), "\(past)")
        #expect(past.error?.isLocated == true, "\(past)")
        let missing = Outcome { try decoder.decode(Int.self, from: .string(Self.document), rootKeyPath: ["data", "last_name"]) }
        #expect(missing.error == ErrorRecord(.keyNotFound, [KeyRecord("data")], key: KeyRecord("last_name")), "\(missing)")
        let snake = Outcome { try decoder.decode([String: Int].self, from: .string(#"{"a_b": {"c_d": 1}}"#), rootKeyPath: ["a_b"]) }
        #expect(snake.value == ["c_d": 1], "\(snake)")
        var digging = CompatSettings()
        digging.userInfo[digPathKey] = [JSONKeyPath.Component.key("data"), .key("items"), .index(5)]
        let foundation = Compat.foundation(Dig<Int>.self, Self.document, digging).map(\.value)
        #expect(foundation.error == ErrorRecord(.valueNotFound, [KeyRecord("data"), KeyRecord("items"), .index(2)]), "\(foundation)")
    }
}

let digPathKey = CodingUserInfoKey(rawValue: "spool.compat.dig")!

/// The value at a path (in `userInfo`) through nested containers: what `rootKeyPath:` means,
/// in `JSONDecoder`'s terms.
struct Dig<T: Decodable>: Decodable {
    let value: T

    init(from decoder: any Decoder) throws {
        let path = decoder.userInfo[digPathKey] as? [JSONKeyPath.Component] ?? []
        guard let first = path.first else {
            value = try decoder.singleValueContainer().decode(T.self)
            return
        }
        switch first {
        case .key(let key): value = try Self.keyed(decoder.container(keyedBy: AnyKey.self), key, path.dropFirst())
        case .index(let index): value = try Self.unkeyed(decoder.unkeyedContainer(), index, path.dropFirst())
        case .wildcard: throw DecodingError.dataCorruptedError(in: try decoder.unkeyedContainer(), debugDescription: "[*]")
        }
    }

    static func keyed(_ container: KeyedDecodingContainer<AnyKey>, _ key: String, _ rest: ArraySlice<JSONKeyPath.Component>) throws -> T {
        switch rest.first {
        case nil: try container.decode(T.self, forKey: AnyKey(key))
        case .key(let next)?: try keyed(container.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey(key)), next, rest.dropFirst())
        case .index(let next)?: try unkeyed(container.nestedUnkeyedContainer(forKey: AnyKey(key)), next, rest.dropFirst())
        case .wildcard?: throw DecodingError.dataCorruptedError(forKey: AnyKey(key), in: container, debugDescription: "[*]")
        }
    }

    static func unkeyed(_ container: any UnkeyedDecodingContainer, _ index: Int, _ rest: ArraySlice<JSONKeyPath.Component>) throws -> T {
        var container = container
        for _ in 0..<index { _ = try container.superDecoder() }
        switch rest.first {
        case nil: return try container.decode(T.self)
        case .key(let next)?: return try keyed(container.nestedContainer(keyedBy: AnyKey.self), next, rest.dropFirst())
        case .index(let next)?: return try unkeyed(container.nestedUnkeyedContainer(), next, rest.dropFirst())
        case .wildcard?: throw DecodingError.dataCorruptedError(in: container, debugDescription: "[*]")
        }
    }
}

extension Outcome {
    func map<U>(_ transform: (T) -> U) -> Outcome<U> {
        switch self {
        case .value(let value): .value(transform(value))
        case .error(let error): .error(error)
        }
    }

    static func async(_ body: () async throws -> T) async -> Outcome<T> {
        do {
            return .value(try await body())
        } catch {
            return .error(ErrorRecord(error))
        }
    }
}

/// `decode(_:from:)` decodes the metatype it is given, not its static type (issue 21): a
/// subclass passed as its superclass's metatype runs the subclass's `init(from:)`, as in
/// `JSONDecoder`.
@Suite("Compatibility: dynamic metatypes")
struct DynamicMetatypeTests {
    class Person: Decodable {
        let name: String
    }

    final class Employee: Person {
        let badge: Int

        private enum Keys: String, CodingKey { case badge }

        required init(from decoder: any Decoder) throws {
            badge = try decoder.container(keyedBy: Keys.self).decode(Int.self, forKey: .badge)
            try super.init(from: decoder)
        }
    }

    @Test func theGivenMetatypeIsDecoded() async throws {
        let json = #"{"name": "Ada", "badge": 7}"#
        let type: Person.Type = Employee.self
        let foundation = try JSONDecoder().decode(type, from: Data(json.utf8))
        #expect(foundation is Employee)
        for person in [
            try StreamingJSONDecoder().decode(type, from: Data(json.utf8)),
            try StreamingJSONDecoder().decode(type, from: .bytes(Array(json.utf8))),
            try StreamingJSONDecoder().decode(type, from: .string(json)),
            try StreamingJSONDecoder().decode(type, from: Data(#"{"p": \#(json)}"#.utf8), rootKeyPath: "p"),
            try await StreamingJSONDecoder().decode(type, from: .bytes(AsyncStream<UInt8> { continuation in
                for byte in json.utf8 { continuation.yield(byte) }
                continuation.finish()
            })),
        ] {
            #expect((person as? Employee)?.badge == 7)
            #expect(person.name == "Ada")
        }
        var people: [Person] = []
        try JSONStream(.string("[\(json)]")).elements(of: type, decoder: StreamingJSONDecoder()).forEach { people.append($0) }
        #expect(people.count == 1 && people.allSatisfy { $0 is Employee })
    }
}
