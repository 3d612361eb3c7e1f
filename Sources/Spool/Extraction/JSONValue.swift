/// Any JSON value, for data without a model. Numbers keep their exact source text.
public enum JSONValue: Hashable, Sendable, JSONDecodable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, exactly as written (convert with `Int(_:)`, `Double(_:)`, `Decimal(string:)`).
    case number(String)
    /// A string, its escapes decoded.
    case string(String)
    /// An array's elements, in order.
    case array([JSONValue])
    /// An object's members; with duplicate keys, the last one wins.
    case object([String: JSONValue])

    /// Builds the value from the tape.
    public static func decode(_ e: Extractor) throws -> JSONValue {
        let token = try e.checkedToken()
        switch token.kind {
        case .null: return .null
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .number: return .number(String(decoding: e.tape.bytes(of: token), as: UTF8.self))
        case .string: return .string(String(decoding: e.tape.bytes(of: token), as: UTF8.self))
        case .arrayStart: return .array(try [JSONValue].decode(e))
        case .objectStart: return .object(try [String: JSONValue].decode(e))
        case .key, .objectEnd, .arrayEnd: throw e.error("not the start of a value")
        }
    }
}
