import Foundation
import Testing
@testable import Spool

@Suite("Seed models")
struct SeedModelTests {
    static var bandsPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples/bands.json").path
    }

    static func utc(_ year: Int, _ month: Int, _ day: Int) -> Date {
        Date(timeIntervalSince1970: Double(CivilDate.days(year: year, month: month, day: day)) * 86_400)
    }

    /// The bands of Examples/bands.json: the tutorial's two, then three more.
    static let sampleNames = ["Beatles", "The Rolling Stones", "Nirvana", "Foo Fighters", "Sigur Rós"]
    /// Its `last_updated`, 2016-05-17T22:43:04.000000+00:00.
    static let sampleLastUpdated = Date(timeIntervalSince1970: 1_463_524_984)

    @Test func decodesTheBandCatalog() throws {
        let catalog = try BandResponse.decodeValue(from: .file(Self.bandsPath))
        #expect(catalog.objects.map(\.name) == SeedModelTests.sampleNames)
        #expect(catalog.objects.map(\.status) == [.disbanded, .active, .disbanded, .active, .hiatus])
        #expect(catalog.objects[0].homepageURL == URL(string: "http://www.thebeatles.com/"))
        #expect(catalog.objects[1].homepageURL == nil)  // missing
        #expect(catalog.objects[4].homepageURL == nil)  // null
        #expect(catalog.objects[0].members[0] == BandMember(name: "George Harrison", birthDate: Self.utc(1943, 2, 25)))
        #expect(catalog.objects.map(\.members.count) == [4, 4, 3, 3, 2])
        #expect(catalog.lastUpdated == SeedModelTests.sampleLastUpdated)
    }

    @Test func decodesTheTutorialsCatalogVerbatim() throws {
        let catalog = try BandResponse.decodeValue(from: .file(Fixtures.path("himotoki-tutorial/bands.json")))
        #expect(catalog.objects.map(\.name) == ["Beatles", "The Rolling Stones"])
        #expect(catalog.objects.map(\.status) == [.disbanded, .active])
        #expect(catalog.objects[1].members.map(\.name) == ["Charlie Watts", "Keith Richards", "Mick Jagger", "Ronnie Wood"])
        #expect(catalog.objects[1].members[3].birthDate == Self.utc(1947, 6, 1))
        #expect(catalog.lastUpdated == SeedModelTests.sampleLastUpdated)
    }

    @Test func decodesEveryInputTheSameWay() async throws {
        let text = try String(contentsOfFile: Self.bandsPath, encoding: .utf8)
        let expected = try BandResponse.decodeValue(from: .string(text)).objects.map(\.name)
        #expect(try BandResponse.decodeValue(from: .data(Data(text.utf8))).objects.map(\.name) == expected)
        #expect(try BandResponse.decodeValue(from: .bytes(Array(text.utf8))).objects.map(\.name) == expected)
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: Self.bandsPath))
        #expect(try BandResponse.decodeValue(from: .fileDescriptor(handle.fileDescriptor, closeWhenDone: false)).objects.map(\.name) == expected)
        try handle.close()
        let chunks = AsyncStream<[UInt8]> { continuation in
            var bytes = Array(text.utf8)[...]
            while !bytes.isEmpty {
                continuation.yield(Array(bytes.prefix(7)))
                bytes = bytes.dropFirst(7)
            }
            continuation.finish()
        }
        #expect(try await BandResponse.decodeValue(from: .chunks(chunks)).objects.map(\.name) == expected)
        var options = JSONParsingOptions()
        options.chunkSize = 16  // background parsing, many batches
        #expect(try BandResponse.decodeValue(from: .string(text), options: options).objects.map(\.name) == expected)
    }

    @Test func decodesARootKeyPathAndAGenericWrapper() throws {
        let json = #"{"data": {"group": {"name": "Himotoki", "floor": 12, "location": {"name": "Tokyo"}}}, "count": 1}"#
        let group = try Group.decodeValue(from: .string(json), rootKeyPath: ["data", "group"])
        #expect(group.name == "Himotoki" && group.floor == 12 && group.locationName == "Tokyo" && group.optional == nil)
        let wrapped = try DataResponse<[String: Group]>.decodeValue(from: .string(json))
        #expect(wrapped.count == 1 && wrapped.data["group"]?.locationName == "Tokyo")
        let members = try DataResponse<[BandMember]>.decodeValue(
            from: .string(#"{"data": [{"name": "Kim", "birth_date": "1953-04-28"}], "count": 1}"#))
        #expect(members.data == [BandMember(name: "Kim", birthDate: Self.utc(1953, 4, 28))])
    }

    @Test func decodesLadybugsTree() throws {
        let json = """
            {"tree_names": {"colloquial": ["Pine", "Pinus"], "scientific": ["Pinus sylvestris"]},
             "planted": "03-15-1998", "leaves": [{"size": 2, "color": "green"}, {"size": 3, "color": "brown"}],
             "heights": {"1999": 0.5, "2010": 4.25}}
            """
        let tree = try Tree.decodeValue(from: .string(json))
        #expect(tree.name == "Pine")
        #expect(tree.plantedOn == Self.utc(1998, 3, 15))
        #expect(tree.leaves == [Leaf(size: 2, color: "green"), Leaf(size: 3, color: "brown")])
        #expect(tree.heights == ["1999": 0.5, "2010": 4.25])
    }

    @Test func decodesTheBlogWithLossyReviews() throws {
        let json = """
            {"title": "Streams", "author": {"name": "Ann"},
             "reviews": [{"stars": 5, "text": "great"}, {"stars": 9, "text": "too good"}, {"stars": "4", "text": "x"},
                         {"stars": 3, "text": "fine"}]}
            """
        let book = try Book.decodeValue(from: .string(json))
        #expect(book.author.twitterURL == nil)
        #expect(book.tags == [])
        #expect(book.reviews.elements.map(\.stars) == [5, 3])
        #expect(book.reviews.failures.map(\.index) == [1, 2])
        #expect(book.reviews.failures[0].error.description == "2:45: error: stars must be 1 to 5, not 9 at reviews[1]")
        #expect(
            book.reviews.failures[1].error.description
                == #"2:89: error: expected Int at reviews[2].stars, found string "4""#)
    }
}
