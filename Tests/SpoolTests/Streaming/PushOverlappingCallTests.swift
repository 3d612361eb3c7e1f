import Foundation
import Spool
import Testing

/// Issue 22, item 13: a ``PushJSONStream`` takes one call at a time. A call made while another
/// is running (from a callback of that call, or from another thread) throws a
/// ``UsageError`` and does nothing, instead of re-entering the parser (two threads
/// appending at once failed `yajl_lex.c:511: Assertion '*offset <= jsonTextLen'`). Each test
/// makes the overlap happen for certain: the second call is made from inside the first.
@Suite("PushJSONStream: one call at a time")
struct PushOverlappingCallTests {
    /// What a callback saw, shared with the code that set it up.
    final class Log: @unchecked Sendable {
        var errors: [any Error] = []
        var stream: PushJSONStream?
        var values: JSONElements<Reentrant>?

        /// Runs `body`, keeping what it throws.
        func attempt(_ body: () throws -> Void) {
            do { try body() } catch { errors.append(error) }
        }

        /// The messages of the errors kept, which must all be ``UsageError``s.
        var usageMessages: [String] {
            errors.map { ($0 as? UsageError)?.message ?? "not a UsageError: \($0)" }
        }
    }

    static let logKey = CodingUserInfoKey(rawValue: "log")!

    /// An element whose decoding calls back into its own stream.
    struct Reentrant: Decodable {
        var value: Int
        init(from decoder: any Decoder) throws {
            let log = try #require(decoder.userInfo[PushOverlappingCallTests.logKey] as? Log)
            log.attempt { _ = try log.values?.next() }
            log.attempt { try log.stream?.append(Array("99, ".utf8)) }
            log.attempt { _ = try log.stream?.count() }
            log.attempt { _ = try log.stream?.members(of: Int.self).next() }
            value = try decoder.singleValueContainer().decode(Int.self)
        }
    }

    @Test func appendFromOnProgressIsRefusedAndTakesNothing() throws {
        let stream = PushJSONStream()
        let values = stream.elements(of: Int.self)
        let log = Log()
        stream.onProgress = { [unowned stream] _ in
            log.attempt { try stream.append(Array("9, ".utf8)) }
            log.attempt { try stream.finishInput() }
            log.attempt { _ = try values.next() }
        }
        try stream.append(Array("[1, 2".utf8))
        stream.onProgress = nil
        try stream.append(Array(", 3]".utf8))
        try stream.finishInput()
        var seen: [Int] = []
        while let value = try values.next() { seen.append(value) }
        #expect(seen == [1, 2, 3])
        #expect(values.isFinished)
        #expect(log.usageMessages.count == 3)
        #expect(log.usageMessages.first?.hasPrefix("append(_:) was called on a PushJSONStream while another call on it was running") == true,
                "\(log.usageMessages)")
        #expect(log.usageMessages.dropFirst().first?.hasPrefix("finishInput() was called") == true)
        #expect(log.usageMessages.last?.hasPrefix("next() was called") == true)
    }

    @Test func callsFromAModelsDecodeAreRefused() throws {
        let log = Log()
        let decoder = StreamingJSONDecoder()
        decoder.userInfo[Self.logKey] = log
        let stream = PushJSONStream()
        let values = stream.elements(of: Reentrant.self, decoder: decoder)
        log.stream = stream
        log.values = values
        try stream.append(Array("[1, 2, 3]".utf8))
        try stream.finishInput()
        var seen: [Int] = []
        while let element = try values.next() { seen.append(element.value) }
        #expect(seen == [1, 2, 3])
        #expect(values.isFinished)
        // next(), append(_:) and count(at:) for each element, and the members asked for.
        #expect(log.usageMessages.count == 12, "\(log.usageMessages)")
        #expect(log.usageMessages.allSatisfy { $0.contains("while another call on it was running") }, "\(log.usageMessages)")
        #expect(log.usageMessages.contains { $0.hasPrefix("members(of:at:) was called") })
        log.stream = nil
        log.values = nil
    }

    @Test func aSkippedElementsReportCannotEndTheInput() throws {
        let stream = PushJSONStream()
        let log = Log()
        let values = stream.elements(of: Int.self, onError: .skip { [unowned stream] _ in
            log.attempt { try stream.finishInput() }
            log.attempt { _ = try stream.remainder() }
        })
        try stream.append(Array(#"[1, "two", 3"#.utf8))
        var seen: [Int] = []
        while let value = try values.next() { seen.append(value) }
        #expect(seen == [1])  // 3 may go on
        #expect(!values.isFinished)
        try stream.append(Array("]".utf8))
        try stream.finishInput()
        while let value = try values.next() { seen.append(value) }
        #expect(seen == [1, 3])
        #expect(log.usageMessages.count == 2, "\(log.usageMessages)")
        #expect(log.usageMessages.last?.hasPrefix("remainder() was called") == true)
    }

    /// Another thread's calls, made (and waited for) while a call on this thread is running.
    @Test func callsFromAnotherThreadDuringACallAreRefused() throws {
        let stream = PushJSONStream()
        let values = stream.elements(of: Int.self)
        let log = Log()
        final class Shared: @unchecked Sendable {
            let stream: PushJSONStream
            let values: JSONElements<Int>
            let log: Log
            init(_ stream: PushJSONStream, _ values: JSONElements<Int>, _ log: Log) {
                (self.stream, self.values, self.log) = (stream, values, log)
            }
        }
        let shared = Shared(stream, values, log)
        stream.onProgress = { _ in
            let done = DispatchSemaphore(value: 0)
            Thread {
                shared.log.attempt { try shared.stream.append(Array("7, ".utf8)) }
                shared.log.attempt { _ = try shared.values.next() }
                shared.log.attempt { try shared.stream.finish() }
                done.signal()
            }.start()
            done.wait()
        }
        try stream.append(Array("[1, 2, 3]".utf8))
        stream.onProgress = nil
        try stream.finishInput()
        var seen: [Int] = []
        while let value = try values.next() { seen.append(value) }
        #expect(seen == [1, 2, 3])
        #expect(log.usageMessages.count == 3, "\(log.usageMessages)")
        #expect(log.usageMessages.allSatisfy { $0.contains("while another call on it was running") }, "\(log.usageMessages)")
    }

    /// The guard is released by every call, also one that throws.
    @Test func aCallThatThrowsLeavesTheStreamUsable() throws {
        let stream = PushJSONStream()
        #expect(throws: UsageError.self) { _ = try stream.remainder() }  // input not finished
        try stream.append(Array("[1]".utf8))
        #expect(try stream.count() == 1)
        #expect(try stream.finish())
    }
}
