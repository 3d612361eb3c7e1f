import BandCatalog
import Foundation
import Spool
import Testing

// (Under DocumentationExamples, whose examples run one at a time: see there.)
extension DocumentationExamples {
    /// The README's examples, run as written against the outputs the README shows. Public API only,
    /// as a reader of the README has it. `CodeBlockCoverageTests` checks that every ```swift block
    /// of the README appears verbatim in a test.
    @Suite("README")
    struct ReadmeTests {
        static let repository: String = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().path

        static let readme: String =
            (try? String(contentsOf: URL(fileURLWithPath: repository).appendingPathComponent("README.md"), encoding: .utf8)) ?? ""

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

        @Test func theCodableExamplesRun() throws {
            var printed: [String] = []
            func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }
            _ = FileManager.default.changeCurrentDirectoryPath(Self.repository)

            // From the README, verbatim:
            struct Member: Codable {
                let name: String
                let birthDate: String
            }

            struct Band: Codable {
                let name: String
                let members: [Member]
            }

            struct Catalog: Codable {
                let objects: [Band]
                let lastUpdated: Date
            }

            let decoder = StreamingJSONDecoder()   // was: JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            decoder.dateDecodingStrategy = .iso8601
            let catalog = try decoder.decode(Catalog.self, from: .file("Examples/bands.json"))
            print(catalog.objects.count, catalog.lastUpdated)   // 5 2016-05-17 22:43:04 +0000

            let stream = JSONStream(.file("Examples/bands.json"))
            let bands = stream.elements(of: Band.self, at: "objects", decoder: decoder)
            while let band = try bands.next() {
                print(band.name, band.members.first?.birthDate ?? "-")
            }

            #expect(printed == [
                "5 2016-05-17 22:43:04 +0000", "Beatles 1943-02-25", "The Rolling Stones 1941-06-02", "Nirvana 1967-02-20",
                "Foo Fighters 1969-01-14", "Sigur Rós 1975-04-23",
            ])
        }

        @Test func theWritingExampleWritesWhatItSays() throws {
            var printed: [String] = []
            func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spool-readme-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            _ = FileManager.default.changeCurrentDirectoryPath(folder.path)

            // From the README, verbatim:
            struct Member: Codable {
                let name: String
                let birthDate: String
            }

            let encoder = StreamingJSONEncoder()   // was: JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            encoder.keyEncodingStrategy = .convertToSnakeCase
            let ringo = try encoder.encode(Member(name: "Ringo Starr", birthDate: "1940-07-07"))
            print(String(decoding: ringo, as: UTF8.self))   // {"birth_date":"1940-07-07","name":"Ringo Starr"}

            let members = (1...3).lazy.map { Member(name: "Member \($0)", birthDate: "1970-01-0\($0)") }
            let writer = try JSONWriter(toFile: "members.jsonl", format: .lines)
            try writer.writeLines(members, encoder: encoder)   // one line per element, as it comes
            try writer.finish()

            #expect(printed == [#"{"birth_date":"1940-07-07","name":"Ringo Starr"}"#])
            let foundation = JSONEncoder()
            foundation.outputFormatting = [.sortedKeys]
            foundation.keyEncodingStrategy = .convertToSnakeCase
            #expect(ringo == (try foundation.encode(Member(name: "Ringo Starr", birthDate: "1940-07-07"))))
            let written = try String(contentsOf: folder.appendingPathComponent("members.jsonl"), encoding: .utf8)
            #expect(written == (1...3).map { #"{"birth_date":"1970-01-0\#($0)","name":"Member \#($0)"}"# + "\n" }.joined())
        }

        @Test func theModelExampleDecodesTheSample() throws {
            var printed: [String] = []
            func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }
            _ = FileManager.default.changeCurrentDirectoryPath(Self.repository)

            // From the README, verbatim:
            struct BandMember: JSONDecodable {
                let name: String
                let birthDate: Date

                static func decode(_ e: Extractor) throws -> BandMember {
                    try BandMember(name: e <| "name", birthDate: e.value("birth_date", .pattern("yyyy-MM-dd")))
                }
            }

            struct Band: JSONDecodable {
                let name: String
                let homepageURL: URL?
                let members: [BandMember]

                static func decode(_ e: Extractor) throws -> Band {
                    try Band(name: e <| "name", homepageURL: e <|? "homepage", members: e <|| "members")
                }
            }

            let bands = try [Band].decodeValue(from: .file("Examples/bands.json"), rootKeyPath: "objects")
            print(bands.map(\.name))   // ["Beatles", "The Rolling Stones", "Nirvana", "Foo Fighters", "Sigur Rós"]

            #expect(printed == [#"["Beatles", "The Rolling Stones", "Nirvana", "Foo Fighters", "Sigur Rós"]"#])
            #expect(bands[1].homepageURL == nil)
            // The README's models read what the demo's (Examples/BandCatalog) read, field for field.
            let demo = try BandResponse.decodeValue(from: .file("Examples/bands.json"))
            #expect(demo.objects.map(\.homepageURL) == bands.map(\.homepageURL))
            #expect(demo.objects.flatMap(\.members).map(\.name) == bands.flatMap(\.members).map(\.name))
            #expect(demo.objects.flatMap(\.members).map(\.birthDate) == bands.flatMap(\.members).map(\.birthDate))
        }

        @Test func theStreamingExampleRuns() throws {
            var printed: [String] = []
            func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }
            _ = FileManager.default.changeCurrentDirectoryPath(Self.repository)

            // From the README, verbatim (with the demo's Band):
            let stream = JSONStream(.file("Examples/bands.json"))
            let bands = stream.elements(of: Band.self, at: "objects")
            while let band = try bands.next() {
                print(band.name, band.members.count)
            }
            let updated = try stream.remainder().value("last_updated", .iso8601)

            #expect(printed == ["Beatles 4", "The Rolling Stones 4", "Nirvana 3", "Foo Fighters 3", "Sigur Rós 2"])
            #expect(updated == Date(timeIntervalSince1970: 1_463_524_984))
        }

        @Test func theParallelStreamingExampleRuns() throws {
            var printed: [String] = []
            func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }
            _ = FileManager.default.changeCurrentDirectoryPath(Self.repository)

            // From the README, verbatim (with the demo's Band):
            let stream = JSONStream(.file("Examples/bands.json"))
            let bands = stream.elements(of: Band.self, at: "objects", parallelism: .automatic)
            while let band = try bands.next() {
                print(band.name, band.members.count)   // in document order, as without parallelism
            }
            let updated = try stream.remainder().value("last_updated", .iso8601)

            #expect(printed == ["Beatles 4", "The Rolling Stones 4", "Nirvana 3", "Foo Fighters 3", "Sigur Rós 2"])
            #expect(updated == Date(timeIntervalSince1970: 1_463_524_984))
        }

        /// On the main actor, as top-level code in `main.swift` runs.
        @MainActor @Test func theAsyncExampleRuns() async throws {
            var printed: [String] = []
            func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }
            _ = FileManager.default.changeCurrentDirectoryPath(Self.repository)

            // From the README, verbatim (with the demo's Band):
            let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: "Examples/bands.json"))
            let body = AsyncThrowingStream<Data, any Error> {
                let chunk = try file.read(upToCount: 65_536) ?? Data()
                return chunk.isEmpty ? nil : chunk
            }
            let stream = AsyncJSONStream(.chunks(body))
            for try await band in stream.elements(of: Band.self, at: "objects") {
                print(band.name)
            }

            #expect(printed == ["Beatles", "The Rolling Stones", "Nirvana", "Foo Fighters", "Sigur Rós"])
        }

        @Test func readingTokensPrintsWhatTheReadmeShows() throws {
            var printed: [String] = []
            func print(_ items: Any..., separator: String = " ") {
                printed.append(items.map { "\($0)" }.joined(separator: separator))
            }
            _ = FileManager.default.changeCurrentDirectoryPath(Self.repository)

            // From the README, verbatim:
            let reader = JSONReader(.file("Examples/bands.json"))
            while let token = try reader.next() {
                if token == .key && reader.textEquals("name") {
                    _ = try reader.next()
                    print(reader.path, reader.text ?? "", reader.location?.description ?? "")
                }
            }

            // The README names the first line and the last.
            #expect(printed.count == 21)
            #expect(printed.first == "objects[0].name Beatles 4:15")
            #expect(printed.last == "objects[4].members[1].name Georg Hólm 96:19")
            #expect(Self.readme.contains("prints every name with its path and place, from `objects[0].name Beatles 4:15` to\n`objects[4].members[1].name Georg Hólm 96:19`."))
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
                _ = try [Review].decodeValue(from: .string(#"[{"stars": 5}, {"stars": "4"}]"#))
            } catch {
                print(error)   // 1:26: error: expected Int at [1].stars, found string "4"
            }

            #expect(printed == [#"1:26: error: expected Int at [1].stars, found string "4""#])
        }

        @Test func theParseErrorDescriptionIsReal() {
            let reader = JSONReader(.string("{\n  \"a\": [1, 2,, 3]\n}"))
            let error = #expect(throws: ParseError.self) { try reader.skipToEnd() }
            #expect(error?.description.components(separatedBy: "\n") == Self.block(after: "A `ParseError`'s description adds"))
        }

        @Test func theQuickStartIsTwoCommands() {
            #expect(Self.block(after: "## Quick start") == ["scripts/spool bands Examples/bands.json", "scripts/test"])
        }

        @Test func theManifestNamesTheDocumentedPlatforms() throws {
            let manifest = try String(
                contentsOf: URL(fileURLWithPath: Self.repository).appendingPathComponent("Package.swift"), encoding: .utf8)
            #expect(manifest.contains("platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)]"))
            #expect(Self.readme.contains("macOS 15, iOS 18, tvOS 18, watchOS 11 or visionOS 2"))
            #expect(Self.readme.components(separatedBy: "Swift 6.2 or later").count == 2)  // stated once
        }

        @Test func theLicenseIsApache2() throws {
            let license = try String(
                contentsOf: URL(fileURLWithPath: Self.repository).appendingPathComponent("LICENSE"), encoding: .utf8)
            #expect(license.contains("Apache License\n                           Version 2.0, January 2004"))
            #expect(Self.readme.contains("[Apache License 2.0](LICENSE)"))
        }
    }
}
