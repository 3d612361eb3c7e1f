import Foundation
import Testing
@testable import Spool

/// `decodeValue` decodes while the document is parsed and releases each element of the
/// outermost decoded array once it is decoded. These tests check that the model is the same
/// either way, that memory stays flat, and that reading a released element again is a clear
/// error, never stale data.
@Suite("Decoding while parsing, releasing decoded elements")
struct ReleasingDecodeTests {
    struct Item: JSONDecodable, Equatable {
        var id: Int
        var name: String
        var tags: [String]
        static func decode(_ e: Extractor) throws -> Item {
            try Item(id: e <| "id", name: e <| "name", tags: e <|| "tags")
        }
    }

    struct Catalog: JSONDecodable, Equatable {
        var items: [Item]
        var total: Int
        static func decode(_ e: Extractor) throws -> Catalog {
            try Catalog(items: e <|| "items", total: e <| "total")
        }
    }

    static func catalogText(count: Int, badAt: Int? = nil, tail: String = "") -> String {
        var text = "{\"items\": ["
        for i in 0..<count {
            if i > 0 { text += ",\n" }
            let id = i == badAt ? "\"\(i)\"" : "\(i)"
            text += "{\"id\": \(id), \"name\": \"item \\u00e9 \(i)\", \"tags\": [\"a\", \"b\(i % 7)\"], \"extra\": {\"x\": [1, 2]}}"
        }
        return text + "],\n \"total\": \(count)}" + tail
    }

    static func options(chunkSize: Int, background: Bool = true, releasing: Bool = true) -> JSONParsingOptions {
        var options = JSONParsingOptions()
        options.chunkSize = chunkSize
        options.parsesInBackground = background
        options.releasesDecodedElements = releasing
        options.parsesBeforeDecodingMaximum = 0  // (small documents in memory are parsed first)
        return options
    }

    static let expected = Catalog(
        items: (0..<12_000).map { Item(id: $0, name: "item é \($0)", tags: ["a", "b\($0 % 7)"]) }, total: 12_000)

    @Test(arguments: [(512, true), (4096, true), (4096, false), (65_536, true), (1 << 22, true)])
    func releasingGivesTheSameModelInBoundedMemory(_ chunkSize: Int, _ background: Bool) throws {
        let text = Self.catalogText(count: 12_000)
        let reader = JSONReader(.string(text), options: Self.options(chunkSize: chunkSize, background: background))
        let catalog = try Catalog.decodeDocument(reader, rootKeyPath: .root)
        #expect(catalog == Self.expected)
        let tape = reader.tape
        #expect(tape.gapChildren == 12_000)  // every element was released...
        #expect(tape.count < 3 * DecodingContext.releaseRun + 3 * chunkSize)  // ...so the tape stayed small
        #expect(tape.count < tape.end / 4)

        let keeping = JSONReader(.string(text), options: Self.options(chunkSize: chunkSize, background: background, releasing: false))
        #expect(try Catalog.decodeDocument(keeping, rootKeyPath: .root) == Self.expected)
        #expect(keeping.tape.gapLength == 0)
        #expect(keeping.tape.count == keeping.tape.end - keeping.tape.base)
    }

    @Test func aTopLevelArrayAndADictionaryAreReleasedToo() throws {
        let array = "[" + (0..<9000).map { "{\"id\": \($0), \"name\": \"n\", \"tags\": []}" }.joined(separator: ",") + "]"
        let reader = JSONReader(.string(array), options: Self.options(chunkSize: 1024))
        let items = try [Item].decodeDocument(reader, rootKeyPath: .root)
        #expect(items.map(\.id) == Array(0..<9000))
        #expect(reader.tape.gapChildren == 9000)

        let object = "{" + (0..<9000).map { "\"k\($0)\": [\($0), \($0 + 1)]" }.joined(separator: ",") + "}"
        let objectReader = JSONReader(.string(object), options: Self.options(chunkSize: 1024))
        let map = try [String: [Int]].decodeDocument(objectReader, rootKeyPath: .root)
        #expect(map.count == 9000)
        #expect(map["k8999"] == [8999, 9000])
        #expect(objectReader.tape.gapChildren == 9000)
    }

    @Test func errorsAfterReleasedElementsKeepTheirIndexAndLocation() throws {
        let text = Self.catalogText(count: 12_000, badAt: 10_500)
        let error = #expect(throws: DecodeError.self) {
            _ = try Catalog.decodeValue(from: .string(text), options: Self.options(chunkSize: 2048))
        }
        #expect(error?.keyPath == ["items", 10_500, "id"])
        #expect(error?.location?.line == 10_501)
        #expect(error?.description.hasPrefix("10501:8: error: expected Int at items[10500].id, found string") == true, "\(String(describing: error))")
    }

    @Test func aSyntaxErrorLaterInTheInputOutranksADecodingError() throws {
        let text = Self.catalogText(count: 12_000, badAt: 3, tail: " x")
        let error = #expect(throws: ParseError.self) {
            _ = try Catalog.decodeValue(from: .string(text), options: Self.options(chunkSize: 2048))
        }
        #expect(error?.message.contains("expected end of input") == true)
    }

    struct ReadsTwice: JSONDecodable {
        static func decode(_ e: Extractor) throws -> ReadsTwice {
            let _: [Item] = try e <|| "items"
            let _: Item = try e <| ["items", 0]
            return ReadsTwice()
        }
    }

    @Test func readingAReleasedArrayAgainIsAClearError() throws {
        let text = Self.catalogText(count: 12_000)
        let error = #expect(throws: DecodeError.self) {
            _ = try ReadsTwice.decodeValue(from: .string(text), options: Self.options(chunkSize: 4096))
        }
        #expect(error?.code == .released)
        #expect(error?.message.contains("elements of items were released once decoded") == true)
        #expect(error?.message.contains("releasesDecodedElements") == true)
        // Without releasing, the same model decodes.
        _ = try ReadsTwice.decodeValue(from: .string(text), options: Self.options(chunkSize: 4096, releasing: false))
    }

    @Test func aSmallDocumentInMemoryIsParsedBeforeItIsDecoded() throws {
        let text = Self.catalogText(count: 2_000)
        var options = JSONParsingOptions()
        #expect(text.utf8.count <= options.parsesBeforeDecodingMaximum)
        // Parsed whole first: an array read twice reads the same elements, as with JSONDecoder.
        _ = try ReadsTwice.decodeValue(from: .string(text), options: options)
        #expect(try Catalog.decodeValue(from: .string(text), options: options) == Catalog.decodeValue(from: .string(text), options: Self.options(chunkSize: 65_536)))
        // Above the maximum, decoded while parsed: its elements released.
        options.parsesBeforeDecodingMaximum = text.utf8.count - 1
        let error = #expect(throws: DecodeError.self) { _ = try ReadsTwice.decodeValue(from: .string(text), options: options) }
        #expect(error?.message.contains("released once decoded") == true)
    }

    struct KeepsRaw: JSONDecodable {
        var raw: [Extractor]
        static func decode(_ e: Extractor) throws -> KeepsRaw { try KeepsRaw(raw: e <|| "items") }
    }

    @Test func anExtractorOfAReleasedElementThrowsInsteadOfReadingStaleTokens() throws {
        let text = Self.catalogText(count: 12_000)
        let kept = try KeepsRaw.decodeValue(from: .string(text), options: Self.options(chunkSize: 4096))
        let first = try #require(kept.raw.first)
        #expect(first.token == nil)
        #expect(first.location == nil)
        let error = #expect(throws: DecodeError.self) { _ = try first.decode(as: Item.self) }
        #expect(error?.message.contains("released once decoded") == true)
        let keptWhole = try KeepsRaw.decodeValue(from: .string(text), options: Self.options(chunkSize: 4096, releasing: false))
        #expect(try keptWhole.raw[11_999].decode(as: Item.self).id == 11_999)
    }

    @Test func aReleasedTapeDiscardsAndAppendsConsistently() throws {
        // Drive the tape directly: write a document, release a run of children, then drop
        // tokens across the gap and append more.
        let reader = JSONReader(.string("[" + (0..<100).map { "\"s\($0)\"" }.joined(separator: ",") + "] "), options: Self.options(chunkSize: 1 << 20))
        reader.pinnedFrom = 0
        try reader.readWholeValue(at: 0)
        let tape = reader.tape
        #expect(tape.end == 102)
        tape.release(1, upTo: 51, ofContainer: 0, children: 50)
        #expect(!tape.contains(1) && !tape.contains(50) && tape.contains(51) && tape.contains(0))
        #expect(String(decoding: tape.bytes(of: tape[51]), as: UTF8.self) == "s50")
        #expect(tape.canRelease(from: 51, ofContainer: 0))
        #expect(!tape.canRelease(from: 52, ofContainer: 0))
        tape.release(51, upTo: 61, ofContainer: 0, children: 10)
        #expect(tape.gapChildren == 60 && tape.count == 42)
        #expect(String(decoding: tape.bytes(of: tape[61]), as: UTF8.self) == "s60")
        tape.discard(below: 30)  // inside the gap: drops everything before it, and the gap
        #expect(tape.base == 61 && tape.gapLength == 0 && tape.count == 41)
        #expect(String(decoding: tape.bytes(of: tape[99]), as: UTF8.self) == "s98")
        #expect(tape[101].kind == .arrayEnd)
    }
}
