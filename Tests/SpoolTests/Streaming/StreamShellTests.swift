import Foundation
import Spool
import Testing

/// The sync, async and push streams are shells over one streaming loop: the same elements,
/// members, counts, errors and remainders however the input arrives.
@Suite("Stream shells")
struct StreamShellTests {
    static var catalog: String { JSONStreamTests.sample }

    static func chunks(_ bytes: [UInt8], size: Int) -> AsyncStream<[UInt8]> {
        AsyncStream { continuation in
            for start in stride(from: 0, to: bytes.count, by: size) {
                continuation.yield(Array(bytes[start..<min(bytes.count, start + size)]))
            }
            continuation.finish()
        }
    }

    /// Pushes `bytes` in pieces of `size`, taking elements after each, as a channel handler would.
    static func pushedNames(_ bytes: [UInt8], size: Int) throws -> (names: [String], updated: Date, progress: [Int]) {
        let stream = PushJSONStream()
        var progress: [Int] = []
        stream.onProgress = { progress.append($0) }
        let bands = stream.elements(of: Band.self, at: "objects")
        var names: [String] = []
        for start in stride(from: 0, to: bytes.count, by: size) {
            try stream.append(bytes[start..<min(bytes.count, start + size)])
            while let band = try bands.next() { names.append(band.name) }
            #expect(!bands.isFinished || start + size >= bytes.count || names.count == 5)
        }
        try stream.finishInput()
        while let band = try bands.next() { names.append(band.name) }
        #expect(bands.isFinished)
        let updated = try stream.remainder().value("last_updated", .iso8601)
        return (names, updated, progress)
    }

    @Test(arguments: [1, 7, 100, 1 << 20])
    func pushModeHandsOutWhatEachChunkCompleted(_ size: Int) throws {
        let bytes = Array(Self.catalog.utf8)
        let pushed = try Self.pushedNames(bytes, size: size)
        #expect(pushed.names == SeedModelTests.sampleNames)
        #expect(pushed.updated == SeedModelTests.sampleLastUpdated)
        #expect(pushed.progress.last == bytes.count)
    }

    @Test func anElementComesOutAsSoonAsItsLastByteArrives() throws {
        let stream = PushJSONStream()
        let values = stream.elements(of: Int.self, at: "a")
        try stream.append(Array(#"{"a": [1, 2"#.utf8))
        #expect(try values.next() == 1)
        #expect(try values.next() == nil)  // 2 may go on: 23
        #expect(!values.isFinished)
        try stream.append(Array(#", [3"#.utf8))
        #expect(try values.next() == 2)
        try stream.append(Array("]]}".utf8))
        let error = #expect(throws: DecodeError.self) { try values.next() }
        #expect(error?.keyPath == ["a", 2])
    }

    @Test func everyTwoWaySplitGivesTheSyncStreamsResult() throws {
        let text = #"{"meta": {"n": [1, {"x": 2}]}, "items": [{"k": "a"}, {"k": "b\u00e9"}, 3, {"k": "c"}], "end": true}"#
        let bytes = Array(text.utf8)
        func sync() throws -> [String] {
            var seen: [String] = []
            let stream = JSONStream(.bytes(bytes))
            try stream.elements(of: JSONValue.self, at: "items").forEach { seen.append("\($0)") }
            seen.append("\(try stream.remainder() <| "end" as Bool)")
            return seen
        }
        let expected = try sync()
        for split in 0...bytes.count {
            let stream = PushJSONStream()
            let items = stream.elements(of: JSONValue.self, at: "items")
            var seen: [String] = []
            try stream.append(bytes[..<split])
            while let item = try items.next() { seen.append("\(item)") }
            try stream.append(bytes[split...])
            try stream.finishInput()
            while let item = try items.next() { seen.append("\(item)") }
            seen.append("\(try stream.remainder() <| "end" as Bool)")
            #expect(seen == expected, "split at \(split)")
        }
    }

    @Test(arguments: [1, 3, 64])
    func errorsAreTheSyncStreamsErrors(_ size: Int) throws {
        let text = "{\"objects\": [1, 2,\n 3,, 4]}"
        let sync = #expect(throws: ParseError.self) {
            try JSONStream(.string(text)).elements(of: Int.self, at: "objects").forEach { _ in }
        }
        let stream = PushJSONStream()
        let values = stream.elements(of: Int.self, at: "objects")
        let bytes = Array(text.utf8)
        let pushed = #expect(throws: ParseError.self) {
            for start in stride(from: 0, to: bytes.count, by: size) {
                try stream.append(bytes[start..<min(bytes.count, start + size)])
                while try values.next() != nil {}
            }
            try stream.finishInput()
            while try values.next() != nil {}
        }
        #expect(pushed?.description == sync?.description)
        #expect(pushed?.message.hasSuffix("(3 elements of objects read before it)") == true)
    }

    /// A request asked for after the push stream's input failed meets that error, as the pull
    /// stream's does; it used to end at once with nothing (no elements, a count of 0).
    @Test func aRequestAfterTheInputFailedThrowsItsError() throws {
        let text = "x"
        let expected = #expect(throws: ParseError.self) { _ = try JSONStream(.string(text)).count() }
        let stream = PushJSONStream()
        try stream.append(Array(text.utf8))
        #expect(throws: ParseError.self) { try stream.finishInput() }
        let elements = stream.elements(of: Int.self)
        let error = #expect(throws: ParseError.self) { _ = try elements.next() }
        #expect(error?.description == expected?.description)
        let counted = PushJSONStream()
        #expect(throws: ParseError.self) {
            try counted.append(Array(text.utf8))
            try counted.finishInput()
        }
        let countError = #expect(throws: ParseError.self) { _ = try counted.count() }
        #expect(countError?.description == expected?.description)
    }

    /// An async stream's input ending inside the array: the error says how many elements were
    /// read before it, as `JSONStream`'s does (found by SpoolFuzzCodableStream).
    @Test(arguments: [1, 2, 4096])
    func asyncInputErrorsSayHowFarTheRequestGot(_ size: Int) async throws {
        let text = "[{}"
        let sync = #expect(throws: ParseError.self) { try JSONStream(.string(text)).elements(of: JSONValue.self).forEach { _ in } }
        #expect(sync?.message.hasSuffix("(1 element of the input read before it)") == true)
        let stream = AsyncJSONStream(.chunks(Self.chunks(Array(text.utf8), size: size)))
        let error = await #expect(throws: ParseError.self) {
            for try await _ in stream.elements(of: JSONValue.self) {}
        }
        #expect(error?.description == sync?.description)
        let counted = AsyncJSONStream(.chunks(Self.chunks(Array(text.utf8), size: size)))
        let countError = await #expect(throws: ParseError.self) { _ = try await counted.count() }
        let syncCount = #expect(throws: ParseError.self) { _ = try JSONStream(.string(text)).count() }
        #expect(countError?.description == syncCount?.description)
    }

    @Test func pushMembersCountAndRemainder() throws {
        let text = #"{"users": {"u1": 1, "u2": 2, "u3": 3}, "total": 3}"#
        let bytes = Array(text.utf8)
        let members = PushJSONStream()
        let users = members.members(of: Int.self, at: "users")
        var seen: [String] = []
        for byte in bytes {
            try members.append([byte])
            while let (key, value) = try users.next() { seen.append("\(key)=\(value)") }
        }
        try members.finishInput()
        #expect(seen == ["u1=1", "u2=2", "u3=3"])
        #expect(try members.remainder() <| "total" as Int == 3)

        let counter = PushJSONStream()
        try counter.append(bytes[..<20])
        #expect(try counter.count(at: "users") == nil)  // not known yet
        try counter.append(bytes[20...])
        #expect(try counter.count(at: "users") == 3)
        #expect(throws: UsageError.self) { try counter.remainder() }  // input not finished
        try counter.finishInput()
        #expect(try counter.remainder() <| "total" as Int == 3)
    }

    @Test(arguments: [1, 9, 4096])
    func asyncStreamsHaveMembersCountFinishAndProgress(_ size: Int) async throws {
        let text = #"{"users": {"u1": 1, "u2": 2}, "list": [1, 2, 3], "total": 2}"#
        let bytes = Array(text.utf8)
        let stream = AsyncJSONStream(.chunks(Self.chunks(bytes, size: size)))
        var progress = 0
        stream.onProgress = { progress = $0 }
        var seen: [String] = []
        for try await (key, value) in stream.members(of: Int.self, at: "users") { seen.append("\(key)=\(value)") }
        #expect(seen == ["u1=1", "u2=2"])
        try await stream.finish()
        #expect(progress == bytes.count)
        #expect(try await stream.remainder() <| "total" as Int == 2)

        let counted = AsyncJSONStream(.chunks(Self.chunks(bytes, size: size)))
        #expect(try await counted.count(at: "list") == 3)
        await #expect(throws: UsageError.self) { try await counted.count(at: "list") }

        let broken = AsyncJSONStream(.chunks(Self.chunks(Array(#"{"list": [1], "x": tru}"#.utf8), size: size)))
        for try await _ in broken.elements(of: Int.self, at: "list") {}
        await #expect(throws: ParseError.self) { try await broken.finish() }
    }
}
