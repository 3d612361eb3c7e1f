import Foundation
import Testing

@testable import Spool

/// The shortcut of `skipToEnd()` may only say "valid" where the full engine does, and must say
/// it for ordinary valid JSON, whatever chunk a tricky byte falls in.
@Suite("Quick validation")
struct QuickValidatorTests {
    private func quickOutcome(_ bytes: [UInt8], chunkSize: Int = 4096, options: JSONParsingOptions = .init()) throws -> Int? {
        var options = options
        options.chunkSize = chunkSize
        let outcome = try QuickValidator(options: options).run(MemoryByteSource(bytes), progress: nil)
        if case .valid(let count) = outcome { return count }
        return nil
    }

    private func quickOutcome(_ text: String, chunkSize: Int = 4096, options: JSONParsingOptions = .init()) throws -> Int? {
        try quickOutcome(Array(text.utf8), chunkSize: chunkSize, options: options)
    }

    @Test(arguments: [4096, 65_536])
    func neverVouchesForWhatTheFullEngineRejects(_ chunkSize: Int) throws {
        for name in ConformanceTests.all {
            let bytes = Fixtures.bytes(name)
            let full = readAll(bytes, chunkSize: chunkSize).error
            let quick = try quickOutcome(bytes, chunkSize: chunkSize)
            if quick != nil {
                #expect(full == nil, "\(name): the shortcut accepted what the engine rejects: \(full.map(String.init(describing:)) ?? "")")
                #expect(quick == bytes.count, "\(name)")
            }
            if name.hasPrefix("y_") {
                #expect(quick == bytes.count, "\(name): valid, yet the shortcut gave up")
            }
        }
    }

    /// Each tricky sequence placed so that every chunk boundary falls in or next to it.
    @Test func decidesTheSameAtEveryChunkBoundary() throws {
        let valid = [
            #"\ud83d\ude00"#, #"\u00e9"#, #"\\ud800"#, #"\\\""#, "\u{E9}", "\u{20AC}", "\u{1F600}", "\u{10FFFF}",
        ]
        let invalid: [[UInt8]] = [
            Array(#"\ud800\u0041"#.utf8), Array(#"\udc00"#.utf8), Array(#"\ud800"#.utf8),
            [0xC0, 0x80], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80],
            [0x0C], [0x0B],
        ]
        let cases = valid.map { (Array($0.utf8), true) } + invalid.map { ($0, false) }
        for (sequence, isValid) in cases {
            for shift in 0...14 {
                let filler = [UInt8](repeating: UInt8(ascii: "a"), count: 4096 - 2 - shift)
                let bytes = Array("[\"".utf8) + filler + sequence + Array("\"]".utf8)
                let quick = try quickOutcome(bytes)
                let full = readAll(bytes, chunkSize: 4096).error
                #expect((full == nil) == isValid, "\(sequence) at shift \(shift): \(String(describing: full))")
                #expect((quick != nil) == isValid, "\(sequence) at shift \(shift)")
            }
        }
    }

    /// yajl accepts a string left open after the top-level value (`0"`, found by the fuzzer):
    /// the lexer waits for its end, and at the end of the input never looks at it again.
    @Test func rejectsAnOpenStringAfterTheValue() throws {
        let gap = String(repeating: " ", count: 5000)
        for text in ["\t0\"", "[] \"abc", "{}\"", "\"a\" \"b", "[]" + gap + "\"abc", "1" + gap + "\"", "true\n\"x"] {
            #expect(try quickOutcome(text) == nil, "\(text.prefix(12))")
            #expect(parseError(text, chunkSize: 4096) != nil, "\(text.prefix(12))")
        }
        for text in ["[]" + gap, "0 \r\n", "\"a\"\n", "{} "] {
            #expect(try quickOutcome(text) == text.utf8.count, "\(text.prefix(12))")
        }
    }

    @Test func leavesLimitsToTheFullEngine() throws {
        let deep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        #expect(try quickOutcome(deep) == nil)
        #expect(try quickOutcome(String(repeating: "[", count: 512) + String(repeating: "]", count: 512)) != nil)
        #expect(try quickOutcome("[" + String(repeating: "1", count: 1001) + "]") == nil)
        #expect(try quickOutcome("[" + String(repeating: "1", count: 1000) + "]") != nil)

        // 20 escapes: 40 bytes of source, 20 decoded. Within a limit of 60, but the shortcut
        // cannot tell from the decoded length (up to 6 source bytes a byte), so it gives up.
        var options = JSONParsingOptions()
        options.maxStringLength = 60
        let escaped = "[\"" + String(repeating: #"\n"#, count: 20) + "\"]"
        #expect(try quickOutcome(escaped, options: options) == nil)
        options.chunkSize = 4096
        #expect(try JSONReader(.string(escaped), options: options).skipToEnd() == 1)
    }

    @Test func givesUpWhenTwoWholeChunksPassWithoutAToken() throws {
        let long = "[\"" + String(repeating: "x", count: 4 * 4096) + "\"]"
        #expect(try quickOutcome(long) == nil)
        #expect(try quickOutcome("[\"" + String(repeating: "x", count: 4096) + "\"]") != nil)
        var options = JSONParsingOptions()
        options.chunkSize = 4096
        let reader = JSONReader(.string(long), options: options)
        #expect(try reader.skipToEnd() == 1)
        #expect(reader.bytesRead == long.utf8.count)
    }

    @Test func leavesTheReaderAtTheEnd() throws {
        let text = #"{"a": [1, 2.5, "x\u00e9", true, null], "b": {}}"# + "\n"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("spool-quick-\(UUID().uuidString).json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var options = JSONParsingOptions()
        options.chunkSize = 4096
        let reader = JSONReader(.file(path), options: options)
        var progress: [Int] = []
        reader.onProgress = { progress.append($0) }
        #expect(try reader.skipToEnd() == 1)
        guard (reader.pipeline as? QuickValidationPipeline)?.foundValid == true else {
            Issue.record("the shortcut did not validate a plain file")
            return
        }
        #expect(reader.bytesRead == text.utf8.count)
        #expect(progress == [text.utf8.count])
        #expect(reader.isAtEnd)
        #expect(try reader.next() == nil)
    }

    /// An invalid input is read again from where reading started (not from the file's start),
    /// and the error is the full engine's.
    @Test func rereadsADescriptorFromItsStartingOffset() throws {
        let document = "{\n  \"a\": [1, 2,, 3]\n}"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("spool-quick-\(UUID().uuidString).json").path
        try Data(("not json at all" + document).utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fd = open(path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        #expect(lseek(fd, off_t("not json at all".utf8.count), SEEK_SET) > 0)
        var options = JSONParsingOptions()
        options.chunkSize = 4096
        let expected = try #require(parseError(document, chunkSize: 4096))
        #expect(expected.location.line == 2 && expected.location.column == 14)
        #expect(throws: expected) { try JSONReader(.fileDescriptor(fd, closeWhenDone: false), options: options).skipToEnd() }
    }
}
