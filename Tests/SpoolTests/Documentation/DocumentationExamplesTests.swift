import Foundation
import Spool
import BandCatalog
import Testing

// The Swift examples of the DocC articles (Sources/Spool/Spool.docc), verbatim, run against
// the outputs the articles claim. Only the public API is used, as a reader's code would.
// DocumentationCodeBlockTests (CodeBlockCoverageTests.swift) checks that every ```swift block of the articles appears here.
//
// Each example's `print` is a local function that records what would be printed.

/// Prints into an array, for the examples' `print` calls.
final class Printed: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []

    func record(_ items: [Any]) {
        let line = items.map { "\($0)" }.joined(separator: " ")
        lock.withLock { recorded.append(line) }
    }

    var lines: [String] { lock.withLock { recorded } }
}

/// The examples of the README and the articles. They open relative paths
/// (`Examples/bands.json`) and write files (`members.jsonl`) from the current directory, which
/// is the whole process's: so they run one at a time, each from the directory it sets.
@Suite("Documentation examples", .serialized)
enum DocumentationExamples {
    /// The repository, the folder the examples' relative paths (`Examples/bands.json`) start from.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    static func enterRepository() {
        _ = FileManager.default.changeCurrentDirectoryPath(repository)
    }

    /// `yyyy-MM-dd` at midnight UTC.
    static func day(_ text: String) throws -> Date {
        try Transformer.pattern("yyyy-MM-dd").apply(text)
    }

    /// Examples/bands.json's `last_updated`, 2016-05-17T22:43:04.000000+00:00.
    static let lastUpdated = Date(timeIntervalSince1970: 1_463_524_984)
}

// MARK: - GettingStarted.md

extension DocumentationExamples {
    /// The article's models, verbatim. They live in this namespace so that they do not clash with
    /// the BandCatalog module's identical ones, which the other articles' examples use.
    enum GettingStartedArticle {
        struct Band: JSONDecodable {
            enum Status: String, JSONDecodable {
                case active
                case hiatus
                case disbanded = "inactive"
            }

            let name: String
            let homepageURL: URL?
            let status: Status
            let members: [BandMember]

            static func decode(_ e: Extractor) throws -> Band {
                try Band(
                    name: e <| "name",
                    homepageURL: e <|? "homepage",
                    status: e <| "active",
                    members: e <|| "members"
                )
            }
        }

        struct BandMember: JSONDecodable {
            let name: String
            let birthDate: Date

            static func decode(_ e: Extractor) throws -> BandMember {
                try BandMember(name: e <| "name", birthDate: e.value("birth_date", .pattern("yyyy-MM-dd")))
            }
        }

        struct Response<T: JSONDecodable>: JSONDecodable {
            let objects: [T]
            let lastUpdated: Date

            static func decode(_ e: Extractor) throws -> Response<T> {
                try Response(objects: e <|| "objects", lastUpdated: e.value("last_updated", .iso8601))
            }
        }

        typealias BandResponse = Response<Band>
    }
}

extension DocumentationExamples.GettingStartedArticle {
    /// Nested in the article's namespace, so its examples use the article's own models.
    @Suite("Getting Started article")
    struct Examples {
        @Test func decodingADocumentPrintsWhatTheArticleSays() throws {
            DocumentationExamples.enterRepository()
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }

            // From the article, verbatim:
            let catalog = try BandResponse.decodeValue(from: .file("Examples/bands.json"))
            print(catalog.objects.map(\.name))   // ["Beatles", "The Rolling Stones", "Nirvana", "Foo Fighters", "Sigur Rós"]
            print(catalog.objects[0].status)     // disbanded
            print(catalog.lastUpdated)           // 2016-05-17 22:43:04 +0000

            let members = catalog.objects.flatMap(\.members)
            let oldest = members.min { $0.birthDate < $1.birthDate }
            print(members.count)                 // 16
            print(oldest?.name ?? "nobody")      // Ringo Starr

            #expect(
                printed.lines == [
                    #"["Beatles", "The Rolling Stones", "Nirvana", "Foo Fighters", "Sigur Rós"]"#,
                    "disbanded",
                    "2016-05-17 22:43:04 +0000",
                    "16",
                    "Ringo Starr",
                ])
            #expect(catalog.lastUpdated == DocumentationExamples.lastUpdated)
            #expect(try oldest?.birthDate == DocumentationExamples.day("1940-07-07"))
        }

        @Test func theModelsReadEveryField() throws {
            DocumentationExamples.enterRepository()
            let catalog = try BandResponse.decodeValue(from: .file("Examples/bands.json"))
            #expect(catalog.objects.map(\.status) == [.disbanded, .active, .disbanded, .active, .hiatus])
            #expect(catalog.objects.map(\.homepageURL?.absoluteString) == [
                "http://www.thebeatles.com/", nil, "https://www.nirvana.com", "https://foofighters.com", nil,
            ])
            #expect(try catalog.objects[0].members[0].birthDate == DocumentationExamples.day("1943-02-25"))
        }

        @Test func aValueThatDoesNotFitNamesItsPathAndPlace() throws {
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }

            // From the article, verbatim:
            do {
                _ = try BandResponse.decodeValue(from: .string(#"{"objects": [{"name": "Beatles", "active": "retired", "members": []}], "last_updated": "2016-05-17T22:43:04Z"}"#))
            } catch {
                print(error)   // 1:44: error: expected Status at objects[0].active, found string "retired" (not a raw value of Status)
            }

            #expect(printed.lines == [#"1:44: error: expected Status at objects[0].active, found string "retired" (not a raw value of Status)"#])
        }
    }
}

// MARK: - Streaming.md

extension DocumentationExamples {
    @Suite("Streaming article")
    struct StreamingArticle {
        @Test func streamingTheBandsPrintsWhatTheArticleShows() throws {
            DocumentationExamples.enterRepository()
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }

            // From the article (and the landing page), verbatim:
            let stream = JSONStream(.file("Examples/bands.json"))
            let bands = stream.elements(of: Band.self, at: "objects")
            while let band = try bands.next() {
                print(band.name, band.members.count)
            }
            let updated = try stream.remainder().value("last_updated", .iso8601)
            print(updated)   // 2016-05-17 22:43:04 +0000

            #expect(
                printed.lines == [
                    "Beatles 4", "The Rolling Stones 4", "Nirvana 3", "Foo Fighters 3", "Sigur Rós 2",
                    "2016-05-17 22:43:04 +0000",
                ])
            #expect(updated == DocumentationExamples.lastUpdated)
        }

        @Test func decodingOnEveryCoreGivesTheSameBands() throws {
            DocumentationExamples.enterRepository()
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }

            // From the article, verbatim:
            let stream = JSONStream(.file("Examples/bands.json"))
            let bands = stream.elements(of: Band.self, at: "objects", parallelism: .automatic)
            while let band = try bands.next() {
                print(band.name, band.members.count)   // in document order, as without parallelism
            }
            let updated = try stream.remainder().value("last_updated", .iso8601)

            #expect(printed.lines == ["Beatles 4", "The Rolling Stones 4", "Nirvana 3", "Foo Fighters 3", "Sigur Rós 2"])
            #expect(updated == DocumentationExamples.lastUpdated)
        }

        @Test func aWildcardCrossesEveryBand() throws {
            DocumentationExamples.enterRepository()
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }

            // From the article, verbatim:
            let stream = JSONStream(.file("Examples/bands.json"))
            let members = stream.elements(of: BandMember.self, at: ["objects", .wildcard, "members"])
            while let member = try members.next() {
                print(member.name)   // the 16 members of the 5 bands, in document order
            }

            #expect(printed.lines.count == 16)
            #expect(printed.lines.first == "George Harrison" && printed.lines.last == "Georg Hólm")
        }

        @Test func locatedMembersSayWhereTheyAre() throws {
            DocumentationExamples.enterRepository()
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }

            // From the article, verbatim:
            let located = JSONStream(.file("Examples/bands.json")).elements(of: Located<BandMember>.self, at: ["objects", .wildcard, "members"])
            while let member = try located.next() {
                print(member.path, member.start, member.value.name)   // objects[0].members[0] 8:9 George Harrison
            }

            #expect(printed.lines.count == 16)
            #expect(printed.lines.first == "objects[0].members[0] 8:9 George Harrison")
        }

        @Test func aStreamResumesAtAMember() throws {
            DocumentationExamples.enterRepository()
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }

            // From the article, verbatim:
            let members = JSONStream(.file("Examples/bands.json")).elements(of: Located<BandMember>.self, at: ["objects", 3, "members"])
            _ = try members.next()
            if let checkpoint = try members.next() {   // objects[3].members[1], saved before handling it
                let resumed = JSONStream(.file("Examples/bands.json"), resumingAt: checkpoint.start, element: checkpoint.path)
                let rest = resumed.elements(of: BandMember.self, at: ["objects", 3, "members"])
                while let member = try rest.next() {
                    print(member.name)   // Nate Mendel, then Pat Smear
                }
            }

            #expect(printed.lines == ["Nate Mendel", "Pat Smear"])
        }

        @Test func countingPrintsFive() throws {
            DocumentationExamples.enterRepository()
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }

            // From the article, verbatim:
            let stream = JSONStream(.file("Examples/bands.json"))
            let count = try stream.count(at: "objects")
            print(count)   // 5

            #expect(printed.lines == ["5"])
        }

        @Test func streamingMembersPrintsEachKeyAndValue() throws {
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }

            // From the article, verbatim:
            let json = #"{"by_id": {"u1": {"name": "Ada", "birth_date": "1815-12-10"}, "u2": {"name": "Alan", "birth_date": "1912-06-23"}}}"#
            let people = JSONStream(.string(json)).members(of: BandMember.self, at: "by_id")
            while let (id, person) = try people.next() {
                print(id, person.name)
            }

            #expect(printed.lines == ["u1 Ada", "u2 Alan"])
        }

        @Test func skippingReportsTheElementThatDoesNotDecode() throws {
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }

            // From the article, verbatim:
            let json = #"[{"name": "Ada", "birth_date": "1815-12-10"}, {"name": "Alan", "birth_date": "23.06.1912"}, {"name": "Grace", "birth_date": "1906-12-09"}]"#
            let people = JSONStream(.string(json)).elements(of: BandMember.self, onError: .skip { skipped in
                print(skipped)
            })
            while let person = try people.next() {
                print(person.name)
            }

            #expect(
                printed.lines == [
                    "Ada",
                    #"skipped element 1 at 1:47: 1:78: error: invalid date "23.06.1912" (expected yyyy-MM-dd) at [1].birth_date"#,
                    "Grace",
                ])
        }

        @Test func stoppingEarlyGivesTheFirstBand() throws {
            DocumentationExamples.enterRepository()
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }

            // From the article, verbatim:
            let stream = JSONStream(.file("Examples/bands.json"))
            if let first = try stream.elements(of: Band.self, at: "objects").next() {
                print(first.name)   // Beatles
            }

            #expect(printed.lines == ["Beatles"])
        }

        /// On the main actor, as top-level code in `main.swift` runs.
        @MainActor @Test func streamingAsynchronousChunksOfAFile() async throws {
            DocumentationExamples.enterRepository()
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }

            // From the article, verbatim:
            func chunks(ofFile path: String) throws -> AsyncThrowingStream<[UInt8], any Error> {
                let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
                return AsyncThrowingStream(unfolding: {
                    guard let data = try file.read(upToCount: 65_536), !data.isEmpty else {
                        try file.close()
                        return nil
                    }
                    return [UInt8](data)
                })
            }

            let stream = AsyncJSONStream(.chunks(try chunks(ofFile: "Examples/bands.json")))
            for try await band in stream.elements(of: Band.self, at: "objects") {
                print(band.name)
            }
            let updated = try await stream.remainder().value("last_updated", .iso8601)

            #expect(printed.lines == ["Beatles", "The Rolling Stones", "Nirvana", "Foo Fighters", "Sigur Rós"])
            #expect(updated == DocumentationExamples.lastUpdated)
        }

        @Test func streamingNDJSONGivesEachValue() throws {
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }

            // From the article, verbatim:
            let ndjson = """
                {"name":"George Harrison","birth_date":"1943-02-25"}
                {"name":"John Lennon","birth_date":"1940-10-09"}
                """
            var options = JSONParsingOptions()
            options.allowsMultipleValues = true
            let members = JSONStream(.string(ndjson), options: options).elements(of: BandMember.self)
            while let member = try members.next() {
                print(member.name)
            }

            #expect(printed.lines == ["George Harrison", "John Lennon"])
        }

        @Test func pushingChunksHandsOutEveryBand() throws {
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }
            DocumentationExamples.enterRepository()
            let data = try Data(contentsOf: URL(fileURLWithPath: "Examples/bands.json"))
            let body = stride(from: 0, to: data.count, by: 100).map { [UInt8](data[$0..<min(data.count, $0 + 100)]) }

            // From the article, verbatim:
            let stream = PushJSONStream()
            let bands = stream.elements(of: Band.self, at: "objects")
            var names: [String] = []
            for chunk in body {                        // as the chunks arrive
                try stream.append(chunk)
                while let band = try bands.next() {
                    names.append(band.name)
                }
            }
            try stream.finishInput()                   // the body has ended
            while let band = try bands.next() {
                names.append(band.name)
            }
            print(names.count, bands.isFinished)       // 5 true

            #expect(printed.lines == ["5 true"])
            #expect(names == ["Beatles", "The Rolling Stones", "Nirvana", "Foo Fighters", "Sigur Rós"])
        }

        @Test func streamingEveryPagesArraySaysWhichPageAnErrorIsIn() throws {
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }

            // From the article, verbatim:
            let pages = """
                {"objects": [{"name": "Ringo Starr", "birth_date": "1940-07-07"}]}
                {"objects": [{"name": "Mick Jagger", "birth_date": "1943-07-26"}, {"name": "Keith Richards"}]}
                """
            var pageOptions = JSONParsingOptions()
            pageOptions.allowsMultipleValues = true
            let everyPage = JSONStream(.string(pages), options: pageOptions).elements(of: BandMember.self, at: "objects")
            do {
                while let member = try everyPage.next() {
                    print(member.name)
                }
            } catch {
                print(error)   // 2:67: error: missing key "birth_date" in [1].objects[1] (expected String)
            }

            #expect(printed.lines == [
                "Ringo Starr", "Mick Jagger",
                #"2:67: error: missing key "birth_date" in [1].objects[1] (expected String)"#,
            ])
        }
    }
}

// MARK: - PortingFromHimotoki.md

extension DocumentationExamples {
    /// The article's models, verbatim.
    enum PortingArticle {
        struct Group: JSONDecodable {
            let name: String
            let floor: Int
            let locationName: String
            let optional: [String]?

            static func decode(_ e: Extractor) throws -> Group {
                return try Group(
                    name: e <| "name",
                    floor: e <| "floor",
                    locationName: e <| ["location", "name"],
                    optional: e <|? "optional"
                )
            }
        }

        struct NotSecure: Error, CustomStringConvertible {
            let text: String
            var description: String { "not an https URL: \(text)" }
        }

        struct Site: JSONDecodable {
            let name: String
            let url: URL

            static let secureURL = Transformer<String, URL> { text in
                guard let url = URL(string: text), url.scheme == "https" else { throw NotSecure(text: text) }
                return url
            }

            static func decode(_ e: Extractor) throws -> Site {
                try Site(name: e <| "name", url: e.value("url", secureURL))
            }
        }
    }
}

extension DocumentationExamples.PortingArticle {
    @Suite("Porting from Himotoki article")
    struct Examples {
        @Test func theHimotokiGroupDecodes() throws {
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }

            // From the article, verbatim:
            let group = try Group.decodeValue(from: .string(#"{"name": "Himotoki", "floor": 12, "location": {"name": "Tokyo"}}"#))
            print(group.locationName)   // Tokyo

            #expect(printed.lines == ["Tokyo"])
            #expect(group.name == "Himotoki" && group.floor == 12 && group.optional == nil)
        }

        @Test func aKeyPathWithIndices() throws {
            DocumentationExamples.enterRepository()
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }

            // From the article, verbatim:
            let name = try String.decodeValue(from: .file("Examples/bands.json"), rootKeyPath: ["objects", 0, "members", 3, "name"])
            print(name)   // Ringo Starr

            #expect(printed.lines == ["Ringo Starr"])
        }

        @Test func aTransformerErrorIsReportedAtItsField() throws {
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }

            // From the article, verbatim:
            do {
                _ = try Site.decodeValue(from: .string(#"{"name": "Beatles", "url": "http://www.thebeatles.com/"}"#))
            } catch {
                print(error)   // 1:28: error: not an https URL: http://www.thebeatles.com/ at url
            }

            #expect(printed.lines == ["1:28: error: not an https URL: http://www.thebeatles.com/ at url"])
            let site = try Site.decodeValue(from: .string(#"{"name": "Foo Fighters", "url": "https://foofighters.com"}"#))
            #expect(site.url.host == "foofighters.com")
        }

        @Test func himotokisApplyFormWorksToo() throws {
            struct Page: JSONDecodable {
                let url: URL
                static func decode(_ e: Extractor) throws -> Page { try Page(url: Site.secureURL.apply(e <| "url")) }
            }
            #expect(try Page.decodeValue(from: .string(#"{"url": "https://foofighters.com"}"#)).url.host == "foofighters.com")
            #expect(throws: DecodeError.self) { try Page.decodeValue(from: .string(#"{"url": "http://a.b"}"#)) }
        }

        @Test func allSixOperatorsAndTheirNamedTwins() throws {
            struct All: JSONDecodable {
                let a: Int, b: Int?, c: [Int], d: [Int]?, e: [String: Int], f: [String: Int]?
                static func decode(_ e: Extractor) throws -> All {
                    try All(a: e <| "a", b: e <|? "x", c: e <|| "c", d: e <||? "x", e: e <|-| "e", f: e <|-|? "x")
                }
            }
            let all = try All.decodeValue(from: .string(#"{"a": 1, "c": [2, 3], "e": {"k": 4}}"#))
            #expect(all.a == 1 && all.b == nil && all.c == [2, 3] && all.d == nil && all.e == ["k": 4] && all.f == nil)
        }
    }
}

// MARK: - Codable.md

extension DocumentationExamples {
    @Suite("Codable article")
    struct CodableArticle {
        @Test func decodingATourPrintsWhatTheArticleSays() throws {
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }

            // From the article, verbatim:
            struct Tour: Codable {
                let bandName: String
                let startsOn: Date
                let cities: [String]
            }

            let json = #"{"band_name": "Sigur Rós", "starts_on": "2026-03-01", "cities": ["Reykjavík", "Oslo"]}"#
            let decoder = StreamingJSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            decoder.dateDecodingStrategy = .pattern("yyyy-MM-dd")
            let tour = try decoder.decode(Tour.self, from: .string(json))
            print(tour.bandName, tour.cities.count)   // Sigur Rós 2

            #expect(printed.lines == ["Sigur Rós 2"])
            #expect(tour.startsOn == Date(timeIntervalSince1970: 1_772_323_200))
        }

        @Test func streamingTheBeatlesWithACodableModel() throws {
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }
            DocumentationExamples.enterRepository()

            // From the article, verbatim:
            struct Member: Decodable {
                let name: String
                let birthDate: Date
            }

            let memberDecoder = StreamingJSONDecoder()
            memberDecoder.keyDecodingStrategy = .convertFromSnakeCase
            memberDecoder.dateDecodingStrategy = .pattern("yyyy-MM-dd")
            let stream = JSONStream(.file("Examples/bands.json"))
            let members = stream.elements(of: Member.self, at: ["objects", 0, "members"], decoder: memberDecoder)
            while let member = try members.next() {
                print(member.name)
            }

            #expect(printed.lines == ["George Harrison", "John Lennon", "Paul McCartney", "Ringo Starr"])
        }

        @Test func aFractionalRatingIsATypeMismatch() throws {
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }

            // From the article, verbatim:
            struct Rating: Decodable {
                let stars: Int
            }

            do {
                _ = try StreamingJSONDecoder().decode([Rating].self, from: .string(#"[{"stars": 5}, {"stars": 4.5}]"#))
            } catch DecodingError.typeMismatch(_, let context) {
                print(context.debugDescription)   // 1:26: expected Int at [1].stars, found number 4.5 (does not fit Int exactly)
            }

            #expect(printed.lines == ["1:26: expected Int at [1].stars, found number 4.5 (does not fit Int exactly)"])
        }
    }
}
