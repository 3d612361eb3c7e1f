/// How Spool reads JSON text: what it accepts beyond strict RFC 8259 JSON, the limits it
/// enforces, and how much it reads at a time.
///
/// The defaults are strict: one top-level value, no comments, no trailing garbage, UTF-8
/// validated (including overlong forms, encoded surrogates and code points above U+10FFFF,
/// which yajl alone lets through), and limits that stop hostile input early.
public struct JSONParsingOptions: Hashable, Sendable {
    /// Accept `//` line comments and `/* */` block comments between tokens. Default `false`.
    public var allowsComments: Bool = false
    /// Accept several top-level values (NDJSON, JSON Lines, concatenated JSON), separated by
    /// whitespace or self-delimiting; blank lines are allowed and an empty input holds zero values.
    /// Default `false`.
    public var allowsMultipleValues: Bool = false
    /// Stop after the first top-level value: whatever follows it is neither parsed nor
    /// checked, and no more input is read (yajl's `allow_trailing_garbage`). For a JSON value
    /// at the front of a longer stream. Ignored with ``allowsMultipleValues``. Default `false`:
    /// anything but whitespace after the value is an error.
    public var allowsTrailingGarbage: Bool = false
    /// Reject strings that are not valid UTF-8. Default `true`. When `false`, string bytes are
    /// passed through as they are (a `String` made from them repairs invalid sequences).
    public var validatesUTF8: Bool = true
    /// The deepest nesting of arrays and objects accepted. Default 512, as Foundation. Values
    /// below 1 act as 1, values above ``largestMaxDepth`` (100,000) as that, so that a hostile
    /// input cannot make the parser's own stacks grow without bound.
    ///
    /// **Stack use.** Parsing, ``JSONValue``, compact JSON text and error paths use a stack of
    /// their own, not the thread's: a document this deep decodes on a 512 KiB thread stack
    /// (Apple's default for secondary threads). A model that nests itself (a `JSONDecodable`
    /// type with a member of its own type) recurses instead, one `decode` per level. Measured
    /// on Linux (x86-64) in an optimized build, including the model's own small `decode`:
    /// about 160 bytes of stack per level for a model nested through an optional member
    /// (`e <|? "child"`) and about 250 bytes per level (480 per model level) through an array
    /// (`e <|| "children"`), so the default 512 levels need under 130 KiB. A debug build takes
    /// about five times as much (up to 1.3 KiB per level): there, on a 512 KiB stack, keep
    /// recursive models to about 300 levels (set this limit accordingly), or decode them on a
    /// thread with a larger stack. Models with large stored properties, or `decode` functions
    /// with many locals, take more per level.
    ///
    /// Whatever this limit, no depth crashes: models are checked against the thread's stack at
    /// every nested value, and a value nested too deep for the stack that is left is refused,
    /// located, with the code ``DecodeError/Code/tooDeep`` (for `Decodable` models, in a
    /// `DecodingError.dataCorrupted` whose `underlyingError` is that ``DecodeError``).
    /// Optimized, `Decodable` models reach the default 512 levels on a 512 KiB stack, as
    /// `JSONDecoder` does (about 0.9 KiB per level for a class nested through an optional
    /// member, 1.4 KiB per model level through an array).
    public var maxDepth: Int = 512
    /// The longest string or key accepted, in bytes of its source text; with
    /// ``allowsComments``, the longest comment too. Default 20,000,000, as Jackson. At most
    /// 4,294,967,000 (token lengths are 32-bit); larger values act as that.
    public var maxStringLength: Int = 20_000_000
    /// The longest number accepted, in bytes of its source text. Default 1000, as Jackson.
    public var maxNumberLength: Int = 1000
    /// How many bytes an input reads at a time. Default 65,536 (64 KiB). Values below 1 are
    /// treated as 1, values above ``maxChunkSize`` (64 MiB) as that.
    public var chunkSize: Int = 65_536
    /// Let a ``JSONReader`` over a file, descriptor or memory read and parse ahead on a
    /// background thread while your code consumes tokens, when the input is larger than four
    /// chunks or of unknown size. Tokens, errors and memory bounds are the same either way; on
    /// a multi-core machine the reading and the consuming overlap. Default `true`.
    public var parsesInBackground: Bool = true
    /// Let `decodeValue` release the tokens of each element of an array (or member of a
    /// dictionary) once it has been decoded, so that decoding a whole document holds the
    /// finished model plus the largest element, not every token of the input. (A document
    /// held in memory of up to 4 MiB is parsed whole before it is decoded, and keeps its
    /// tokens until the decode ends.) It applies to the
    /// outermost array or dictionary decoded as `[T]`, `LossyArray<T>` or `[String: T]` (in
    /// the document order of its elements). A model that reads such an array twice, or keeps
    /// an ``Extractor`` of one of its elements, then gets a ``DecodeError`` saying so; turn this
    /// off for those. Default `true`.
    public var releasesDecodedElements: Bool = true
    /// Skip a UTF-8 byte order mark (the bytes `EF BB BF`) at the very start of the input, as
    /// Foundation's `JSONDecoder` and jq do (RFC 8259 lets a parser ignore one). Offsets,
    /// lines and columns still count its three bytes. Default `true`; `false` refuses it
    /// ("unexpected byte order mark"), as strict RFC 8259 senders must not write one.
    public var allowsByteOrderMark: Bool = true

    /// The smallest document held in memory that whole-document decoding parses on a
    /// background thread (see ``parsesInBackground``); smaller ones parse on the caller's
    /// thread (``PipelineFactory``), where they are decoded sooner. Measured on a shared 2-core
    /// machine with Codable models (medians): twitter.json (0.6 MB) 5.0 ms on one thread
    /// against 5.4-5.9 ms with the thread, citm_catalog.json (1.7 MB) 13.9 against 14.8-15.5
    /// ms, canada.json (2.3 MB) level, the band catalog at 10 MB 78-81 against 80-81 ms.
    /// Internal: tests lower it to reach the background path with small inputs.
    var wholeDocumentThreadMinimum = 16 << 20

    /// The largest document held in memory that whole-document decoding parses to its end
    /// before decoding its model, as `JSONDecoder` does, instead of decoding it while it is
    /// parsed and releasing its decoded elements
    /// (``PipelineFactory/parsesBeforeDecoding(work:source:options:)``). Internal: tests set it
    /// to 0 to reach the releasing path with small inputs.
    var parsesBeforeDecodingMaximum = 4 << 20

    /// Strict JSON with the default limits.
    public init() {}

    /// Options with the given settings; unspecified ones keep their defaults.
    public init(
        allowsComments: Bool = false,
        allowsMultipleValues: Bool = false,
        allowsTrailingGarbage: Bool = false,
        validatesUTF8: Bool = true,
        maxDepth: Int = 512,
        maxStringLength: Int = 20_000_000,
        maxNumberLength: Int = 1000,
        chunkSize: Int = 65_536,
        parsesInBackground: Bool = true,
        releasesDecodedElements: Bool = true,
        allowsByteOrderMark: Bool = true
    ) {
        self.allowsComments = allowsComments
        self.allowsMultipleValues = allowsMultipleValues
        self.allowsTrailingGarbage = allowsTrailingGarbage
        self.validatesUTF8 = validatesUTF8
        self.maxDepth = maxDepth
        self.maxStringLength = maxStringLength
        self.maxNumberLength = maxNumberLength
        self.chunkSize = chunkSize
        self.parsesInBackground = parsesInBackground
        self.releasesDecodedElements = releasesDecodedElements
        self.allowsByteOrderMark = allowsByteOrderMark
    }

    /// Whether reading ends with the first top-level value (``allowsTrailingGarbage``).
    var stopsAfterFirstValue: Bool { allowsTrailingGarbage && !allowsMultipleValues }

    /// The largest ``maxDepth`` used: 100,000 levels.
    public static let largestMaxDepth = 100_000

    /// The depth limit actually used: 1 to ``largestMaxDepth``.
    var effectiveMaxDepth: Int { min(max(1, maxDepth), JSONParsingOptions.largestMaxDepth) }

    /// For a reader resumed inside an array (``JSONStream/init(_:options:resumingAt:element:)``):
    /// how many containers hold that array in the whole input, which its depth count leaves out.
    var levelsAboveInput = 0

    /// The depth the parser allows, counted from the input it reads: ``effectiveMaxDepth``
    /// less the containers above it.
    var parserMaxDepth: Int { max(1, effectiveMaxDepth - levelsAboveInput) }

    /// The largest ``chunkSize`` used: 64 MiB. Larger chunks would only cost memory.
    public static let maxChunkSize = 1 << 26

    /// The chunk size actually used: 1 byte to ``maxChunkSize``.
    var effectiveChunkSize: Int { min(max(1, chunkSize), JSONParsingOptions.maxChunkSize) }

    /// The string length limit actually used: token lengths must fit 32 bits.
    var effectiveMaxStringLength: Int { min(maxStringLength, 4_294_967_000) }
}
