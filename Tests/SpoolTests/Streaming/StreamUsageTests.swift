import Testing
import Spool

/// A stream reads its input once: a second request says so instead of handing out nothing.
@Suite("One request per stream")
struct StreamUsageTests {
    static let text = #"{"objects": [1, 2, 3], "byID": {"a": 1}}"#

    @Test func aSecondElementsCallThrowsFromItsFirstNext() throws {
        let stream = JSONStream(.string(Self.text))
        let first = stream.elements(of: Int.self, at: "objects")
        #expect(try first.next() == 1)
        let second = stream.elements(of: Int.self, at: "objects")
        let error = #expect(throws: UsageError.self) { try second.next() }
        #expect(
            error?.message
                == "elements(of:at:) was called on a stream that already handed out its elements; a stream reads its "
                + "input once, so make one request per stream (or a new stream over the input)")
        #expect(try second.next() == nil)  // the error is thrown once; then the sequence ends
        #expect(try first.next() == 2)  // the first sequence is unharmed
    }

    @Test func membersAndCountAreRequestsToo() throws {
        let stream = JSONStream(.string(Self.text))
        _ = stream.members(of: Int.self, at: "byID")
        let elements = stream.elements(of: Int.self, at: "objects")
        let afterMembers = #expect(throws: UsageError.self) { try elements.next() }
        #expect(afterMembers?.message.contains("already handed out its members") == true)
        let counted = JSONStream(.string(Self.text))
        #expect(try counted.count(at: "objects") == 3)
        let members = counted.members(of: Int.self, at: "byID")
        let afterCount = #expect(throws: UsageError.self) { try members.next() }
        #expect(afterCount?.message.contains("already handed out a count") == true)
        #expect(throws: UsageError.self) { try counted.count(at: "objects") }
    }

    @Test func theResultSequenceEndsAfterTheError() throws {
        let stream = JSONStream(.string(Self.text))
        _ = stream.elements(of: Int.self, at: "objects")
        let results = Array(stream.elements(of: Int.self, at: "objects"))
        #expect(results.count == 1)
        #expect(throws: UsageError.self) { try results[0].get() }
    }

    @Test func asyncStreamsSayItToo() async throws {
        let stream = AsyncJSONStream(.chunks(AsyncStream<[UInt8]> { continuation in
            continuation.yield(Array(Self.text.utf8))
            continuation.finish()
        }))
        var values: [Int] = []
        for try await value in stream.elements(of: Int.self, at: "objects") { values.append(value) }
        #expect(values == [1, 2, 3])
        await #expect(throws: UsageError.self) {
            for try await _ in stream.elements(of: Int.self, at: "objects") {}
        }
    }
}

/// `PushJSONStream.finish()` ends the input itself, so a truncated body throws there (issue 21:
/// it returned quietly when `finishInput()` had not been called).
@Suite("PushJSONStream.finish")
struct PushFinishTests {
    @Test func aTruncatedBodyThrows() throws {
        let stream = PushJSONStream()
        let elements = stream.elements(of: Int.self)
        try stream.append(Array("[1, 2".utf8))
        #expect(try elements.next() == 1)
        let error = #expect(throws: ParseError.self) { try stream.finish() }
        #expect(error?.message.hasPrefix("unexpected end of input") == true, "\(String(describing: error))")
    }

    @Test func aWholeBodyFinishes() throws {
        let stream = PushJSONStream()
        let elements = stream.elements(of: Int.self, at: "a")
        try stream.append(Array(#"{"a": [1, 2], "b": true}"#.utf8))
        var values: [Int] = []
        while let value = try elements.next() { values.append(value) }
        #expect(try stream.finish())
        #expect(values == [1, 2])
        #expect(try stream.remainder() <| "b" as Bool)
    }
}
