import Foundation
import Spool
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - WritingJSON.md

// The Swift examples of the Writing JSON article, verbatim, run against the outputs the article
// shows. (Under DocumentationExamples, whose examples run one at a time: some write files from
// the current directory.)
extension DocumentationExamples {
    @Suite("Writing JSON article")
    struct WritingJSONArticle {
        /// The article's text.
        static let article: [String] = {
            let url = URL(fileURLWithPath: DocumentationExamples.repository)
                .appendingPathComponent("Sources/Spool/Spool.docc/WritingJSON.md")
            return ((try? String(contentsOf: url, encoding: .utf8)) ?? "").components(separatedBy: "\n")
        }()

        /// The fenced block after the first line that is `marker`, in the section `heading`.
        static func shown(in heading: String, after marker: String = "prints") -> [String] {
            let lines = article
            guard let section = lines.firstIndex(of: heading),
                let start = lines[section...].firstIndex(of: marker),
                let open = lines[start...].firstIndex(where: { $0.hasPrefix("```") })
            else { return [] }
            let body = lines[(open + 1)...]
            guard let close = body.firstIndex(where: { $0.hasPrefix("```") }) else { return [] }
            return Array(body[..<close])
        }

        /// A fresh folder holding `Examples/bands.json`, made the current directory.
        static func enterScratch() throws -> URL {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spool-writing-\(UUID())")
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent("Examples"), withIntermediateDirectories: true)
            let bands = URL(fileURLWithPath: DocumentationExamples.repository).appendingPathComponent("Examples/bands.json")
            try FileManager.default.copyItem(at: bands, to: folder.appendingPathComponent("Examples/bands.json"))
            _ = FileManager.default.changeCurrentDirectoryPath(folder.path)
            return folder
        }

        @Test func writingTokensPrintsTheObjectShown() throws {
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }

            // From the article, verbatim:
            let writer = JSONWriter()
            try writer.beginObject()
            try writer.key("name")
            try writer.string("Sigur Rós")
            try writer.key("formed")
            try writer.number(1994)
            try writer.key("on_hiatus")
            try writer.bool(true)
            try writer.key("homepage")
            try writer.null()
            try writer.key("members")
            try writer.beginArray()
            try writer.string("Jónsi Birgisson")
            try writer.string("Georg Hólm")
            try writer.endArray()
            try writer.endObject()
            try writer.finish()
            print(String(decoding: writer.bytes, as: UTF8.self))

            #expect(printed.lines == Self.shown(in: "### Write tokens"))
            #expect(printed.lines == [
                #"{"name":"Sigur Rós","formed":1994,"on_hiatus":true,"homepage":null,"members":["Jónsi Birgisson","Georg Hólm"]}"#
            ])
            #expect(writer.isFinished && writer.depth == 0)
        }

        @Test func numbersAreWrittenAsTheArticleSays() throws {
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }

            // From the article, verbatim:
            let writer = JSONWriter()
            try writer.beginArray()
            try writer.number(UInt64.max)
            try writer.number(0.1)
            try writer.number(100.0)
            try writer.number(1e21)
            try writer.number(Decimal(string: "3.14159")!)
            try writer.number(text: "1E400")
            try writer.number(text: "4.50")
            try writer.endArray()
            try writer.finish()
            print(String(decoding: writer.bytes, as: UTF8.self))   // [18446744073709551615,0.1,100,1e+21,3.14159,1E400,4.50]

            #expect(printed.lines == ["[18446744073709551615,0.1,100,1e+21,3.14159,1E400,4.50]"])
            // What JSONEncoder writes for the same Double and Decimal values.
            let foundation = try JSONEncoder().encode([0.1, 100.0, 1e21])
            #expect(String(decoding: foundation, as: UTF8.self) == "[0.1,100,1e+21]")
        }

        @Test func encodingIntoAWriterPrintsTheObjectShown() throws {
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }

            // From the article, verbatim:
            struct Show: Codable {
                let city: String
                let date: Date
            }

            let encoder = StreamingJSONEncoder()   // was: JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            encoder.dateEncodingStrategy = .iso8601
            let writer = JSONWriter()
            try writer.beginObject()
            try writer.key("band")
            try writer.string("Sigur Rós")
            try writer.key("next_show")
            try encoder.encode(Show(city: "Reykjavík", date: Date(timeIntervalSince1970: 1_772_323_200)), to: writer)
            try writer.endObject()
            try writer.finish()
            print(String(decoding: writer.bytes, as: UTF8.self))   // {"band":"Sigur Rós","next_show":{"city":"Reykjavík","date":"2026-03-01T00:00:00Z"}}

            #expect(printed.lines == [#"{"band":"Sigur Rós","next_show":{"city":"Reykjavík","date":"2026-03-01T00:00:00Z"}}"#])
            let foundation = JSONEncoder()
            foundation.outputFormatting = [.sortedKeys]
            foundation.dateEncodingStrategy = .iso8601
            let show = Show(city: "Reykjavík", date: Date(timeIntervalSince1970: 1_772_323_200))
            #expect(try encoder.encode(show) == foundation.encode(show))
        }

        @Test func writeArrayNestsTheMembersAsShown() throws {
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }

            // From the article, verbatim:
            struct Member: Codable {
                let name: String
                let birthDate: String
            }

            let members = [
                Member(name: "Jónsi Birgisson", birthDate: "1975-04-23"),
                Member(name: "Georg Hólm", birthDate: "1976-04-06"),
            ]
            let encoder = StreamingJSONEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            let writer = JSONWriter(format: .pretty())
            try writer.beginObject()
            try writer.key("name")
            try writer.string("Sigur Rós")
            try writer.key("members")
            try writer.writeArray(members, encoder: encoder)
            try writer.endObject()
            try writer.finish()
            print(String(decoding: writer.bytes, as: UTF8.self))

            let shown = Self.shown(in: "### Write a sequence")
            #expect(shown.count == 13)
            #expect(printed.lines == [shown.joined(separator: "\n")])
            // The same JSON as JSONEncoder writes for the same value (in another key order).
            struct Band: Encodable {
                let name: String
                let members: [Member]
            }
            let foundation = JSONEncoder()
            foundation.keyEncodingStrategy = .convertToSnakeCase
            let expected = try foundation.encode(Band(name: "Sigur Rós", members: members))
            #expect(
                try JSONSerialization.jsonObject(with: writer.data) as? NSDictionary
                    == JSONSerialization.jsonObject(with: expected) as? NSDictionary)
        }

        @MainActor @Test func writeLinesTakesStreamedElements() async throws {
            let folder = try Self.enterScratch()
            defer { try? FileManager.default.removeItem(at: folder) }

            struct Member: Codable {
                let name: String
                let birthDate: String
            }
            let encoder = StreamingJSONEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase

            // From the Streaming article, verbatim:
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

            // From the article, verbatim:
            let decoder = StreamingJSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            let stream = AsyncJSONStream(.chunks(try chunks(ofFile: "Examples/bands.json")))
            let beatles = stream.elements(of: Member.self, at: ["objects", 0, "members"], decoder: decoder)
            let lines = try JSONWriter(toFile: "beatles.jsonl", format: .lines)
            try await lines.writeLines(beatles, encoder: encoder)
            try lines.finish()

            let written = try String(contentsOf: folder.appendingPathComponent("beatles.jsonl"), encoding: .utf8)
            let shown = Self.shown(in: "### Write a sequence", after: "`beatles.jsonl` then holds")
            #expect(shown.count == 4)
            #expect(written == shown.map { $0 + "\n" }.joined())
        }

        @Test func theFormatExamplePrintsWhatIsShown() throws {
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }

            // From the article, verbatim:
            let format = JSONWriter.Format(.pretty(indent: 2), escapesSlashes: false, maxIndentation: 4)
            let writer = JSONWriter(format: format)
            try writer.beginObject()
            try writer.key("homepage")
            try writer.string("https://foofighters.com")
            try writer.key("members")
            try writer.beginArray()
            try writer.beginObject()
            try writer.key("name")
            try writer.string("Dave Grohl")
            try writer.endObject()
            try writer.endArray()
            try writer.endObject()
            try writer.finish()
            print(String(decoding: writer.bytes, as: UTF8.self))

            let shown = Self.shown(in: "### Choose a format")
            #expect(shown.count == 8)
            #expect(printed.lines == [shown.joined(separator: "\n")])
            // By default, slashes are escaped and every level is indented.
            let plain = JSONWriter(format: .pretty())
            try plain.beginArray()
            try plain.beginArray()
            try plain.string("a/b")
            try plain.endArray()
            try plain.endArray()
            try plain.finish()
            #expect(String(decoding: plain.bytes, as: UTF8.self) == "[\n  [\n    \"a\\/b\"\n  ]\n]")
        }

        @Test func takeOutputHandsOverEachLine() throws {
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }

            // From the article, verbatim:
            let writer = JSONWriter(format: .lines)
            var sent: [UInt8] = []
            for name in ["Beatles", "Nirvana"] {
                try writer.beginObject()
                try writer.key("name")
                try writer.string(name)
                try writer.endObject()
                sent += writer.takeOutput()   // hand these bytes on; the writer forgets them
            }
            try writer.finish()
            print(writer.bytes.count, writer.bytesWritten)   // 0 38
            print(String(decoding: sent, as: UTF8.self))

            #expect(printed.lines == ["0 38", "{\"name\":\"Beatles\"}\n{\"name\":\"Nirvana\"}\n"])
        }

        @Test func aDescriptorWriterLeavesTheDescriptorOpen() throws {
            var ends: [Int32] = [0, 0]
            #expect(pipe(&ends) == 0)
            defer { close(ends[0]) }
            let writer = JSONWriter(fileDescriptor: ends[1], format: .lines)
            try writer.string("Sigur Rós")
            try writer.flush()
            #expect(writer.bytesWritten == 13)
            try writer.finish()
            #expect(write(ends[1], "x", 1) == 1)  // still open: finish() did not close it
            close(ends[1])
            var received = [UInt8](repeating: 0, count: 64)
            let count = read(ends[0], &received, 64)
            #expect(String(decoding: received.prefix(max(count, 0)), as: UTF8.self) == "\"Sigur Rós\"\nx")
        }

        @Test func copyingAReaderReformatsIt() throws {
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }

            // From the article, verbatim:
            let reader = JSONReader(.string(#"{"band": "Sigur Rós", "rating": 4.50, "tags": ["post-rock"]}"#))
            let writer = JSONWriter(format: .pretty(indent: 4))
            try writer.copy(from: reader)
            try writer.finish()
            print(String(decoding: writer.bytes, as: UTF8.self))

            let shown = Self.shown(in: "### Copy from a reader or an extractor")
            #expect(shown.count == 7)
            #expect(printed.lines == [shown.joined(separator: "\n")])
        }

        @Test func severalValuesCopyIntoJSONLines() throws {
            var options = JSONParsingOptions()
            options.allowsMultipleValues = true
            let reader = JSONReader(.string("{\"a\": 1}\n\n[2, 3.0]"), options: options)
            let writer = JSONWriter(format: .lines)
            try writer.copy(from: reader)
            try writer.finish()
            #expect(String(decoding: writer.bytes, as: UTF8.self) == "{\"a\":1}\n[2,3.0]\n")

            let again = JSONReader(.string("1 2"), options: options)
            let compact = JSONWriter()
            #expect(throws: WriteError.self) { try compact.copy(from: again) }
        }

        @Test func anExtractorsValueIsWrittenAsRead() throws {
            DocumentationExamples.enterRepository()
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }

            // From the article, verbatim:
            let catalog = try Extractor.decodeValue(from: .file("Examples/bands.json"))
            let writer = JSONWriter()
            try writer.value(try catalog.value(["objects", 4, "members", 0]))
            try writer.finish()
            print(String(decoding: writer.bytes, as: UTF8.self))   // {"name":"Jónsi Birgisson","birth_date":"1975-04-23"}

            #expect(printed.lines == [#"{"name":"Jónsi Birgisson","birth_date":"1975-04-23"}"#])
        }

        @Test func misuseIsRefusedAndTheWriterGoesOn() throws {
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }

            // From the article, verbatim:
            let writer = JSONWriter()
            try writer.beginObject()
            try writer.key("rating")
            do {
                try writer.endObject()           // the key has no value yet
            } catch {
                print(error)   // error: endObject() right after a key: write the key's value first
            }
            do {
                try writer.number(text: "4.")    // not a JSON number
            } catch {
                print(error)   // error: "4." is not a JSON number
            }
            try writer.number(text: "4.5")
            try writer.endObject()
            try writer.finish()
            print(String(decoding: writer.bytes, as: UTF8.self))   // {"rating":4.5}

            #expect(printed.lines == [
                "error: endObject() right after a key: write the key's value first",
                #"error: "4." is not a JSON number"#,
                #"{"rating":4.5}"#,
            ])
        }

        @Test func eachCodeTheArticleListsIsThrownWhereItSays() throws {
            func code(_ body: () throws -> Void) -> WriteError.Code? {
                do {
                    try body()
                    return nil
                } catch {
                    return (error as? WriteError)?.code
                }
            }
            let object = JSONWriter()
            try object.beginObject()
            #expect(code { try object.string("value where a key is due") } == .misuse)
            try object.key("k")
            #expect(code { try object.key("key where a value is due") } == .misuse)
            #expect(code { try object.endArray() } == .misuse)
            #expect(code { try object.number(Double.nan) } == .invalidValue)
            #expect(code { try object.number(-Double.infinity) } == .invalidValue)
            #expect(code { try object.string(utf8: [0xC0, 0x80]) } == .invalidValue)
            try object.null()
            #expect(code { try object.finish() } == .misuse)  // a container still open
            try object.endObject()
            #expect(code { try object.number(2) } == .misuse)  // a second top-level value
            #expect(code { try JSONWriter().finish() } == .misuse)  // before any value
            try object.finish()
            #expect(code { try object.null() } == .closed)
            #expect(String(decoding: object.bytes, as: UTF8.self) == #"{"k":null}"#)
        }

        @Test func aFileThatCannotBeCreatedFailsAtOnce() throws {
            let folder = try Self.enterScratch()
            defer { try? FileManager.default.removeItem(at: folder) }
            let printed = Printed()
            func print(_ items: Any...) { printed.record(items) }

            // From the article, verbatim:
            do {
                _ = try JSONWriter(toFile: "no-such-folder/bands.json")
            } catch {
                print(error)   // error: cannot open 'no-such-folder/bands.json': No such file or directory (ENOENT)
            }

            #expect(printed.lines == ["error: cannot open 'no-such-folder/bands.json': No such file or directory (ENOENT)"])
            do throws(WriteError) {
                _ = try JSONWriter(toFile: "no-such-folder/bands.json")
                Issue.record("the writer opened a file in a missing folder")
            } catch {
                #expect(error.code == .output && error.errno == ENOENT)
            }
        }

        @Test func anOutputErrorIsThrownAgainByEveryLaterCall() throws {
            let writer = JSONWriter(fileDescriptor: -1, format: .lines)  // no descriptor at all
            try writer.string("lost")
            var first: WriteError?
            do throws(WriteError) { try writer.flush() } catch { first = error }
            #expect(first?.code == .output && first?.errno == EBADF)
            do throws(WriteError) {
                try writer.string("again")
                Issue.record("a write after an output error went through")
            } catch {
                #expect(error == first)
            }
        }
    }
}
