/// The one place that picks how a reader's bytes become tokens (see ``Pipeline``).
///
/// It runs once per reader, when the reader first needs input (an incremental reader: at once),
/// from what the reader was built for (``JSONReader/Work``), its input and options, and
/// whether that first need is ``JSONReader/skipToEnd()``. Nothing else looks at which path a
/// reader took.
enum PipelineFactory {
    /// What the reader first asks of its input.
    enum Request {
        /// Tokens, to hand out.
        case tokens
        /// Validation to the end (``JSONReader/skipToEnd()``): no tokens are handed out.
        case validation
    }

    /// Whether a document decoded whole is parsed to its end before its model is decoded
    /// (``JSONDocument/decode(_:expected:_:)``), as `JSONDecoder` does: one held in memory,
    /// of at most ``JSONParsingOptions/parsesBeforeDecodingMaximum`` (4 MiB), parsed on the
    /// caller's thread. Its tape then holds all its tokens at once (the input is held whole
    /// already); decoding meets every array and dictionary whole, its size known, and walks it
    /// by index, with no container, no element released and no token waited for:
    /// citm_catalog.json's Codable decode measured 16 % fewer instructions, canada.json's 12 %.
    /// Larger documents, files and streams are decoded while they are parsed, and their decoded
    /// elements released (``JSONParsingOptions/releasesDecodedElements``), so that memory stays
    /// flat.
    static func parsesBeforeDecoding(work: JSONReader.Work, source: (any ByteSource)?, options: JSONParsingOptions) -> Bool {
        guard work == .models, let source, source.isInMemory, let size = source.totalSize else { return false }
        return size <= options.parsesBeforeDecodingMaximum
    }

    /// A pipeline for a reader that builds its tokens with `builder` (whose tape is the
    /// reader's), reading from `source`. `progress` gets the bytes read
    /// so far where a pipeline reports them itself (``QuickValidationPipeline``).
    static func make(
        for work: JSONReader.Work, request: Request, builder: TapeBuilder, source: any ByteSource,
        options: JSONParsingOptions, progress: ((Int) -> Void)?
    ) -> any Pipeline {
        let oneThread = OneThreadPipeline(builder: builder, source: source)
        // Pushed input arrives while the reader waits: nothing to read ahead.
        if source.awaitsInput { return oneThread }
        switch request {
        case .validation:
            // A file or memory can be read twice: yajl's grammar alone first, the full engine at a doubt.
            if QuickValidator.canValidate(with: options) && source.rewind() {
                return QuickValidationPipeline(source: source, options: options, progress: progress, fallback: oneThread)
            }
            return oneThread
        case .tokens:
            if inBackground(work, source: source, options: options) {
                return BackgroundPipeline(source: source, options: options, builder: builder, buildsTokens: work == .models)
            }
            // Bytes held in memory stay at hand on this thread: lines are counted only when
            // a location is asked for.
            builder.countLinesOnDemand(in: source)
            return oneThread
        }
    }

    /// Whether tokens are built on a thread of their own.
    private static func inBackground(_ work: JSONReader.Work, source: any ByteSource, options: JSONParsingOptions) -> Bool {
        // Small inputs are over before a thread pays off; after a first value that ends
        // reading early, nothing should have been read ahead.
        let largeOrUnknown = (source.totalSize ?? Int.max) > 4 * options.effectiveChunkSize
        guard options.parsesInBackground && largeOrUnknown && !options.stopsAfterFirstValue else { return false }
        // A document decoded whole from memory: the thread would overlap only yajl's
        // lexing, which does not pay for its hand-offs below a few megabytes, and loses
        // when the other core is busy (``JSONParsingOptions/wholeDocumentThreadMinimum``).
        return !(work == .models && source.isInMemory && (source.totalSize ?? Int.max) < options.wholeDocumentThreadMinimum)
    }
}
