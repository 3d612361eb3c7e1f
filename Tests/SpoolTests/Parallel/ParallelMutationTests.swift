import Foundation
import Testing
@testable import Spool

/// The parallel decoder against the serial stream on documents broken at random places (a
/// byte deleted, replaced or inserted): the same elements, then the same error, wherever the
/// damage falls (before the array, between elements, inside one, after the array).
@Suite("Parallel elements on damaged documents")
struct ParallelMutationTests {
    /// Bytes that matter to the structure, and some that break strings and numbers.
    static let damage: [UInt8] = Array(#"{}[],:"\ x0-e"#.utf8) + [0x0A, 0xFF, 0xC3]

    static let caseCount = Int(ProcessInfo.processInfo.environment["SPOOL_MUTATION_CASES"] ?? "") ?? 100

    static let seed = UInt64(ProcessInfo.processInfo.environment["SPOOL_MUTATION_SEED"] ?? "") ?? 25

    /// The generated document, over many lines, and on one line (where a resumed stream's
    /// excerpt would differ from the serial one's).
    static let documents = [
        Array(ParallelInputs.document(count: 40).utf8),
        Array(#"{"objects": ["# .utf8) + Array((0..<40).map { #"{"id": \#($0), "name": "n\"]", "tags": ["[", "é"]}"# }.joined(separator: ",").utf8)
            + Array("]}".utf8),
    ]

    @Test(arguments: 0..<2)
    func damagedDocumentsGiveTheSerialOutcome(document: Int) {
        var random = SplitMix(seed: Self.seed &+ UInt64(document))
        let original = Self.documents[document]
        for run in 0..<Self.caseCount {
            var bytes = original
            for _ in 0..<Int.random(in: 1...2, using: &random) {
                let at = Int.random(in: 0..<bytes.count, using: &random)
                let byte = Self.damage.randomElement(using: &random) ?? 0x20
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes.remove(at: at)
                case 1: bytes[at] = byte
                default: bytes.insert(byte, at: at)
                }
            }
            let serial = ParallelInputs.serial(ParallelInputs.Item.self, .bytes(bytes), at: "objects")
            let workers = 1 + run % 3
            for batchBytes in [1, 300, 2000] {
                let parallel = ParallelInputs.parallel(
                    ParallelJSONElements<ParallelInputs.Item>(.bytes(bytes), at: "objects", workers: workers, batchBytes: batchBytes))
                #expect(parallel == serial, "case \(run), workers \(workers), batches of \(batchBytes): \(String(decoding: bytes, as: UTF8.self))")
            }
        }
    }
}
