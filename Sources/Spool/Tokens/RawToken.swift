/// One token as stored on the ``TokenTape``: 32 bytes, no references.
///
/// | field     | scalar (key/string/number)         | container start           | container end         |
/// |-----------|------------------------------------|---------------------------|-----------------------|
/// | `payload` | absolute arena offset of its bytes | absolute index of its end | absolute index of start |
/// | `length`  | byte length of the text            | number of children        | number of children    |
///
/// `offset`, `line` and `column` locate the token's first byte in the input. Line and column
/// saturate at `UInt32.max` (4 G lines, or a 4 GiB line).
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

    var offset: Int
    var payload: Int
    var length: UInt32
    var line: UInt32
    var column: UInt32
    var kind: Kind

    var publicKind: JSONToken { kind.publicKind }

    var isContainerStart: Bool { kind == .objectStart || kind == .arrayStart }
    var isContainerEnd: Bool { kind == .objectEnd || kind == .arrayEnd }
    var hasText: Bool { kind == .key || kind == .string || kind == .number }

    var location: SourceLocation {
        SourceLocation(byteOffset: offset, line: Int(line), column: Int(column))
    }
}
