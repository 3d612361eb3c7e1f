import BandCatalog
import Foundation
import Spool
import Testing

// The Swift examples of the doc comments (```swift blocks in `///` comments under Sources/),
// verbatim, run against what their comments claim. DocumentationCodeBlockTests checks that
// every one of them appears in a test.
//
// They open `bands.json` and write files from the current directory: each test enters a fresh
// scratch folder holding a copy of Examples/bands.json (and runs alone, as the other examples).

extension DocumentationExamples {
    @Suite("Doc comment examples")
    struct DocCommentExamples {
        /// The scratch folder: one per test run, emptied for each test.
        static let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("spool-doc-\(UUID().uuidString)")

        /// The scratch folder, emptied, with a copy of Examples/bands.json, made the current
        /// directory.
        @discardableResult
        static func enterScratch() throws -> URL {
            let folder = scratch
            try? FileManager.default.removeItem(at: folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let bands = URL(fileURLWithPath: DocumentationExamples.repository).appendingPathComponent("Examples/bands.json")
            try FileManager.default.copyItem(at: bands, to: folder.appendingPathComponent("bands.json"))
            _ = FileManager.default.changeCurrentDirectoryPath(folder.path)
            return folder
        }

        /// Examples/bands.json in chunks of `size` bytes, as an asynchronous sequence.
        static func chunks(of size: Int) throws -> AsyncStream<[UInt8]> {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "bands.json")))
            return AsyncStream { continuation in
                var start = 0
                while start < bytes.count {
                    continuation.yield(Array(bytes[start..<min(start + size, bytes.count)]))
                    start += size
                }
                continuation.finish()
            }
        }

        static let bandNames = ["Beatles", "The Rolling Stones", "Nirvana", "Foo Fighters", "Sigur Rós"]

        // MARK: - Cursor

        @Test func theReaderFindsTheFirstName() throws {
            try Self.enterScratch()
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }

            let reader = JSONReader(.file("bands.json"))
            while let token = try reader.next() {
                if token == .key && reader.textEquals("name") {
                    _ = try reader.next()
                    print(reader.path, reader.text ?? "")   // objects[0].name Beatles
                }
            }
            #expect(printed.lines.first == "objects[0].name Beatles")
            #expect(printed.lines.count > 5)
        }

        @Test func theAsyncReaderCountsNames() async throws {
            try Self.enterScratch()
            let body = try Self.chunks(of: 100)

            let reader = AsyncJSONReader(.chunks(body))       // body: some AsyncSequence of [UInt8]
            var names = 0
            while let token = try await reader.next() {
                if token == .key && reader.textEquals("name") { names += 1 }
            }

            let text = try String(contentsOfFile: "bands.json", encoding: .utf8)
            #expect(names == text.components(separatedBy: "\"name\":").count - 1)
            #expect(names > 5)
        }

        // MARK: - Extraction

        @Test func theOperatorsDecodeABand() throws {
            struct Member: JSONDecodable {
                let name: String
                static func decode(_ e: Extractor) throws -> Member { try Member(name: e <| "name") }
            }
            struct Band: JSONDecodable {
                let name: String
                let homepage: String?
                let members: [Member]
                let city: String?

                static func decode(_ e: Extractor) throws -> Band {
                    try Band(
                        name: e <| "name",                          // e.value("name")
                        homepage: e <|? "homepage",                 // e.valueOptional("homepage")
                        members: e <|| "members",                   // e.array("members")
                        city: e <|? ["location", "city"]            // nested key paths
                    )
                }
            }
            let band = try Band.decodeValue(
                from: .string(#"{"name": "Sigur Rós", "members": [{"name": "Jónsi"}], "location": {"city": "Reykjavík"}}"#))
            #expect(band.name == "Sigur Rós" && band.homepage == nil && band.members.map(\.name) == ["Jónsi"])
            #expect(band.city == "Reykjavík")
        }

        @Test func aDateFieldWithAPattern() throws {
            struct Member: JSONDecodable {
                let name: String
                let birthDate: Date

                static func decode(_ e: Extractor) throws -> Member {
                    try Member(
                        name: e <| "name",
                        birthDate: try e.value("birth_date", .pattern("yyyy-MM-dd"))
                    )
                }
            }
            let member = try Member.decodeValue(from: .string(#"{"name": "Kim Gordon", "birth_date": "1953-04-28"}"#))
            let born = try DocumentationExamples.day("1953-04-28")
            #expect(member.birthDate == born)
        }

        @Test func theProtocolsExampleDecodesAMember() throws {
            struct BandMember: JSONDecodable {
                let name: String
                let birthDate: Date

                static func decode(_ e: Extractor) throws -> BandMember {
                    try BandMember(name: e <| "name", birthDate: Transformer.pattern("yyyy-MM-dd").apply(e <| "birth_date"))
                }
            }
            let member = try BandMember.decodeValue(from: .string(#"{"name": "Björk", "birth_date": "1965-11-21"}"#))
            let born = try DocumentationExamples.day("1965-11-21")
            #expect(member.name == "Björk" && member.birthDate == born)
        }

        @Test func aTransformerMakesMoney() throws {
            struct Money: Equatable { var cents: Int }
            let e = try Extractor.decodeValue(from: .string(#"{"price": 1250}"#))

            let cents = Transformer<Int, Money> { Money(cents: $0) }
            let price: Money = try cents.apply(e <| "price")

            #expect(price == Money(cents: 1250))
        }

        @Test func aLossyArrayKeepsItsFailures() throws {
            struct Review: JSONDecodable {
                let stars: Int
                static func decode(_ e: Extractor) throws -> Review { try Review(stars: e <| "stars") }
            }
            let json = """
                {"reviews": [{"stars": 5},
                             {"stars": 4},
                   {"stars": "five"}]}
                """
            let e = try Extractor.decodeValue(from: .string(json))
            var logged: [String] = []
            func log(_ error: DecodeError) { logged.append("\(error)") }

            let reviews: LossyArray<Review> = try e <| "reviews"
            for failure in reviews.failures { log(failure.error) }     // 3:14: error: expected Int at reviews[2].stars, ...

            #expect(reviews.elements.map(\.stars) == [5, 4])
            #expect(logged.count == 1)
            #expect(logged.first?.hasPrefix("3:14: error: expected Int at reviews[2].stars, ") == true, "\(logged)")
        }

        @Test func decodeValueFromAStringAndAFile() throws {
            try Self.enterScratch()
            struct Group: JSONDecodable {
                let name: String
                static func decode(_ e: Extractor) throws -> Group { try Group(name: e <| "name") }
            }
            typealias Catalog = Response<BandCatalog.Band>
            let json = #"{"data": {"group": {"name": "Dischord"}}}"#

            let group = try Group.decodeValue(from: .string(json), rootKeyPath: ["data", "group"])
            let catalog = try Catalog.decodeValue(from: .file("bands.json"))

            #expect(group.name == "Dischord")
            #expect(catalog.objects.map(\.name) == Self.bandNames)
        }

        @Test func aKeyPathFromLiterals() {
            let name: JSONKeyPath = ["location", "name"]
            let first: JSONKeyPath = ["tree_names", "colloquial", 0]
            let joined = name + ["extra"]
            let everyMember: JSONKeyPath = ["objects", .wildcard, "members"]   // objects[*].members

            #expect(everyMember.description == "objects[*].members")
            #expect(name.description == "location.name")
            #expect(first.description == "tree_names.colloquial[0]")
            #expect(joined.description == "location.name.extra")
        }

        // MARK: - Codable

        struct Member: Codable, Equatable {
            let name: String
            let birthDate: String
        }

        struct CodableBand: Codable, Equatable {
            let name: String
            let members: [Member]
        }

        struct Catalog: Codable, Equatable {
            let objects: [CodableBand]
            let lastUpdated: Date
        }

        @Test func theDecoderIsADropIn() throws {
            try Self.enterScratch()
            typealias Catalog = DocCommentExamples.Catalog
            let data = try Data(contentsOf: URL(fileURLWithPath: "bands.json"))

            let decoder = StreamingJSONDecoder()            // was: JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            decoder.dateDecodingStrategy = .iso8601
            let catalog = try decoder.decode(Catalog.self, from: data)

            let foundation = JSONDecoder()
            foundation.keyDecodingStrategy = .convertFromSnakeCase
            foundation.dateDecodingStrategy = .iso8601
            #expect(catalog == (try foundation.decode(Catalog.self, from: data)))
        }

        @Test func everyKindOfInput() throws {
            try Self.enterScratch()
            struct Band: JSONDecodable {
                let name: String
                static func decode(_ e: Extractor) throws -> Band { try Band(name: e <| "name") }
            }
            struct Catalog: Decodable {
                struct Named: Decodable { let name: String }
                let objects: [Named]
            }
            let catalogURL = URL(fileURLWithPath: "bands.json")

            let reader = JSONReader(.file("bands.json"))
            let stream = JSONStream(.standardInput)
            let band = try Band.decodeValue(from: .string(#"{"name": "Nirvana"}"#))
            let catalog = try StreamingJSONDecoder().decode(Catalog.self, from: .url(catalogURL))

            #expect(try reader.next() == .objectStart)
            #expect(stream.bytesRead == 0)   // (nothing is read until asked for)
            #expect(band.name == "Nirvana")
            #expect(catalog.objects.map(\.name) == Self.bandNames)
        }

        // MARK: - Streaming

        @Test func theStreamHandsOutBandsThenTheRemainder() throws {
            try Self.enterScratch()
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }

            let stream = JSONStream(.file("bands.json"))
            let bands = stream.elements(of: Band.self, at: "objects")
            while let band = try bands.next() {
                print(band.name)
            }
            let updated = try stream.remainder().value("last_updated", .iso8601)

            #expect(printed.lines == Self.bandNames)
            #expect(updated == DocumentationExamples.lastUpdated)
        }

        @Test func theElementsOfAStream() throws {
            try Self.enterScratch()
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }
            var stream = JSONStream(.file("bands.json"))
            do {
                let bands = stream.elements(of: Band.self, at: "objects")
                while let band = try bands.next() { print(band.name) }
                // or: try bands.forEach { band in print(band.name) }
            }
            stream = JSONStream(.file("bands.json"))
            do {
                let bands = stream.elements(of: Band.self, at: "objects")
                try bands.forEach { band in print(band.name) }
            }
            #expect(printed.lines == Self.bandNames + Self.bandNames)
        }

        @Test func theMembersOfAnObject() throws {
            struct User: JSONDecodable {
                let name: String
                static func decode(_ e: Extractor) throws -> User { try User(name: e <| "name") }
            }
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }
            let stream = JSONStream(.string(#"{"users_by_id": {"u1": {"name": "Ian"}, "u2": {"name": "Guy"}}}"#))

            let users = stream.members(of: User.self, at: "users_by_id")
            while let (id, user) = try users.next() { print(id, user.name) }

            #expect(printed.lines == ["u1 Ian", "u2 Guy"])
        }

        @Test func aSkippedElementIsReported() throws {
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }
            let json = #"[{"name":"I", "birth_date":"1962-07-16"}, {"name": 7, "birth_date": "1963-01-01"}]"#

            let people = JSONStream(.string(json)).elements(of: BandMember.self, onError: .skip { skipped in
                print(skipped)   // skipped element 1 at 1:43: ...
            })

            #expect(try people.next()?.name == "I")
            #expect(try people.next() == nil)
            #expect(printed.lines.count == 1)
            #expect(printed.lines.first?.hasPrefix("skipped element 1 at 1:43: ") == true, "\(printed.lines)")
        }

        @Test func locatedBandsGoIntoAnIndex() async throws {
            try Self.enterScratch()
            struct Band: Decodable { let name: String }
            final class Index {
                var offsets: [String: Int] = [:]
                func record(_ name: String, at offset: Int) { offsets[name] = offset }
            }
            let index = Index()
            let input = AsyncJSONInput.chunks(try Self.chunks(of: 64))
            let decoder = StreamingJSONDecoder()

            for try await band in AsyncJSONStream(input).elements(of: Located<Band>.self, at: "objects", decoder: decoder) {
                index.record(band.value.name, at: band.start.byteOffset)   // band.path: objects[41]
            }

            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "bands.json")))
            #expect(index.offsets.count == 5)
            for (name, offset) in index.offsets {
                // Each offset is where that band's object starts.
                var options = JSONParsingOptions()
                options.allowsTrailingGarbage = true
                let band = try Extractor.decodeValue(from: .bytes(Array(bytes[offset...])), options: options)
                #expect(bytes[offset] == UInt8(ascii: "{"))
                #expect(try band.value("name") as String == name)
            }
        }

        @Test func aStreamResumesAtACheckpoint() throws {
            try Self.enterScratch()
            struct Band: Decodable { let name: String }
            let path = "bands.json"
            let decoder = StreamingJSONDecoder()
            let first = JSONStream(.file(path)).elements(of: Located<Band>.self, at: "objects", decoder: decoder)
            _ = try first.next()
            let checkpoint = try #require(try first.next())  // the Rolling Stones, objects[1]

            let stream = JSONStream(.file(path), resumingAt: checkpoint.start, element: checkpoint.path)
            let bands = stream.elements(of: Located<Band>.self, at: "objects", decoder: decoder)

            #expect(try bands.map { try $0.get().value.name } == Array(Self.bandNames.dropFirst()))
        }

        @Test func theAsyncStreamHandsOutBands() async throws {
            try Self.enterScratch()
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }
            let body = try Self.chunks(of: 64)

            let stream = AsyncJSONStream(.chunks(body))
            for try await band in stream.elements(of: Band.self, at: "objects") {
                print(band.name)
            }
            let updated = try await stream.remainder().value("last_updated", .iso8601)

            #expect(printed.lines == Self.bandNames)
            #expect(updated == DocumentationExamples.lastUpdated)
        }

        @Test func aByteBufferBodyStreams() async throws {
            try Self.enterScratch()
            // A stand-in for AsyncHTTPClient's response, whose body is a sequence of NIO
            // `ByteBuffer`s, each with a `readableBytesView` of its bytes.
            struct ByteBuffer { var readableBytesView: ArraySlice<UInt8> }
            struct Response { var body: AsyncMapSequence<AsyncStream<[UInt8]>, ByteBuffer> }
            let response = Response(body: try Self.chunks(of: 50).map { ByteBuffer(readableBytesView: $0[...]) })
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }

            let stream = AsyncJSONStream(.chunks(response.body.map(\.readableBytesView)))
            for try await band in stream.elements(of: Band.self, at: "objects") { print(band.name) }

            #expect(printed.lines == Self.bandNames)
        }

        @Test func thePushStreamTakesChunks() throws {
            try Self.enterScratch()
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "bands.json")))
            let body = stride(from: 0, to: bytes.count, by: 80).map { Array(bytes[$0..<min($0 + 80, bytes.count)]) }

            let stream = PushJSONStream()
            let bands = stream.elements(of: Band.self, at: "objects")
            for chunk in body {                    // as each chunk arrives
                try stream.append(chunk)
                while let band = try bands.next() { print(band.name) }
            }
            try stream.finishInput()               // when the body has ended
            while let band = try bands.next() { print(band.name) }
            let updated = try stream.remainder().value("last_updated", .iso8601)

            #expect(printed.lines == Self.bandNames)
            #expect(updated == DocumentationExamples.lastUpdated)
        }

        // MARK: - Writing

        @Test func theWriterWritesABand() throws {
            try Self.enterScratch()

            let writer = try JSONWriter(toFile: "band.json", format: .pretty())
            try writer.beginObject()
            try writer.key("name")
            try writer.string("Sigur Rós")
            try writer.key("formed")
            try writer.number(1994)
            try writer.endObject()
            try writer.finish()                     // checks balance, flushes, closes the file

            let written = try String(contentsOfFile: "band.json", encoding: .utf8)
            #expect(written == "{\n  \"name\" : \"Sigur Rós\",\n  \"formed\" : 1994\n}")
        }

        @Test func takingTheOutputPieceByPiece() throws {
            let writer = JSONWriter()
            try writer.beginArray()
            try writer.number(1)
            let first = writer.takeOutput()       // [1
            try writer.number(2)
            try writer.endArray()
            try writer.finish()
            let rest = writer.takeOutput()        // ,2]

            #expect(String(decoding: first, as: UTF8.self) == "[1")
            #expect(String(decoding: rest, as: UTF8.self) == ",2]")
            #expect(writer.bytesWritten == 5 && writer.bytes.isEmpty && writer.takeOutput().isEmpty)
        }

        @Test func takingTheOutputWaitsForASortedObject() throws {
            struct Pair: Encodable {
                var b = 2
                var a = 1
            }
            let encoder = StreamingJSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let writer = JSONWriter()
            try writer.beginArray()
            try encoder.encode(Pair(), to: writer)
            var taken = writer.takeOutput()
            try writer.endArray()
            try writer.finish()
            taken += writer.takeOutput()
            #expect(String(decoding: taken, as: UTF8.self) == #"[{"a":1,"b":2}]"#)
        }

        @Test func theFormats() throws {
            let formats: [JSONWriter.Format] = [
                .compact,                           // {"name":"Sigur Rós","members":[1,2]}
                .pretty(),                          // JSONEncoder's .prettyPrinted layout
                .lines,                             // one compact value per line (JSON Lines)
                .jq(),                              // what jq . writes
                JSONWriter.Format(.compact, escapesSlashes: false),
                JSONWriter.Format(.jq(indent: 2), escapesSlashes: false, sortsKeys: true),   // jq -S .
            ]
            struct Sample: Encodable {
                var name = "Sigur Rós"
                var members = [1, 2]
            }
            let outputs = try formats.map { format in
                let writer = JSONWriter(format: format)
                try StreamingJSONEncoder().encode(Sample(), to: writer)
                try writer.finish()
                return String(decoding: writer.data, as: UTF8.self)
            }
            // JSONEncoder's layout (one member: its order of keys is its own).
            let single = ["members": [1, 2]]
            let pretty = JSONWriter(format: formats[1])
            try StreamingJSONEncoder().encode(single, to: pretty)
            try pretty.finish()
            let encoder = JSONEncoder()
            encoder.outputFormatting = .prettyPrinted
            #expect(outputs[0] == #"{"name":"Sigur Rós","members":[1,2]}"#)
            #expect(pretty.data == (try encoder.encode(single)))
            #expect(outputs[1].hasPrefix("{\n  \"name\" : \"Sigur Rós\",\n  \"members\" : [\n    1,"))
            #expect(outputs[2] == #"{"name":"Sigur Rós","members":[1,2]}"# + "\n")
            #expect(outputs[3] == "{\n  \"name\": \"Sigur Rós\",\n  \"members\": [\n    1,\n    2\n  ]\n}\n")
            #expect(outputs[4] == outputs[0])
            #expect(outputs[5] == "{\n  \"members\": [\n    1,\n    2\n  ],\n  \"name\": \"Sigur Rós\"\n}\n")
        }

        enum Status: String, Codable { case active, inactive }

        struct Record: Codable, Equatable {
            let name: String
            let status: Status
        }

        @Test func writeArrayAndWriteLines() throws {
            try Self.enterScratch()
            let bands = [Record(name: "Fugazi", status: .inactive), Record(name: "Sigur Rós", status: .active)]
            let records = bands

            do {
                let writer = try JSONWriter(toFile: "active.json")
                try writer.writeArray(bands.lazy.filter { $0.status == .active })
                try writer.finish()
            }
            do {
                let writer = try JSONWriter(toFile: "records.jsonl", format: .lines)
                try writer.writeLines(records)
                try writer.finish()
            }
            #expect(try String(contentsOfFile: "active.json", encoding: .utf8) == #"[{"name":"Sigur Rós","status":"active"}]"#)
            let lines = try String(contentsOfFile: "records.jsonl", encoding: .utf8)
            #expect(lines == #"{"name":"Fugazi","status":"inactive"}"# + "\n" + #"{"name":"Sigur Rós","status":"active"}"# + "\n")
        }

        @Test func theEncoderIsADropIn() throws {
            try Self.enterScratch()
            let catalog = ["objects": [Record(name: "Fugazi", status: .inactive)]]
            let bands = [Record(name: "Fugazi", status: .inactive)]

            let encoder = StreamingJSONEncoder()            // was: JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            encoder.keyEncodingStrategy = .convertToSnakeCase
            let data = try encoder.encode(catalog)

            let foundation = JSONEncoder()
            foundation.outputFormatting = [.prettyPrinted, .sortedKeys]
            foundation.keyEncodingStrategy = .convertToSnakeCase
            #expect(data == (try foundation.encode(catalog)))

            let writer = try JSONWriter(toFile: "bands.jsonl", format: .lines)
            try writer.writeLines(bands, encoder: encoder)   // any Sequence or AsyncSequence
            try writer.finish()
            #expect(try String(contentsOfFile: "bands.jsonl", encoding: .utf8) == #"{"name":"Fugazi","status":"inactive"}"# + "\n")
        }

        @Test func copyingAReaderReformats() throws {
            try Self.enterScratch()

            let reader = JSONReader(.file("bands.json"))
            let writer = try JSONWriter(toFile: "bands-indented.json", format: .pretty(indent: 4))
            try writer.copy(from: reader)
            try writer.finish()

            let copy = try Data(contentsOf: URL(fileURLWithPath: "bands-indented.json"))
            let original = try Data(contentsOf: URL(fileURLWithPath: "bands.json"))
            let text = String(decoding: copy, as: UTF8.self)
            #expect(text.hasPrefix("{\n    \"objects\" : [\n        {\n            \"name\" : \"Beatles\","))
            #expect(try JSONSerialization.jsonObject(with: copy) as? NSDictionary == JSONSerialization.jsonObject(with: original) as? NSDictionary)
        }

        @Test func anExtractorsValueIsWrittenAsRead() throws {
            try Self.enterScratch()
            let writer = JSONWriter(format: .compact)

            let catalog = try Extractor.decodeValue(from: .file("bands.json"))
            try writer.value(try catalog.value(["objects", 0]))   // the first band, as read

            try writer.finish()
            let written = String(decoding: writer.data, as: UTF8.self)
            #expect(written.hasPrefix(#"{"name":"Beatles","homepage":"http:\/\/www.thebeatles.com\/","active":"inactive","members":["#))
        }
    }
}
