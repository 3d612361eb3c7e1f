/// yajl 2.1's error messages as kinds: the one place that reads yajl's English. The tape builder
/// decides from the kind what Spool reports (at the offending token, in Spool's words).
///
/// `YajlErrorTests` pins every message this table relies on, by making yajl produce it.
enum YajlError: Hashable {
    /// `lexical error: invalid character inside string.` (an unescaped control character)
    case unescapedControlCharacter
    /// `lexical error: invalid (non-hex) character occurs after '\u' inside string.`
    case nonHexUnicodeEscape
    /// `lexical error: inside a string, '\' occurs before a character which it may not.`
    case invalidEscape
    /// `lexical error: malformed number, a digit is required after the ...`
    case malformedNumber(MissingDigit)
    /// `lexical error: probable comment found in input text, comments are not enabled.`
    case commentsNotEnabled
    /// `lexical error: invalid string in json text.` (a malformed literal)
    case invalidLiteral
    /// Another lexical error: a byte that starts no token.
    case otherLexical
    /// `parse error: after array element, I expect ',' or ']'`
    case afterArrayElement
    /// `parse error: after key and value, inside map, I expect ',' or '}'`
    case afterObjectMember
    /// `parse error: invalid object key (must be a string)`
    case invalidObjectKey
    /// `parse error: object key and value must be separated by a colon (':')`
    case missingColon
    /// `parse error: trailing garbage`
    case trailingGarbage
    /// `parse error: unallowed token at this point in JSON text`
    case unallowedToken
    /// `parse error: premature EOF`
    case prematureEndOfInput
    /// A message this table does not know, kept for the report.
    case unknown(String)

    /// Where a malformed number misses its digit.
    enum MissingDigit: Hashable {
        case afterDecimalPoint, afterExponent, afterMinusSign
    }

    /// The kind of yajl's message, from the table below.
    init(message: String) {
        let text = message.lowercased()
        if text.hasPrefix("lexical error") {
            self = YajlError.lexical.first { text.containsBytes(of: $0.fragment) }?.kind ?? .otherLexical
        } else {
            self = YajlError.parse.first { text.containsBytes(of: $0.fragment) }?.kind ?? .unknown(message)
        }
    }

    /// What a lexical error's message contains, and its kind; first match wins.
    static let lexical: [(fragment: String, kind: YajlError)] = [
        ("invalid character inside string", .unescapedControlCharacter),
        ("non-hex", .nonHexUnicodeEscape),
        ("occurs before a character", .invalidEscape),
        ("after the decimal point", .malformedNumber(.afterDecimalPoint)),
        ("after the exponent", .malformedNumber(.afterExponent)),
        ("after the minus sign", .malformedNumber(.afterMinusSign)),
        ("comment", .commentsNotEnabled),
        ("invalid string in json text", .invalidLiteral),
    ]

    /// What a parse error's message contains, and its kind; first match wins.
    static let parse: [(fragment: String, kind: YajlError)] = [
        ("after array element", .afterArrayElement),
        ("after key and value", .afterObjectMember),
        ("invalid object key", .invalidObjectKey),
        ("separated by a colon", .missingColon),
        ("trailing garbage", .trailingGarbage),
        ("unallowed token", .unallowedToken),
        ("premature eof", .prematureEndOfInput),
    ]
}
