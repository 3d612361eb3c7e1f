import Foundation
import Testing

/// Every Swift example of the documentation is code that a test compiles and runs.
///
/// The documents are README.md, every `Sources/Spool/Spool.docc/*.md` and the doc comments
/// (`///`) of every `.swift` file under `Sources/`. A fenced block whose
/// info string is exactly `swift` is checked: its lines, trimmed of leading and trailing
/// whitespace and with blank lines left out, must appear as a contiguous run of trimmed,
/// non-blank lines in some `.swift` file under `Tests/` (in practice, a test that runs the
/// example and checks the output the document claims), or of the HTTP example
/// (`Examples/Server`, which CI builds and tests), whose article quotes its code.
///
/// Blocks that are not runnable code use another info string and are not checked:
/// `swift-manifest` for `Package.swift` snippets (declarations that only make sense in a
/// manifest), `console` for shell sessions (SpoolCLITests runs the `$ spool ...` ones), `text`
/// for output and diagrams.
@Suite("Documentation code blocks are tested")
struct DocumentationCodeBlockTests {
    struct Block: Sendable, CustomTestStringConvertible {
        /// The document, relative to the repository.
        var document: String
        /// The 1-based line of the opening fence.
        var line: Int
        /// The block's trimmed, non-blank lines.
        var lines: [String]

        var testDescription: String { "\(document):\(line)" }
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The `swift` blocks of a Markdown file.
    static func swiftBlocks(in document: String) -> [Block] {
        let url = repository.appendingPathComponent(document)
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        var blocks: [Block] = []
        var open: (fence: String, info: String, line: Int)?
        var lines: [String] = []
        for (number, rawLine) in text.components(separatedBy: "\n").enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if let current = open {
                if line.hasPrefix(current.fence) && line.drop(while: { $0 == "`" }).isEmpty {
                    if current.info == "swift" {
                        blocks.append(Block(document: document, line: current.line, lines: lines))
                    }
                    open = nil
                } else if !line.isEmpty {
                    lines.append(line)
                }
            } else if line.hasPrefix("```") {
                let fence = String(line.prefix(while: { $0 == "`" }))
                let info = line.dropFirst(fence.count).trimmingCharacters(in: .whitespaces)
                open = (fence, info, number + 1)
                lines = []
            }
        }
        return blocks
    }

    static var articles: [String] {
        let catalog = "Sources/Spool/Spool.docc"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent(catalog).path)) ?? []
        return names.filter { $0.hasSuffix(".md") }.sorted().map { "\(catalog)/\($0)" }
    }

    /// The fenced blocks of the doc comments of a source file: each with its info string
    /// (``swiftBlocks(in:)`` keeps the `swift` ones).
    static func docCommentBlocks(in document: String) -> [(info: String, block: Block)] {
        let url = repository.appendingPathComponent(document)
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        var blocks: [(info: String, block: Block)] = []
        var open: (info: String, line: Int)?
        var lines: [String] = []
        for (number, rawLine) in text.components(separatedBy: "\n").enumerated() {
            let trimmed = rawLine.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("///") else { continue }
            let line = trimmed.dropFirst(3).trimmingCharacters(in: .whitespaces)
            if let current = open {
                if line == "```" {
                    blocks.append((current.info, Block(document: document, line: current.line, lines: lines)))
                    open = nil
                } else if !line.isEmpty {
                    lines.append(line)
                }
            } else if line.hasPrefix("```") {
                open = (String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces), number + 1)
                lines = []
            }
        }
        return blocks
    }

    /// Every `.swift` file under `Sources/`, relative to the repository.
    static var sourceFiles: [String] {
        let sources = repository.appendingPathComponent("Sources")
        guard let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil) else { return [] }
        var paths: [String] = []
        for case let file as URL in files where file.pathExtension == "swift" {
            paths.append(String(file.path.dropFirst(repository.path.count + 1)))
        }
        return paths.sorted()
    }

    static let docCommentFences: [(info: String, block: Block)] = sourceFiles.flatMap(docCommentBlocks(in:))
    static let docCommentSwiftBlocks: [Block] = docCommentFences.filter { $0.info == "swift" }.map(\.block)

    static let doccBlocks: [Block] = articles.flatMap(swiftBlocks(in:))
    static let readmeBlocks: [Block] = swiftBlocks(in: "README.md")

    /// The trimmed, non-blank lines of every `.swift` file under `Tests/`, and of the HTTP
    /// example (`Examples/Server`, whose tests CI runs: its article quotes its code).
    static let testSources: [[String]] = {
        var sources: [[String]] = []
        for folder in ["Tests", "Examples/Server/Sources", "Examples/Server/Tests"] {
            let root = repository.appendingPathComponent(folder)
            guard let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { continue }
            for case let file as URL in files where file.pathExtension == "swift" && !file.path.contains("/.build") {
                guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
                sources.append(
                    text.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
            }
        }
        return sources
    }()

    static func isTested(_ block: Block) -> Bool {
        guard let first = block.lines.first else { return true }
        for source in testSources where source.count >= block.lines.count {
            for start in source.indices where source[start] == first && start + block.lines.count <= source.count {
                if Array(source[start..<(start + block.lines.count)]) == block.lines { return true }
            }
        }
        return false
    }

    @Test func theCatalogHasSwiftExamples() {
        #expect(Self.articles.count >= 6)
        #expect(Self.doccBlocks.count >= 10)
        #expect(!Self.testSources.isEmpty)
    }

    @Test(arguments: doccBlocks)
    func doccExampleIsRunByATest(_ block: Block) {
        #expect(Self.isTested(block), "no test holds this block verbatim:\n\(block.lines.joined(separator: "\n"))")
    }

    @Test(arguments: readmeBlocks)
    func readmeExampleIsRunByATest(_ block: Block) {
        #expect(Self.isTested(block), "no test holds this block verbatim:\n\(block.lines.joined(separator: "\n"))")
    }

    @Test(arguments: docCommentSwiftBlocks)
    func docCommentExampleIsRunByATest(_ block: Block) {
        #expect(Self.isTested(block), "no test holds this block verbatim:\n\(block.lines.joined(separator: "\n"))")
    }

    /// A doc comment's fence says what it holds: `swift` for code a test runs, `text` (or
    /// another language) for output and diagrams; DocC would take a bare fence for Swift.
    @Test func everyDocCommentFenceNamesItsLanguage() {
        #expect(Self.docCommentSwiftBlocks.count >= 25)
        let bare = Self.docCommentFences.filter { $0.info.isEmpty }.map { $0.block.testDescription }
        #expect(bare.isEmpty, "fences without a language: \(bare)")
    }

    @Test func blocksAreFoundWithTheirFences() {
        // A check of the parser on the catalog: the manifest snippet is not a `swift` block.
        let gettingStarted = Self.swiftBlocks(in: "Sources/Spool/Spool.docc/GettingStarted.md")
        #expect(!gettingStarted.isEmpty)
        #expect(!gettingStarted.contains { $0.lines.contains("import PackageDescription") })
    }
}
