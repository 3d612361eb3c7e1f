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

    @Test func optionDefaultsAreTheDocumentedOnes() {
        let options = JSONParsingOptions()
        #expect(!options.allowsComments && !options.allowsMultipleValues && options.validatesUTF8)
        #expect(options.maxDepth == 512 && options.maxStringLength == 20_000_000 && options.maxNumberLength == 1000)
        #expect(options.chunkSize == 65_536)
    }
}
