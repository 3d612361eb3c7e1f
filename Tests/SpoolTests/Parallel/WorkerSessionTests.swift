import Foundation
import Testing
@_spi(Testing) @testable import Spool

/// A worker of the parallel engine keeps its decoding session from batch to batch, unless a
/// value of the batch holds it (a kept decoder or container, which reads and writes the
/// session when it looks a key up, on the consumer's thread).
@Suite("Worker sessions")
struct WorkerSessionTests {
    @Test func aSessionNothingElseHoldsIsKeptForTheNextBatch() throws {
        let worker = WorkerSession()
        let configuration = StreamingJSONDecoder().configuration
        let first = ObjectIdentifier(try worker.session(for: configuration))
        worker.batchEnded()
        #expect(worker.holdsSession)
        #expect(ObjectIdentifier(try worker.session(for: configuration)) == first)
    }

    @Test func aSessionAValueHoldsIsLeftToIt() throws {
        let worker = WorkerSession()
        let configuration = StreamingJSONDecoder().configuration
        var kept: DecodingSession? = try worker.session(for: configuration)
        let keptID = kept.map { ObjectIdentifier($0) }
        worker.batchEnded()
        #expect(!worker.holdsSession)
        // (The kept one is alive: the new one cannot have its address.)
        #expect(ObjectIdentifier(try worker.session(for: configuration)) != keptID)
        kept = nil
        worker.batchEnded()
        #expect(worker.holdsSession)
    }
}
