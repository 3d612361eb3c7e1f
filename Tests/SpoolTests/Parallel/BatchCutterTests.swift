import Foundation
import Testing
@testable import Spool

/// The batches of ``ParallelJSONElements``: whole elements in order, each starting where the
/// serial stream locates its first element.
@Suite("Batch cutter")
struct BatchCutterTests {
    /// The batches cut from `bytes`, read `chunkSize` bytes at a time.
    static func cut(_ bytes: [UInt8], at path: JSONKeyPath, batchBytes: Int, chunkSize: Int) -> [ElementBatch] {
        guard var cutter = BatchCutter(path: path, options: JSONParsingOptions(), batchBytes: batchBytes) else { return [] }
        var batches: [ElementBatch] = []
        bytes.withUnsafeBytes { raw in
            var start = 0
            while start < raw.count && !cutter.isDone {
                let end = min(raw.count, start + chunkSize)
                batches += cutter.cut(UnsafeRawBufferPointer(rebasing: raw[start..<end]))
                start = end
            }
        }
        return batches + cutter.finish()
    }

    /// Where the serial stream says each element starts.
    static func starts(_ bytes: [UInt8], at path: JSONKeyPath) throws -> [Spool.SourceLocation] {
        let elements = JSONStream(.bytes(bytes)).elements(of: Located<JSONValue>.self, at: path)
        var starts: [Spool.SourceLocation] = []
        while let element = try elements.next() { starts.append(element.start) }
        return starts
    }

    @Test(arguments: [1, 3, 64, 4096, 1 << 20])
    func batchesStartWhereTheSerialStreamLocatesTheirElements(chunkSize: Int) throws {
        let documents = [
            ParallelInputs.document(count: 500), "\u{FEFF}" + ParallelInputs.document(count: 100),
            "[\n" + (0..<300).map(ParallelInputs.element).joined(separator: "\r\n,\n") + "]",
        ]
        for (text, path) in zip(documents, ["objects", "objects", JSONKeyPath.root] as [JSONKeyPath]) {
            let bytes = Array(text.utf8)
            let starts = try Self.starts(bytes, at: path)
            for batchBytes in [1, 150, 3000, 1 << 30] {
                let batches = Self.cut(bytes, at: path, batchBytes: batchBytes, chunkSize: chunkSize)
                var next = 0
                for (number, batch) in batches.enumerated() {
                    #expect(batch.number == number)
                    #expect(batch.firstIndex == next)
                    #expect(batch.start == (number == 0 ? nil : starts[batch.firstIndex]))
                    next += batch.count ?? (starts.count - next)
                }
                #expect(next == starts.count)
                #expect(batches.last?.extent == .toArrayEnd)
                #expect(batches.dropLast().allSatisfy { $0.count ?? 0 >= 1 })
                if batchBytes == 1 { #expect(batches.count == starts.count) }
            }
        }
    }

    @Test func aDoubtEndsWithTheSerialTail() {
        let text = Array(ParallelInputs.document(count: 50, replacing: [30: "]"]).utf8)
        for chunkSize in [1, 7, 1 << 20] {
            let batches = Self.cut(text, at: "objects", batchBytes: 100, chunkSize: chunkSize)
            #expect(batches.last?.extent == .serialTail)
            #expect(batches.dropLast().allSatisfy { $0.count != nil })
            #expect((batches.last?.firstIndex ?? 99) <= 30)
        }
        // No element before the doubt: the serial tail is the first batch.
        #expect(Self.cut(Array(#"{"ob\u006aects": [1]}"#.utf8), at: "objects", batchBytes: 1, chunkSize: 3)
            == [ElementBatch(number: 0, firstIndex: 0, start: nil, extent: .serialTail)])
        #expect(Self.cut(Array(#"{"objects": []}"#.utf8), at: "objects", batchBytes: 1, chunkSize: 3)
            == [ElementBatch(number: 0, firstIndex: 0, start: nil, extent: .toArrayEnd)])
    }
}
