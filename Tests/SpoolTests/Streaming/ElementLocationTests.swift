import Foundation
import Testing
@testable import Spool

/// Issue 24, item 4: elements with where they lie (`Located`), and streams resumed at one.
@Suite("Element locations and resuming")
struct ElementLocationTests {
    struct Member: JSONDecodable, Decodable, Equatable {
        let name: String
        static func decode(_ e: Extractor) throws -> Member { try Member(name: e <| "name") }
    }

    /// The location of `offset` in `bytes`, counted here from the bytes.
    static func location(of offset: Int, in bytes: [UInt8]) -> Spool.SourceLocation {
        var line = 1
        var lineStart = 0
        for index in 0..<offset where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        return Spool.SourceLocation(byteOffset: offset, line: line, column: offset - lineStart + 1)
    }

    /// Checks that `located` lies where the bytes say: its span decodes to its value, and its
    /// coordinates are those counted from the bytes.
    static func expectSpan(_ located: Located<JSONValue>, in bytes: [UInt8]) throws {
        #expect(located.start == location(of: located.start.byteOffset, in: bytes))
        if case .string = located.value {
            #expect(located.end == nil)
            return
        }
        let end = try #require(located.end)
        #expect(end == location(of: end.byteOffset, in: bytes))
        let slice = Array(bytes[located.start.byteOffset..<end.byteOffset])
        #expect(try JSONValue.decodeValue(from: .bytes(slice)) == located.value)
    }

    static let catalog = """
        {"objects": [
          {"name": "A", "members": [{"name": "a1"}, {"name": "a2"}]},
        {"name": "B", "members": []},   "s\\"\\u00e9",  12.5e3, true, null, false, [1, [2]],
          {"members": [{"name": "c1"}], "name": "C"}
        ], "last_updated": "2016-05-17T22:43:04Z"}
        """

    @Test(arguments: [1, 3, 4096])
    func locatedElementsLieWhereTheBytesSay(chunkSize: Int) async throws {
        let bytes = Array(Self.catalog.utf8)
        var options = JSONParsingOptions()
        options.chunkSize = chunkSize
        let sync = try JSONStream(.bytes(bytes), options: options).elements(of: Located<JSONValue>.self, at: "objects").map { try $0.get() }
        #expect(sync.count == 9)
        #expect(sync.map(\.path.description) == (0..<9).map { "objects[\($0)]" })
        for located in sync { try Self.expectSpan(located, in: bytes) }

        // Async: the same spans.
        let chunks = AsyncStream<[UInt8]> { continuation in
            for start in stride(from: 0, to: bytes.count, by: chunkSize) {
                continuation.yield(Array(bytes[start..<min(bytes.count, start + chunkSize)]))
            }
            continuation.finish()
        }
        var async: [Located<JSONValue>] = []
        for try await located in AsyncJSONStream(.chunks(chunks), options: options)
            .elements(of: Located<JSONValue>.self, at: "objects")
        {
            async.append(located)
        }
        #expect(async.map(\.start) == sync.map(\.start) && async.map(\.end) == sync.map(\.end))

        // Push: the same spans.
        let push = PushJSONStream(options: options)
        let elements = push.elements(of: Located<JSONValue>.self, at: "objects")
        var pushed: [Located<JSONValue>] = []
        for start in stride(from: 0, to: bytes.count, by: chunkSize) {
            try push.append(bytes[start..<min(bytes.count, start + chunkSize)])
            while let element = try elements.next() { pushed.append(element) }
        }
        try push.finishInput()
        while let element = try elements.next() { pushed.append(element) }
        #expect(pushed.map(\.start) == sync.map(\.start) && pushed.map(\.end) == sync.map(\.end))

        // A wildcard's elements, at their concrete paths (Codable).
        let everyMember = #"{"objects": [{"members": [{"name": "a1"}, {"name": "a2"}]}, {"members": []},"#
            + "\n" + #" {"members": [{"name": "c1"}]}]}"#
        let members = try JSONStream(.string(everyMember), options: options)
            .elements(of: Located<Member>.self, at: ["objects", .wildcard, "members"], decoder: StreamingJSONDecoder())
            .map { try $0.get() }
        #expect(members.map(\.value.name) == ["a1", "a2", "c1"])
        #expect(members.map(\.path.description) == ["objects[0].members[0]", "objects[0].members[1]", "objects[2].members[0]"])
        #expect(members.map { "\($0.start)-\($0.end.map { "\($0)" } ?? "")" } == ["1:27-1:41", "1:43-1:57", "2:15-2:29"])
    }

    @Test func aFieldOfAModelCanBeLocatedToo() throws {
        struct Band: Decodable {
            let name: Located<String>
            let members: [Located<Member>]
        }
        let json = #"{"name": "X", "members": [{"name": "m"}]}"#
        let band = try StreamingJSONDecoder().decode(Band.self, from: Data(json.utf8))
        #expect(band.name.value == "X" && band.name.start.column == 10 && band.name.end == nil)
        #expect(band.members[0].path.description == "members[0]")
        #expect(band.members[0].start.column == 27 && band.members[0].end?.column == 40)
        // Foundation's decoder cannot say where a value is: refused, not made up.
        #expect(throws: DecodingError.self) { _ = try JSONDecoder().decode(Band.self, from: Data(json.utf8)) }
    }

    // MARK: - Resuming

    /// A catalog with elements in the middle of a line, at the start of one, and on one long line.
    static let resumable = """
        {"before": [1, 2], "objects": [{"name": "a0"}, {"name": "a1"},
        {"name": "a2"},
            {"name": "a3", "x": [{"y": "]"}]}, {"name": "a4"}
        ,{"name": "a5"}], "after": {"objects": [0]}}
        """

    @Test(arguments: ["bytes", "file", "pipe"])
    func aResumedStreamGivesTheSameElementsFromThere(input kind: String) throws {
        let bytes = Array(Self.resumable.utf8)
        let all = try JSONStream(.bytes(bytes)).elements(of: Located<Member>.self, at: "objects").map { try $0.get() }
        #expect(all.map(\.value.name) == (0..<6).map { "a\($0)" })
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("spool-resume-\(UUID()).json")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        for (k, checkpoint) in all.enumerated() {
            let input: JSONInput
            switch kind {
            case "file": input = .file(file.path)
            case "pipe": input = try Self.pipeInput(bytes)
            default: input = .bytes(bytes)
            }
            var options = JSONParsingOptions()
            options.chunkSize = 5
            let stream = JSONStream(input, options: options, resumingAt: checkpoint.start, element: checkpoint.path)
            let rest = try stream.elements(of: Located<Member>.self, at: "objects").map { try $0.get() }
            #expect(rest.map(\.value) == all[k...].map(\.value), "from \(checkpoint.path)")
            #expect(rest.map(\.start) == all[k...].map(\.start))
            #expect(rest.map(\.end) == all[k...].map(\.end))
            #expect(rest.map(\.path) == all[k...].map(\.path))
            try stream.finish()
            #expect(throws: UsageError.self) { _ = try stream.remainder() }
            #expect(try JSONStream(.bytes(bytes), resumingAt: checkpoint.start, element: checkpoint.path).count(at: "objects") == all.count - k)
        }
    }

    /// A descriptor input that cannot seek: the bytes before the point are read and dropped.
    static func pipeInput(_ bytes: [UInt8]) throws -> JSONInput {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let written = bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
        try #require(written == bytes.count)  // (small enough for the pipe's buffer)
        close(ends[1])
        return .fileDescriptor(ends[0], closeWhenDone: true)
    }

    @Test func aResumedStreamMeetsTheSameErrorsAndDecodesCodable() throws {
        let json = #"[{"name": "a"}, {"name": "b"}, {"name": 3}, {"name": "d"}]"#
        let all = JSONStream(.string(json)).elements(of: Located<Member>.self, decoder: StreamingJSONDecoder())
        _ = try all.next()
        let checkpoint = try #require(try all.next())
        let fullError = try #require(throws: DecodingError.self) { _ = try all.next() }
        let resumed = JSONStream(.string(json), resumingAt: checkpoint.start, element: checkpoint.path)
            .elements(of: Located<Member>.self, decoder: StreamingJSONDecoder())
        #expect(try resumed.next()?.value.name == "b")
        let resumedError = try #require(throws: DecodingError.self) { _ = try resumed.next() }
        #expect(String(describing: resumedError) == String(describing: fullError))

        // Bad JSON after the point: the same parse error, at the same place.
        let broken = #"[{"name": "a"},"#
            + "\n" + #"{"name": "b"}, {"name": "c" "d"}]"#
        let first = try JSONStream(.string(broken)).elements(of: Located<Member>.self).next()
        let point = try #require(first)
        let fullParse = try #require(throws: ParseError.self) {
            _ = try JSONStream(.string(broken)).elements(of: Member.self).map { try $0.get() }
        }
        let resumedParse = try #require(throws: ParseError.self) {
            _ = try JSONStream(.string(broken), resumingAt: point.start, element: point.path).elements(of: Member.self).map { try $0.get() }
        }
        #expect(resumedParse.location == fullParse.location)
        #expect(resumedParse.location.description == "2:29")
        // The same first line: message, path from the root and the count before it.
        #expect(resumedParse.summary == fullParse.summary)
        #expect(resumedParse.path.description == "[2].name")
        // The excerpt shows nothing of the [ that stands in for the array's opening.
        #expect(resumedParse.excerpt == #"{"name": "b"}, {"name": "c" "d"}]"#)
    }

    @Test func aResumePointThatCannotBeIsRefused() throws {
        let json = #"{"objects": [{"name": "a"}, {"name": "b"}]}"#
        let second = Spool.SourceLocation(byteOffset: 28, line: 1, column: 29)
        // Other requests than the array's elements.
        let stream = JSONStream(.string(json), resumingAt: second, element: "objects[1]" as JSONKeyPath)
        #expect(throws: UsageError.self) { _ = try stream.elements(of: Member.self, at: "other").next() }
        let members = JSONStream(.string(json), resumingAt: second, element: ["objects", 1]).members(of: JSONValue.self, at: "objects")
        #expect(throws: UsageError.self) { _ = try members.next() }
        // Points and paths that cannot be.
        let refused: [(Spool.SourceLocation, JSONKeyPath)] = [
            (second, ["objects", "name"]),
            (second, JSONKeyPath(["objects", .wildcard, 1])),
            (Spool.SourceLocation(byteOffset: 0, line: 1, column: 1), ["objects", 0]),
            (Spool.SourceLocation(byteOffset: 28, line: 1, column: 40), ["objects", 1]),
        ]
        for (location, element) in refused {
            let elements = JSONStream(.string(json), resumingAt: location, element: element).elements(of: Member.self, at: "objects")
            #expect(throws: UsageError.self, "\(location) \(element)") { _ = try elements.next() }
        }
        // A point inside an element, after a key: refused before anything is parsed.
        let inside = Spool.SourceLocation(byteOffset: 22, line: 1, column: 23)
        let error = try #require(throws: InputError.self) {
            _ = try JSONStream(.string(json), resumingAt: inside, element: ["objects", 0]).elements(of: JSONValue.self, at: "objects").map { try $0.get() }
        }
        #expect(error.reason == "1:23 is not where an element of an array starts: ':' comes before it, not '[' or ','")
        // One after a comma inside a string passes that check: the parse then refuses it.
        let quoted = #"["a,", 1]"#
        #expect(throws: ParseError.self) {
            _ = try JSONStream(.string(quoted), resumingAt: Spool.SourceLocation(byteOffset: 4, line: 1, column: 5), element: [0])
                .elements(of: JSONValue.self).map { try $0.get() }
        }
    }

    @Test func itemsPrintsOffsets() throws {
        let bytes = Array(Self.catalog.utf8)
        let stream = JSONStream(.bytes(bytes))
        let items = stream.elements(of: Located<JSONValue>.self, at: ["objects", 0, "members"])
        let first = try #require(try items.next())
        #expect(first.path.description == "objects[0].members[0]")
        #expect(String(decoding: bytes[first.start.byteOffset..<(first.end?.byteOffset ?? 0)], as: UTF8.self) == #"{"name": "a1"}"#)
    }
}
