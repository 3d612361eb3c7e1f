import Foundation
import Testing
@testable import Spool

@Suite("JSONStream")
struct JSONStreamTests {
    static var sample: String {
        (try? String(contentsOfFile: SeedModelTests.bandsPath, encoding: .utf8)) ?? ""
    }

    static func names(_ stream: JSONStream, at path: JSONKeyPath = "objects") throws -> [String] {
        var names: [String] = []
        let bands = stream.elements(of: Band.self, at: path)
        while let band = try bands.next() { names.append(band.name) }
        return names
    }

    @Test func streamsTheBandsAndKeepsWhatIsBesideThem() throws {
        let stream = JSONStream(.file(SeedModelTests.bandsPath))
        #expect(try Self.names(stream) == SeedModelTests.sampleNames)
        let remainder = try stream.remainder()
        let updated = try remainder.value("last_updated", .iso8601)
        #expect(updated == SeedModelTests.sampleLastUpdated)
        #expect(try (remainder <| "objects") as [JSONValue] == [])  // the streamed array is left empty
    }

    @Test(arguments: [1, 2, 7, 64, 4096, 1 << 20])
    func sameElementsAtEveryChunkSize(_ chunkSize: Int) throws {
        var options = JSONParsingOptions()
        options.chunkSize = chunkSize
        let stream = JSONStream(.string(Self.sample), options: options)
        let bands = stream.elements(of: Band.self, at: "objects")
        var members: [BandMember] = []
        while let band = try bands.next() { members += band.members }
        #expect(members.count == 16)
        #expect(members.first == BandMember(name: "George Harrison", birthDate: SeedModelTests.utc(1943, 2, 25)))
        #expect(try stream.remainder().value("last_updated", .iso8601) == SeedModelTests.sampleLastUpdated)
    }

    static func bigCatalog(_ count: Int) -> String {
        let band = #"{"name": "Band %d", "active": "active", "members": [{"name": "M", "birth_date": "1970-01-01"}]}"#
        return #"{"objects": ["# + (0..<count).map { band.replacingOccurrences(of: "%d", with: "\($0)") }.joined(separator: ",\n")
            + #"], "last_updated": "2016-01-01T00:00:00Z"}"#
    }

    @Test func earlyExitReadsOnlyAPrefix() throws {
        let text = Self.bigCatalog(20_000)
        var options = JSONParsingOptions()
        options.chunkSize = 4096
        let stream = JSONStream(.string(text), options: options)
        let bands = stream.elements(of: Band.self, at: "objects")
        #expect(try bands.next()?.name == "Band 0")
        #expect(stream.bytesRead <= 4 * 4096)  // the first chunks, not the file
        #expect(stream.totalBytes == text.utf8.count)
    }

    @Test func memoryStaysBoundedWhileStreaming() throws {
        let text = Self.bigCatalog(20_000)
        var options = JSONParsingOptions()
        options.chunkSize = 4096
        let stream = JSONStream(.string(text), options: options)
        let bands = stream.elements(of: Band.self, at: "objects")
        var count = 0
        while try bands.next() != nil { count += 1 }
        #expect(count == 20_000)
        #expect(stream.reader.tape.tokenCapacity <= 8192)
        #expect(stream.reader.tape.arenaCapacity <= 128 * 1024)
    }

    @Test func streamsNDJSONWithBlankLines() throws {
        var options = JSONParsingOptions()
        options.allowsMultipleValues = true
        let text = "{\"size\": 1, \"color\": \"green\"}\n\n{\"size\": 2, \"color\": \"red\"}\n\n\n{\"size\": 3, \"color\": \"blue\"}\n"
        let leaves = JSONStream(.string(text), options: options).elements(of: Leaf.self)
        var sizes: [Int] = []
        try leaves.forEach { sizes.append($0.size) }
        #expect(sizes == [1, 2, 3])
    }

    @Test func streamsARootArrayAndNestedPaths() throws {
        let root = JSONStream(.string("[1, 2, 3]")).elements(of: Int.self)
        var numbers: [Int] = []
        try root.forEach { numbers.append($0) }
        #expect(numbers == [1, 2, 3])
        let nested = JSONStream(.string(#"{"data": [{"items": [4, 5]}, {"items": [6]}]}"#)).elements(of: Int.self, at: ["data", 1, "items"])
        var items: [Int] = []
        try nested.forEach { items.append($0) }
        #expect(items == [6])
    }

    @Test func errorsInElementKNameK() throws {
        let text = "{\"objects\": [\n{\"size\": 1, \"color\": \"a\"},\n{\"size\": \"2\", \"color\": \"b\"}\n]}"
        let leaves = JSONStream(.string(text)).elements(of: Leaf.self, at: "objects")
        #expect(try leaves.next()?.size == 1)
        #expect {
            try leaves.next()
        } throws: { error in
            (error as? DecodeError)?.description == #"3:10: error: expected Int at objects[1].size, found string "2""#
        }
        #expect(try leaves.next() == nil)
    }

    @Test func skipsAndReportsUndecodableElements() throws {
        let text = #"[{"size": 1, "color": "a"}, {"size": true, "color": "b"}, {"color": "c"}, {"size": 4, "color": "d"}]"#
        var skipped: [String] = []
        let leaves = JSONStream(.string(text)).elements(of: Leaf.self, onError: .skip { skipped.append($0.description) })
        var sizes: [Int] = []
        try leaves.forEach { sizes.append($0.size) }
        #expect(sizes == [1, 4])
        #expect(
            skipped == [
                "skipped element 1 at 1:29: 1:38: error: expected Int at [1].size, found true",
                #"skipped element 2 at 1:59: 1:59: error: missing key "size" in [2] (expected Int)"#,
            ])
    }

    @Test func aTruncatedStreamSaysHowFarItGot() throws {
        let leaves = JSONStream(.string(#"[{"size": 1, "color": "a"}, {"size": 2, "co"#)).elements(of: Leaf.self)
        #expect(try leaves.next()?.size == 1)
        #expect {
            try leaves.next()
        } throws: { error in
            guard let error = error as? ParseError else { return false }
            return error.kind == .unexpectedEndOfInput && error.message.hasSuffix("(1 element of the input read before it)")
        }
    }

    @Test func wrongPathsAreDecodeErrors() throws {
        #expect {
            try JSONStream(.string(#"{"objects": {"a": 1}}"#)).elements(of: Int.self, at: "objects").next()
        } throws: { error in
            (error as? DecodeError)?.description == "1:13: error: expected array at objects to stream objects, found '{'"
        }
        #expect {
            try JSONStream(.string(#"{"other": []}"#)).elements(of: Int.self, at: "objects").next()
        } throws: { error in
            (error as? DecodeError)?.code == .missingKey
        }
    }
}

@Suite("JSONStream members")
struct JSONMembersTests {
    @Test(arguments: [1, 3, 65_536])
    func streamsTheMembersOfAHugeObject(_ chunkSize: Int) throws {
        var options = JSONParsingOptions()
        options.chunkSize = chunkSize
        let text = #"{"meta": {"v": 1}, "leaves_by_id": {"a1": {"size": 1, "color": "x"}, "b2": {"size": 2, "color": "y"}}, "after": true}"#
        let stream = JSONStream(.string(text), options: options)
        let leaves = stream.members(of: Leaf.self, at: "leaves_by_id")
        var seen: [String] = []
        try leaves.forEach { key, leaf in seen.append("\(key)=\(leaf.size)") }
        #expect(seen == ["a1=1", "b2=2"])
        let remainder = try stream.remainder()
        #expect(try (remainder <| "after") as Bool == true)
        #expect(try (remainder <| ["meta", "v"]) as Int == 1)
        #expect(try (remainder <| "leaves_by_id") as [String: JSONValue] == [:])
    }

    @Test func memberErrorsEndWithTheKey() throws {
        let members = JSONStream(.string(#"{"a": {"size": 1, "color": "x"}, "b": {"size": "no", "color": "y"}}"#)).members(of: Leaf.self)
        #expect(try members.next()?.key == "a")
        #expect {
            try members.next()
        } throws: { error in
            (error as? DecodeError)?.keyPath == ["b", "size"]
        }
    }
}

@Suite("JSONElements as a Sequence")
struct JSONElementsSequenceTests {
    @Test func iteratesResultsAndEndsAfterAnError() throws {
        let text = #"[{"size": 1, "color": "a"}, {"size": 2, "color": "b"}, {"size": "3", "color": "c"}, {"size": 4, "color": "d"}]"#
        var sizes: [Int] = []
        var errors: [String] = []
        for result in JSONStream(.string(text)).elements(of: Leaf.self) {
            switch result {
            case .success(let leaf): sizes.append(leaf.size)
            case .failure(let error): errors.append("\(error)")
            }
        }
        #expect(sizes == [1, 2])
        #expect(errors == [#"1:65: error: expected Int at [2].size, found string "3""#])
        let lazy = JSONStream(.string("[1, 2, 3]")).elements(of: Int.self).lazy.compactMap { try? $0.get() }.prefix(2)
        #expect(Array(lazy) == [1, 2])
    }
}
