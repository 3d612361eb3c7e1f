/// Reading, yajl and the tape writer, all on the reader's thread; also the only pipeline of an
/// incremental reader (``JSONReader/incremental(options:)``), whose input is appended.
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
    private let tokenizer: Tokenizer
    private let source: (any ByteSource)?

    init(tokenizer: Tokenizer, source: (any ByteSource)?) {
        self.tokenizer = tokenizer
        self.source = source
    }

    func fill(keepingTokensFrom keep: Int) throws -> Bool {
        if let failure = tokenizer.failure {
            if tokenizer.failureAwaitsContext { return false }  // an incremental reader needs more input
            throw failure
        }
        guard !tokenizer.isFinished, let source else { return false }
        tokenizer.compact(keepingTokensFrom: keep)
        _ = try tokenizer.readChunk(from: source)
        return true
    }

    var bytesRead: Int { tokenizer.bytesReceived }

    var isInputFinished: Bool {
        tokenizer.isFinished || (tokenizer.failure != nil && !tokenizer.failureAwaitsContext)
    }

    var isFinished: Bool { tokenizer.isFinished }

    var topLevelCount: Int { tokenizer.writer.topLevelCount }

    var isInBackground: Bool { false }

    /// Validating: from the next call to yajl, its callbacks are the lean validating table of the
    /// tokenizer's ``YajlEventRecorder`` (see its `Table`), not the recording one. A table of its
    /// own, rather than callbacks that test on every event where the event goes, because that
    /// test cost validation 3.9 % (callgrind, 10 MB catalog on a pipe: 401.1M -> 416.4M
    /// instructions; 400.1M with the tables split again).
    func skipTokens(_ skipping: Bool) {
        tokenizer.setValidating(skipping)
    }

    func cancel() {}
}
