import Foundation
import Testing
@testable import Spool

/// ``JSONInput`` and ``AsyncJSONInput``: every kind of input gives the same tokens, errors and
/// locations as bytes in memory, and an input that cannot be read is an ``InputError`` naming
/// it, from every door, never a crash.
@Suite("JSON inputs")
struct JSONInputTests {
    static let files = ConformanceTests.all

    /// The sync inputs of a JSONTestSuite file: its path, its file URL, a descriptor on it,
    /// and its bytes as `Data` (and as a `String` when they are valid UTF-8).
    static func inputs(_ name: String) -> [(String, JSONInput)] {
        let url = Fixtures.parsingDirectory.appendingPathComponent(name)
        let bytes = Fixtures.bytes(name)
        var inputs: [(String, JSONInput)] = [
            ("file", .file(url.path)), ("url", .url(url)), ("data", .data(Data(bytes))),
            ("descriptor", .fileDescriptor(open(url.path, O_RDONLY), closeWhenDone: true)),
        ]
        if let text = String(validating: bytes, as: UTF8.self) { inputs.append(("string", .string(text))) }
        return inputs
    }

    @Test(arguments: [1, 7, 4096])
    func everyInputKindReadsTheSuiteAsBytesDo(_ chunkSize: Int) {
        for name in Self.files {
            let expected = readAll(.bytes(Fixtures.bytes(name)), chunkSize: chunkSize)
            #expect(expected == readAll(Fixtures.bytes(name), chunkSize: chunkSize), "\(name)")
            for (kind, input) in Self.inputs(name) {
                expectSameOutcome(readAll(input, chunkSize: chunkSize), expected, "\(name) as \(kind) at chunk size \(chunkSize)")
            }
        }
    }

    @Test(arguments: [1, 7, 4096])
    func asyncInputsReadTheSuiteAsBytesDo(_ size: Int) async {
        for name in Self.files {
            let bytes = Fixtures.bytes(name)
            let expected = readAll(bytes)
            // Chunks of `size` bytes, as `Data` (contiguous: no loop over their bytes) and as
            // slices; and single bytes gathered into chunks of `size`.
            let asData = await readAll(.chunks(Self.stream(bytes, size: size).map { Data($0) }))
            let asSlices = await readAll(.chunks(Self.stream(bytes, size: size).map { $0[...] }))
            let asBytes = await readAll(.bytes(Self.stream(bytes, size: 1).compactMap(\.first)), chunkSize: size)
            for (kind, outcome) in [("Data chunks", asData), ("slice chunks", asSlices), ("bytes", asBytes)] {
                expectSameOutcome(outcome, expected, "\(name) as \(kind) of \(size)")
            }
        }
    }

    /// `bytes` in chunks of `size`, with an empty chunk between every two.
    static func stream(_ bytes: [UInt8], size: Int) -> AsyncStream<[UInt8]> {
        AsyncStream { continuation in
            var offset = 0
            while offset < bytes.count {
                continuation.yield(Array(bytes[offset..<min(bytes.count, offset + size)]))
                continuation.yield([])
                offset += size
            }
            continuation.finish()
        }
    }

    struct Band: Decodable, Equatable, JSONDecodable {
        let name: String
        static func decode(_ e: Extractor) throws -> Band { try Band(name: e <| "name") }
    }

    /// Every door, given an input that cannot be read, throws `expected` where it first reads.
    func expectEveryDoor(_ input: JSONInput, throws check: @escaping (InputError) -> Bool) async {
        func matches(_ error: any Error) -> Bool {
            if let error = error as? InputError { return check(error) }
            if case DecodingError.dataCorrupted(let context) = error, let error = context.underlyingError as? InputError {
                return check(error)
            }
            return false
        }
        #expect(performing: { _ = try JSONReader(input).next() }, throws: matches)
        #expect(performing: { _ = try JSONStream(input).elements(of: Band.self, at: "objects").next() }, throws: matches)
        #expect(performing: { _ = try JSONStream(input).count(at: "objects") }, throws: matches)
        #expect(performing: { _ = try JSONStream(input).remainder() }, throws: matches)
        #expect(performing: { _ = try [Band].decodeValue(from: input, rootKeyPath: "objects") }, throws: matches)
        #expect(performing: { _ = try StreamingJSONDecoder().decode([Band].self, from: input, rootKeyPath: "objects") }, throws: matches)
    }

    @Test func aMissingFileIsAnInputErrorNamingIt() async {
        let path = "/nonexistent/spool/bands.json"
        await expectEveryDoor(.file(path)) { $0.source == path && $0.operation == "open" && $0.errno == ENOENT }
        await expectEveryDoor(.url(URL(fileURLWithPath: path))) { $0.source == path && $0.errno == ENOENT }
        #expect(JSONInput.file(path).name == path)
    }

    @Test func aDirectoryIsAnInputError() async {
        await expectEveryDoor(.file(NSTemporaryDirectory())) { $0.errno == EISDIR }
    }

    @Test func aURLThatIsNotAFileIsRefusedNamingIt() async throws {
        let url = try #require(URL(string: "https://example.com/bands.json"))
        await expectEveryDoor(.url(url)) {
            $0.source == "https://example.com/bands.json" && $0.operation == "open" && $0.errno == nil
                && $0.description.contains("only file URLs are read")
        }
        #expect(JSONInput.url(url).name == "https://example.com/bands.json")
    }

    @Test func aFileURLWithEscapedCharactersIsRead() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("spool input \(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("bänds #1.json")
        try Data(#"{"objects": [{"name": "Nirvana"}]}"#.utf8).write(to: file)
        #expect(file.absoluteString.contains("%20"))
        let bands = try StreamingJSONDecoder().decode([Band].self, from: .url(file), rootKeyPath: "objects")
        #expect(bands == [Band(name: "Nirvana")])
        #expect(JSONInput.url(file).name == file.path)
    }

    @Test func aDescriptorIsClosedOnlyWhenAsked() throws {
        let path = Fixtures.path("JSONTestSuite/test_parsing/y_array_empty.json")
        func isOpen(_ descriptor: Int32) -> Bool { fcntl(descriptor, F_GETFD) != -1 }
        let kept = open(path, O_RDONLY)
        defer { close(kept) }
        do {
            let reader = JSONReader(.fileDescriptor(kept, closeWhenDone: false))
            #expect(try reader.next() == .arrayStart)
        }
        #expect(isOpen(kept))
        let handedOver = open(path, O_RDONLY)
        do {
            let stream = JSONStream(.fileDescriptor(handedOver, closeWhenDone: true))
            #expect(try stream.count() == 0)
        }
        #expect(!isOpen(handedOver))
        #expect(JSONInput.fileDescriptor(7, closeWhenDone: false).name == "fd 7")
        #expect(JSONInput.standardInput.name == "<stdin>")
        #expect(JSONInput.data(Data()).name == "<memory>")
    }

    @Test func aDescriptorInputIsReadByOneReader() throws {
        let path = Fixtures.path("JSONTestSuite/test_parsing/y_array_empty.json")
        let descriptor = open(path, O_RDONLY)
        let input = JSONInput.fileDescriptor(descriptor, closeWhenDone: true)
        do {
            #expect(try JSONReader(input).next() == .arrayStart)
        }
        // The first reader closed it; the number may be reused by a file opened since, which
        // a second reader of the same input must neither read nor close.
        let other = open(path, O_RDONLY)
        defer { close(other) }
        let copy = input
        let error = #expect(throws: InputError.self) { _ = try JSONReader(copy).next() }
        #expect(error?.description.contains("read already") == true)
        #expect(fcntl(other, F_GETFD) != -1)
        #expect(throws: InputError.self) { _ = try StreamingJSONDecoder().decode([Int].self, from: input) }
        // Each `standardInput` is a new input.
        #expect(JSONInput.standardInput.name == JSONInput.standardInput.name)
    }

    @Test func anInputIsReadAfreshEachTime() {
        let input = JSONInput.file(Fixtures.path("JSONTestSuite/test_parsing/y_object_basic.json"))
        let first = readAll(input)
        #expect(first.error == nil && !first.tokens.isEmpty)
        #expect(readAll(input) == first)
        #expect(JSONReader(input).totalBytes == Fixtures.bytes("y_object_basic.json").count)
    }
}
