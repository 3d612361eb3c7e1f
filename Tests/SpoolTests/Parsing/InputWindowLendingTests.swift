import Foundation
import Testing
@testable import Spool

/// A document held in memory and parsed before it is decoded is read in place: the input window
/// reads the caller's bytes without copying them (``InputWindow/readingInPlace(_:from:_:)``),
/// never writes to them, and holds none of them once the call returns.
@Suite("Input window: lent input")
struct InputWindowLendingTests {
    static let input = Array((0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7) })

    @Test func readsTheLentBytesInPlaceAndCopiesWhatItHoldsAtTheEnd() throws {
        let window = InputWindow(capacity: 64)
        let source = MemoryByteSource(Self.input)
        try Self.input.withUnsafeBytes { lent in
            try window.readingInPlace(lent, from: source) { () throws -> Void in
                #expect(window.isLent)
                #expect(try window.read(from: source, upTo: 300) == 300)
                #expect(window.pointer(at: 0) == UnsafeMutableRawPointer(mutating: lent.baseAddress!).assumingMemoryBound(to: UInt8.self))
                window.discard(below: 250, preferredCapacity: 64)
                #expect(window.base == 250 && window.end == 300)
                #expect(try window.read(from: source, upTo: 10_000) == 700)
                #expect(try window.read(from: source, upTo: 10) == 0)
                #expect(window[999] == Self.input[999])
            }
        }
        // The loan is over: the window holds copies of the bytes it still had.
        #expect(!window.isLent)
        #expect(window.base == 250 && window.end == 1000)
        #expect((250..<1000).allSatisfy { window[$0] == Self.input[$0] })
        let own = UnsafeRawPointer(window.pointer(at: 250))
        let lentRange = Self.input.withUnsafeBytes { UnsafeRawPointer($0.baseAddress!)..<UnsafeRawPointer($0.baseAddress! + $0.count) }
        #expect(!lentRange.contains(own))
    }

    @Test func writingEndsTheLoanFirstAndLeavesTheLentBytesAlone() throws {
        let window = InputWindow(capacity: 64)
        let source = MemoryByteSource(Self.input)
        let copy = Self.input
        try copy.withUnsafeBytes { lent in
            try window.readingInPlace(lent, from: source) { () throws -> Void in
                _ = try window.read(from: source, upTo: 100)
                let space = window.freeSpace(minimum: 8)
                #expect(!window.isLent)
                space.initializeMemory(as: UInt8.self, repeating: 0xAA)
                window.commit(8)
                #expect(window.end == 108 && window[100] == 0xAA && window[99] == Self.input[99])
            }
        }
        #expect(copy == Self.input)
    }

    @Test func onlyAnUnreadWindowBorrows() throws {
        let window = InputWindow(capacity: 64)
        let source = MemoryByteSource(Self.input)
        _ = try window.read(from: source, upTo: 10)
        Self.input.withUnsafeBytes { lent in
            window.readingInPlace(lent, from: source) { #expect(!window.isLent) }
        }
    }

    /// In memory or from a file, the same tokens and the same errors, with the same excerpts,
    /// past the first chunk and at its edges.
    @Test(arguments: [1, 3, 64, 65536])
    func inMemoryDocumentsGiveWhatFilesGive(_ chunkSize: Int) throws {
        let body = (0..<300).map { #"{"id":\#($0),"name":"item \#($0) — ünïcödé"}"# }.joined(separator: ",\n")
        for text in ["[" + body + "]", "[" + body + ", tru]", "[" + body + "] x", "[" + body + ", \"\u{1}\"]"] {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("lent-\(UUID().uuidString).json")
            try Data(text.utf8).write(to: url)
            defer { try? FileManager.default.removeItem(at: url) }
            let decoder = StreamingJSONDecoder()
            decoder.options.chunkSize = chunkSize
            let fromMemory = Result { try decoder.decode([Item].self, from: Data(text.utf8)) }
            let fromFile = Result { try decoder.decode([Item].self, from: .url(url)) }
            switch (fromMemory, fromFile) {
            case (.success(let memory), .success(let file)):
                #expect(memory == file)
                #expect(memory.count == 300)
            case (.failure(let memory), .failure(let file)):
                #expect(String(describing: memory) == String(describing: file).replacingOccurrences(of: url.path, with: "<memory>"))
            default:
                Issue.record("memory and file differ for \(text.suffix(12)): \(fromMemory), \(fromFile)")
            }
        }
    }

    struct Item: Decodable, Equatable {
        let id: Int
        let name: String
    }
}
