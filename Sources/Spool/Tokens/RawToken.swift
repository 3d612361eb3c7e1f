/// One token as stored on the ``TokenTape``: 16 bytes, no references.
///
/// | field     | scalar (key/string/number)         | container start           | container end         |
/// |-----------|------------------------------------|---------------------------|-----------------------|
/// | `payload` | absolute arena offset of its bytes | absolute index of its end | absolute index of start |
/// | `length`  | byte length of the text            | number of children        | number of children    |
///
/// `offset` is where the token's first byte lies in the input (48 bits). Its line and column
/// are not stored per token: the tape keeps one entry per line that holds tokens
/// (``TokenTape/location(of:)``). `payload` has 40 bits, so the arena and the token count of
/// one input are limited to 1 TiB (``maxPayload``); the feed refuses longer inputs (``YajlFeed/maxInputLength``).
/// A start token whose container has not closed yet has payload -1.
struct RawToken {
    enum Kind: UInt8 {
        case objectStart, objectEnd, arrayStart, arrayEnd, key, string, number, `true`, `false`, null

        var publicKind: JSONToken {
            switch self {
            case .objectStart: return .objectStart
            case .objectEnd: return .objectEnd
            case .arrayStart: return .arrayStart
            case .arrayEnd: return .arrayEnd
            case .key: return .key
            case .string: return .string
            case .number: return .number
            case .true: return .bool(true)
            case .false: return .bool(false)
            case .null: return .null
            }
        }
    }

    /// The largest payload (arena offset or token index) a token can hold.
    static let maxPayload = (1 << 40) - 2

    // Packed: payload + 1 in 40 bits (so -1 is stored as 0), offset in 48 bits.
    private var payloadLow: UInt32
    var length: UInt32
    private var offsetLow: UInt32
    private var offsetHigh: UInt16
    private var payloadHigh: UInt8
    let kind: Kind

    @inline(__always)
    init(offset: Int, payload: Int, length: UInt32, kind: Kind) {
        let stored = UInt64(truncatingIfNeeded: payload &+ 1)
        payloadLow = UInt32(truncatingIfNeeded: stored)
        payloadHigh = UInt8(truncatingIfNeeded: stored &>> 32)
        self.length = length
        offsetLow = UInt32(truncatingIfNeeded: offset)
        offsetHigh = UInt16(truncatingIfNeeded: offset &>> 32)
        self.kind = kind
    }

    /// Where the token starts in the input (absolute byte offset).
    var offset: Int {
        @inline(__always) get { Int(offsetLow) | Int(offsetHigh) &<< 32 }
    }

    /// Arena offset (text tokens) or the matching token's absolute index (containers); -1 for
    /// a start whose end is not known yet.
    var payload: Int {
        @inline(__always) get { (Int(payloadLow) | Int(payloadHigh) &<< 32) &- 1 }
        @inline(__always) set {
            let stored = UInt64(truncatingIfNeeded: newValue &+ 1)
            payloadLow = UInt32(truncatingIfNeeded: stored)
            payloadHigh = UInt8(truncatingIfNeeded: stored &>> 32)
        }
    }

    var publicKind: JSONToken { kind.publicKind }

    var isContainerStart: Bool {
        @inline(__always) get { kind == .objectStart || kind == .arrayStart }
    }
    var isContainerEnd: Bool {
        @inline(__always) get { kind == .objectEnd || kind == .arrayEnd }
    }
    var hasText: Bool {
        @inline(__always) get { kind == .key || kind == .string || kind == .number }
    }
}

extension RawToken.Kind {
    /// The JSON kind of the value this token starts (or ends), as ``DecodeError/actual`` names
    /// it: `object`, `array`, `string`, `number`, `true`, `false` or `null`.
    var valueKindName: String {
        switch self {
        case .objectStart, .objectEnd: return "object"
        case .arrayStart, .arrayEnd: return "array"
        case .string, .key: return "string"
        case .number: return "number"
        case .true: return "true"
        case .false: return "false"
        case .null: return "null"
        }
    }
}
