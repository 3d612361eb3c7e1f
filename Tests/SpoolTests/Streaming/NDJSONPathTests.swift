import Foundation
import Spool
import Testing

/// With several top-level values and a path, every value's array is streamed in turn (as
/// `jq -c '.objects[]'` does over NDJSON), and paths say which value an element is in.
@Suite("NDJSON with a path")
struct NDJSONPathTests {
    static let text = "{\"objects\": [1, 2], \"n\": \"first\"}\n{\"objects\": []}\n\n{\"objects\": [3, 4]}\n"

    static var options: JSONParsingOptions {
        var options = JSONParsingOptions()
        options.allowsMultipleValues = true
        return options
    }

    static func chunks(_ text: String, size: Int) -> AsyncStream<[UInt8]> {
        let bytes = Array(text.utf8)
        return AsyncStream { continuation in
            for start in stride(from: 0, to: bytes.count, by: size) {
                continuation.yield(Array(bytes[start..<min(bytes.count, start + size)]))
            }
            continuation.finish()
        }
    }

    @Test(arguments: [1, 3, 4096])
    func everyValuesArrayIsStreamed(_ chunkSize: Int) throws {
        var options = Self.options
        options.chunkSize = chunkSize
        let stream = JSONStream(.string(Self.text), options: options)
        var values: [Int] = []
        try stream.elements(of: Int.self, at: "objects").forEach { values.append($0) }
        #expect(values == [1, 2, 3, 4])
        #expect(try stream.remainder() <| "n" as String == "first")  // the first value's remainder
        #expect(try JSONStream(.string(Self.text), options: options).count(at: "objects") == 4)
    }

    @Test func elementPathsStartWithTheirValuesIndex() throws {
        let text = "{\"objects\": [1]}\n{\"objects\": [2, \"three\"]}\n"
        let stream = JSONStream(.string(text), options: Self.options)
        let elements = stream.elements(of: Int.self, at: "objects")
        #expect(try elements.next() == 1)
        #expect(try elements.next() == 2)
        let error = #expect(throws: DecodeError.self) { try elements.next() }
        #expect(error?.keyPath == [1, "objects", 1])
        #expect(error?.description == #"2:17: error: expected Int at [1].objects[1], found string "three""#)

        var skipped: [(Int, JSONKeyPath)] = []
        let lenient = JSONStream(.string(text), options: Self.options)
            .elements(of: Int.self, at: "objects", onError: .skip { skipped.append(($0.index, $0.error.keyPath)) })
        var values: [Int] = []
        try lenient.forEach { values.append($0) }
        #expect(values == [1, 2])
        #expect(skipped.map(\.0) == [1] && skipped.map(\.1) == [[1, "objects", 1]])
    }

    @Test func aValueWithoutThePathIsAnErrorThatNamesIt() throws {
        let text = "{\"objects\": [1]}\n{\"other\": [2]}\n"
        let elements = JSONStream(.string(text), options: Self.options).elements(of: Int.self, at: "objects")
        #expect(try elements.next() == 1)
        let error = #expect(throws: DecodeError.self) { try elements.next() }
        #expect(error?.description == #"2:1: error: missing key "objects" in [1] (streaming objects)"#)
    }

    @Test func membersOfEveryValue() throws {
        let text = "{\"o\": {\"a\": 1}}\n{\"o\": {}}\n{\"o\": {\"b\": 2, \"c\": 3}}\n"
        let members = JSONStream(.string(text), options: Self.options).members(of: Int.self, at: "o")
        var seen: [String] = []
        while let (key, value) = try members.next() { seen.append("\(key)=\(value)") }
        #expect(seen == ["a=1", "b=2", "c=3"])
        #expect(try JSONStream(.string(text), options: Self.options).count(at: "o") == 3)
    }

    /// Issue 22: at the root, the members of every top-level value are streamed (they were
    /// the first value's only, the rest parsed and dropped), in every kind of stream.
    static let rootObjects = "{\"a\": 1}\n{\"b\": 2, \"c\": 3}\n\n{}\n{\"d\": 4}\n"
    static let rootMembers = ["a=1", "b=2", "c=3", "d=4"]

    @Test(arguments: [1, 3, 4096])
    func membersAtTheRootOfEveryValue(_ chunkSize: Int) throws {
        var options = Self.options
        options.chunkSize = chunkSize
        let stream = JSONStream(.string(Self.rootObjects), options: options)
        var seen: [String] = []
        try stream.members(of: Int.self).forEach { seen.append("\($0)=\($1)") }
        #expect(seen == Self.rootMembers)
        var decoded: [String] = []
        let codable = JSONStream(.string(Self.rootObjects), options: options).members(of: Int.self, decoder: StreamingJSONDecoder())
        while let (key, value) = try codable.next() { decoded.append("\(key)=\(value)") }
        #expect(decoded == Self.rootMembers)
    }

    @Test(arguments: [1, 2, 7, 4096])
    func pushedMembersAtTheRootOfEveryValue(_ size: Int) throws {
        let stream = PushJSONStream(options: Self.options)
        let members = stream.members(of: Int.self)
        var seen: [String] = []
        let bytes = Array(Self.rootObjects.utf8)
        for start in stride(from: 0, to: bytes.count, by: size) {
            try stream.append(bytes[start..<min(bytes.count, start + size)])
            while let (key, value) = try members.next() { seen.append("\(key)=\(value)") }
        }
        try stream.finishInput()
        while let (key, value) = try members.next() { seen.append("\(key)=\(value)") }
        #expect(seen == Self.rootMembers)
        #expect(members.isFinished)
    }

    @Test(arguments: [1, 5, 4096])
    func asyncMembersAtTheRootOfEveryValue(_ size: Int) async throws {
        let stream = AsyncJSONStream(.chunks(Self.chunks(Self.rootObjects, size: size)), options: Self.options)
        var seen: [String] = []
        for try await (key, value) in stream.members(of: Int.self) { seen.append("\(key)=\(value)") }
        #expect(seen == Self.rootMembers)
    }

    @Test func rootMemberPathsStartWithTheirValuesIndex() throws {
        let members = JSONStream(.string("{\"a\": 1}\n{\"b\": \"x\"}\n[1]\n"), options: Self.options).members(of: Int.self)
        #expect(try members.next()?.key == "a")
        let error = #expect(throws: DecodeError.self) { try members.next() }
        #expect(error?.keyPath == [1, "b"])
        let lenient = JSONStream(.string("{\"a\": 1}\n[1]\n"), options: Self.options).members(of: Int.self)
        #expect(try lenient.next()?.key == "a")
        let notObject = #expect(throws: DecodeError.self) { try lenient.next() }
        #expect(notObject?.description.hasPrefix("2:1: error: expected object at [1]") == true, "\(String(describing: notObject))")
    }

    @Test(arguments: [1, 5, 4096])
    func asyncStreamsEveryValueToo(_ size: Int) async throws {
        let stream = AsyncJSONStream(.chunks(Self.chunks(Self.text, size: size)), options: Self.options)
        var values: [Int] = []
        for try await value in stream.elements(of: Int.self, at: "objects") { values.append(value) }
        #expect(values == [1, 2, 3, 4])
    }

    @Test func aSingleDocumentStillStopsAfterItsArray() throws {
        let stream = JSONStream(.string(#"{"objects": [1, 2], "after": true}"#))
        var values: [Int] = []
        try stream.elements(of: Int.self, at: "objects").forEach { values.append($0) }
        #expect(values == [1, 2])
        #expect(try stream.remainder() <| "after" as Bool)
    }
}
