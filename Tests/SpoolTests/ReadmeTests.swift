import Foundation
import Testing
@testable import Spool

/// The README's examples, run as written, against the outputs the README shows.
@Suite("README")
struct ReadmeTests {
    static let readme: String = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    /// The fenced block that follows the first line containing `marker`.
    static func block(after marker: String) -> [String] {
        let lines = readme.components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.contains(marker) }),
            let open = lines[start...].firstIndex(where: { $0.hasPrefix("```") })
        else { return [] }
        let body = lines[(open + 1)...]
        guard let close = body.firstIndex(where: { $0.hasPrefix("```") }) else { return [] }
        return Array(body[..<close])
    }

    static var repository: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }

    @Test func readingTokensPrintsWhatTheReadmeShows() throws {
        var printed: [String] = []
        func print(_ items: Any..., separator: String = " ") {
            printed.append(items.map { "\($0)" }.joined(separator: separator))
        }
        _ = FileManager.default.changeCurrentDirectoryPath(Self.repository)

        // From the README, verbatim:
        let reader = try JSONReader(contentsOfFile: "Examples/bands.json")
        while let token = try reader.next() {
            if token == .key && reader.textEquals("name") {
                _ = try reader.next()
                print(reader.path, reader.text ?? "", reader.location?.description ?? "")
            }
        }

        let shown = Self.block(after: "prints")
        #expect(shown.count == 5)
        #expect(Array(printed.prefix(3)) == Array(shown.prefix(3)))
        #expect(shown[3] == "...")
        #expect(printed.last == shown.last)
    }

    @Test func incrementalExamplePrintsWhatItsCommentsSay() throws {
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

        // From the README, verbatim:
        let reader = JSONReader.incremental()
        try reader.append(Array(#"{"name": "Nir"#.utf8))
        while let token = try reader.next() { print(token) }   // '{', key
        try reader.append(Array(#"vana"}"#.utf8))
        try reader.finishInput()
        while let token = try reader.next() { print(token) }   // string, '}'
        print(reader.isAtEnd)                                   // true

        #expect(printed == ["'{'", "key", "string", "'}'", "true"])
    }

    @Test func errorExamplesAreTheRealDescriptions() throws {
        let stray = try #require(parseError("{\n  \"a\": [1, 2,, 3]\n}"))
        #expect(stray.description.components(separatedBy: "\n") == Self.block(after: "Its `description`:"))
        let truncated = try #require(parseError(#"{"a":[{"b":"#))
        #expect(truncated.description.components(separatedBy: "\n") == Self.block(after: "A truncated input names what is still open"))
    }

    @Test func theOptionsExampleReadsNDJSON() throws {
        // From the README, verbatim:
        var options = JSONParsingOptions()
        options.allowsMultipleValues = true   // NDJSON
        options.maxDepth = 64
        let reader = JSONReader(string: "{\"a\": 1}\n{\"a\": 2}\n", options: options)

        #expect(try reader.skipToEnd() == 2)
        #expect(Self.readme.contains(#"let reader = JSONReader(string: "{\"a\": 1}\n{\"a\": 2}\n", options: options)"#))
    }

    @Test func optionDefaultsAreTheDocumentedOnes() {
        let options = JSONParsingOptions()
        #expect(!options.allowsComments && !options.allowsMultipleValues && options.validatesUTF8)
        #expect(!options.allowsTrailingGarbage)
        #expect(options.maxDepth == 512 && options.maxStringLength == 20_000_000 && options.maxNumberLength == 1000)
        #expect(options.chunkSize == 65_536)
    }
}

// The README's model example, verbatim (its types are file-private here).
private enum ReadmeStatus: String, JSONDecodable {
    case active, hiatus, disbanded
}

private struct ReadmeMember: JSONDecodable {
    let name: String
    let birthDate: Date

    static func decode(_ e: Extractor) throws -> ReadmeMember {
        try ReadmeMember(name: e <| "name", birthDate: e.value("birth_date", DateTransformers.pattern("yyyy-MM-dd")))
    }
}

private struct ReadmeBand: JSONDecodable {
    let name: String
    let homepage: URL?
    let status: ReadmeStatus
    let members: [ReadmeMember]

    static func decode(_ e: Extractor) throws -> ReadmeBand {
        try ReadmeBand(name: e <| "name", homepage: e <|? "homepage", status: e <| "status", members: e <|| "members")
    }
}

@Suite("README models")
struct ReadmeModelTests {
    @Test func theModelExampleDecodesTheSample() throws {
        _ = FileManager.default.changeCurrentDirectoryPath(ReadmeTests.repository)
        let bands: [ReadmeBand] = try [ReadmeBand].decodeValue(contentsOfFile: "Examples/bands.json", rootKeyPath: "objects")
        #expect(bands.map(\.name) == ["Nirvana", "Foo Fighters", "Sigur Rós", "Hole"])
        #expect(ReadmeTests.readme.contains(#"print(bands.map(\.name))   // ["Nirvana", "Foo Fighters", "Sigur Rós", "Hole"]"#))
        #expect(bands[3].homepage == nil && bands[2].status == .hiatus && bands[0].members.count == 3)
    }

    @Test func keepingReleasedElementsAsTheReadmeShows() throws {
        _ = FileManager.default.changeCurrentDirectoryPath(ReadmeTests.repository)
        // From the README, verbatim:
        var options = JSONParsingOptions()
        options.releasesDecodedElements = false
        let catalog = try [ReadmeBand].decodeValue(contentsOfFile: "Examples/bands.json", rootKeyPath: "objects", options: options)

        #expect(catalog.count == 4)
        #expect(ReadmeTests.readme.contains("options.releasesDecodedElements = false\nlet catalog = try [Band]"))
    }

    @Test func joinedPathsNeedParenthesesAfterAnOperator() throws {
        struct Venue: JSONDecodable {
            let name: String
            static func decode(_ e: Extractor) throws -> Venue {
                let base: JSONKeyPath = "location"
                return try Venue(name: e <| (base + "name"))
            }
        }
        #expect(try Venue.decodeValue(from: #"{"location": {"name": "Park"}}"#).name == "Park")
        #expect(ReadmeTests.readme.contains(#"`e <| (base + "name")`"#))
    }

    @Test func theErrorExampleIsReal() throws {
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

        // From the README, verbatim:
        struct Review: JSONDecodable {
            let stars: Int
            static func decode(_ e: Extractor) throws -> Review { try Review(stars: e <| "stars") }
        }

        do {
            _ = try [Review].decodeValue(from: #"[{"stars": 5}, {"stars": "4"}]"#)
        } catch {
            print(error)   // 1:26: error: expected Int at [1].stars, found string "4"
        }

        #expect(printed == [#"1:26: error: expected Int at [1].stars, found string "4""#])
        #expect(ReadmeTests.readme.contains(#"print(error)   // 1:26: error: expected Int at [1].stars, found string "4""#))
    }
}

@Suite("README streaming")
struct ReadmeStreamingTests {
    @Test func theStreamingExampleRuns() throws {
        _ = FileManager.default.changeCurrentDirectoryPath(ReadmeTests.repository)
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

        // From the README, verbatim (with the README's Band model):
        let stream = try JSONStream(contentsOfFile: "Examples/bands.json")
        let bands = stream.elements(of: ReadmeBand.self, at: "objects")
        while let band = try bands.next() {
            print(band.name, band.members.count)
        }
        let updated = try stream.remainder.value("last_updated", DateTransformers.iso8601)

        #expect(printed == ["Nirvana 3", "Foo Fighters 3", "Sigur Rós 2", "Hole 2"])
        #expect(updated == Date(timeIntervalSince1970: 1_451_606_400))
        #expect(ReadmeTests.block(after: "## Streaming a huge array").contains("while let band = try bands.next() {"))
    }
}

@Suite("README async streaming")
struct ReadmeAsyncStreamingTests {
    /// On the main actor, as top-level code in `main.swift` runs.
    @MainActor @Test func theAsyncExampleRuns() async throws {
        let body = AsyncJSONStreamTests.chunks(JSONStreamTests.sample, sizes: [100])
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

        // From the README, verbatim (with the README's Band model):
        let stream = AsyncJSONStream(chunks: body)   // any AsyncSequence of byte chunks; or (bytes:)
        for try await band in stream.elements(of: ReadmeBand.self, at: "objects") {
            print(band.name)
        }
        let updated = try await stream.remainder.value("last_updated", DateTransformers.iso8601)

        #expect(printed == ["Nirvana", "Foo Fighters", "Sigur Rós", "Hole"])
        #expect(updated == Date(timeIntervalSince1970: 1_451_606_400))
        #expect(ReadmeTests.readme.contains("for try await band in stream.elements(of: Band.self, at: \"objects\") {"))
    }
}
