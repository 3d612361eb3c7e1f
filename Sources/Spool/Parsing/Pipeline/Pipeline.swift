/// How bytes become tokens for one ``JSONReader``: one type per way, all chosen in one place
/// (``PipelineFactory``), once, when the reader first needs input.
///
/// ```text
///                      ┌─ OneThreadPipeline ─────── read ─▶ yajl ─▶ TapeWriter ──────────────┐
///  PipelineFactory ────┼─ BackgroundPipeline ────── [read ─▶ yajl] ═events═▶ TapeWriter ─────┼─▶ reader's tape
///  (work, source,      │   (tokens │ models)        [read ─▶ yajl ─▶ TapeWriter] ═tokens═▶ ──┘
///   options, request)  └─ QuickValidationPipeline ─ read ─▶ yajl (counting) + StrictnessScan;
///                                                   at a doubt: OneThreadPipeline from the start
/// ```
/// (`[…]`: on a background thread; `═▶`: batches through a ``BatchRing``.)
///
/// Every pipeline gives the same tokens and the same errors at the same locations, whatever
/// the chunking: the tests compare them on every JSONTestSuite file.
protocol Pipeline: AnyObject {
    /// Adds tokens to the reader's tape, first dropping those below `keep` where that is the
    /// pipeline's job. Returns false when none can come now: the input has ended (or, for an
    /// incremental reader, more input is needed).
    /// - Throws: the first ``ParseError`` or ``InputError``, after the tokens before it.
    func fill(keepingTokensFrom keep: Int) throws -> Bool

    /// Bytes of input taken in so far (in the background: parsed and handed to the reader).
    var bytesRead: Int { get }
    /// Whether the input has ended and been parsed (the tape may still hold tokens to hand out).
    var isInputFinished: Bool { get }
    /// Whether the input has ended without an error waiting: every token is on the tape.
    var isFinished: Bool { get }
    /// Top-level values parsed so far.
    var topLevelCount: Int { get }
    /// Whether parsing runs on a background thread.
    var isInBackground: Bool { get }

    /// While the reader's ``JSONReader/skipToEnd()`` reads on without handing out tokens, a
    /// pipeline that can parse more cheaply without them does so (from its next chunk).
    func skipTokens(_ skipping: Bool)
    /// The reader has gone: a background thread stops at its next step.
    func cancel()
}
