/// Reading, yajl and the tape writer, all on the reader's thread; also the only pipeline of an
/// incremental reader (``JSONReader/incremental(options:)``), which reads what is appended
/// (``PushedBytes``) as it reads any other source.
///
/// It is the reference the other pipelines are tested against, and the one for inputs too small
/// for a thread to pay off (up to four chunks), with ``JSONParsingOptions/parsesInBackground``
/// off, or after a first value that ends reading early. On one thread the cursor runs at
/// 0.71-0.72x / 0.64-0.66x / 0.64-0.65x raw yajl on the 10 MB / 100 MB / 1 GB catalogs (yajl
/// two thirds of the time, the tape writer a quarter).
///
/// ``skipTokens(_:)`` makes the writer record no tokens, only what an error message needs
/// (validation of standard input or a pipe, and the full engine behind
/// ``QuickValidationPipeline``): `spool validate` ran at 0.83-0.86x raw yajl that way.
final class OneThreadPipeline: Pipeline {
    private let builder: TapeBuilder
    private let source: any ByteSource

    init(builder: TapeBuilder, source: any ByteSource) {
        self.builder = builder
        self.source = source
    }

    func fill(keepingTokensFrom keep: Int) throws -> Bool {
        if builder.failure != nil {
            // Pushed input: what arrived after the error is its context.
            if source.awaitsInput { builder.readMoreContext() }
            if builder.failureAwaitsContext { return false }  // an incremental reader needs more input
            if let failure = builder.failure { throw failure }
        }
        guard !builder.isFinished else { return false }
        builder.compact(keepingTokensFrom: keep)
        // (Finishing may add tokens: true then, and false at the next call.)
        return try builder.readChunk(from: source) || !source.awaitsInput
    }

    var bytesRead: Int { builder.bytesReceived }

    var isInputFinished: Bool {
        builder.isFinished || (builder.failure != nil && !builder.failureAwaitsContext)
    }

    var isFinished: Bool { builder.isFinished }

    var topLevelCount: Int { builder.writer.topLevelCount }

    var isInBackground: Bool { false }

    /// Validating: from the next call to yajl, its callbacks are the lean validating table
    /// (``LiveEventTables/validating``), not the recording one. A table of its
    /// own, rather than callbacks that test on every event where the event goes, because that
    /// test cost validation 3.9 % (callgrind, 10 MB catalog on a pipe: 401.1M -> 416.4M
    /// instructions; 400.1M with the tables split again).
    func skipTokens(_ skipping: Bool) {
        builder.setValidating(skipping)
    }

    func cancel() {}
}
