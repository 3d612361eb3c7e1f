import Foundation
import Testing
@testable import Spool

/// Input held whole in memory has its lines counted when a location is asked for
/// (``LinesOnDemand``), not as tokens are written: the answers must be those of a count made
/// here from the bytes, in any order of questions, and those a file (counted as it is read)
/// gets for the same bytes.
@Suite("Lines counted on demand")
struct LinesOnDemandTests {
    /// Bytes of `count` with newlines at random, some lines long (past a checkpoint), some empty.
    static func text(count: Int, seed: UInt64) -> [UInt8] {
        var random = SplitMix(seed: seed)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count {
            let length = Int.random(in: 0...3, using: &random) == 0 ? Int.random(in: 0...90_000, using: &random) : Int.random(in: 0...40, using: &random)
            bytes += repeatElement(UInt8(ascii: "x"), count: min(length, count - bytes.count))
            if bytes.count < count { bytes.append(0x0A) }
        }
        return bytes
    }

    @Test(arguments: [1, 2, 3])
    func answersMatchACountFromTheBytes(seed: UInt64) throws {
        let bytes = Self.text(count: 400_000, seed: seed)
        var lineStarts = [0]
        for (index, byte) in bytes.enumerated() where byte == 0x0A { lineStarts.append(index + 1) }
        func expected(_ offset: Int) -> Spool.SourceLocation {
            let line = lineStarts.lastIndex { $0 <= offset } ?? 0
            return Spool.SourceLocation(byteOffset: offset, line: line + 1, column: offset - lineStarts[line] + 1)
        }
        let lines = try #require(LinesOnDemand(MemoryByteSource(bytes)))
        var random = SplitMix(seed: seed &* 31)
        var offset = 0
        for _ in 0..<2_000 {
            // Mostly forward, as a stream asks; sometimes far back, or to the very end.
            switch Int.random(in: 0..<10, using: &random) {
            case 0: offset = Int.random(in: 0..<bytes.count, using: &random)
            case 1: offset = bytes.count
            default: offset = min(bytes.count, offset + Int.random(in: 0...2_000, using: &random))
            }
            #expect(lines.location(of: offset) == expected(offset), "offset \(offset)")
        }
        #expect(lines.location(of: 0) == Spool.SourceLocation(byteOffset: 0, line: 1, column: 1))
    }

    /// A file holding `bytes`, removed after `body`.
    static func withFile<R>(_ bytes: [UInt8], _ body: (String) throws -> R) throws -> R {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("spool-lines-\(UUID().uuidString).json")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return try body(url.path)
    }

    @Test func onlyInputHeldWholeInMemoryCountsOnDemand() throws {
        try Self.withFile(Array("[1]".utf8)) { path in
            let source = try FileByteSource(path: path)
            #expect(LinesOnDemand(source) == nil)
        }
        #expect(LinesOnDemand(MemoryByteSource(Data("[1]".utf8))) != nil)
    }

    /// Errors deep in a pretty-printed document, and the container they leave open, are placed
    /// the same from memory (counted on demand) and from a file (counted as read).
    @Test(arguments: ["truth", "1 2", "\"\\q\"", ""])
    func errorsArePlacedAsAFileIsRead(_ bad: String) throws {
        var text = "{\n  \"objects\": [\n"
        for i in 0..<5_000 { text += "    {\"id\": \(i),\n     \"name\": \"band \(i)\"},\n" }
        text += "    \(bad)"
        if !bad.isEmpty { text += "\n  ]\n}\n" }
        let bytes = Array(text.utf8)
        func error(_ input: JSONInput) throws -> ParseError {
            var options = JSONParsingOptions()
            options.parsesInBackground = false
            let reader = JSONReader(input, options: options)
            do {
                while try reader.next() != nil {}
            } catch let error as ParseError {
                return error
            }
            Issue.record("no error")
            throw CancellationError()
        }
        let fromMemory = try error(.bytes(bytes))
        let fromFile = try Self.withFile(bytes) { try error(.file($0)) }
        #expect(fromMemory.location.line > 10_000)
        #expect(fromMemory.location == fromFile.location)
        #expect(fromMemory.message == fromFile.message)
        #expect(fromMemory.excerpt == fromFile.excerpt)
    }
}
