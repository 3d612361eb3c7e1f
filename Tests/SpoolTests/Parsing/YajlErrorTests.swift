import Testing
@testable import Spool

/// yajl 2.1's messages, verbatim, for every kind ``YajlError`` reads from them: if a yajl
/// release changes one, this fails before the mapping silently degrades.
@Suite("yajl's error messages")
struct YajlErrorTests {
    static let cases: [(input: String, message: String, kind: YajlError)] = [
        ("[\"a\u{01}\"]", "lexical error: invalid character inside string.\n", .unescapedControlCharacter),
        (#"["\u12x4"]"#, "lexical error: invalid (non-hex) character occurs after '\\u' inside string.\n", .nonHexUnicodeEscape),
        (#"["\q"]"#, "lexical error: inside a string, '\\' occurs before a character which it may not.\n", .invalidEscape),
        ("[1.]", "lexical error: malformed number, a digit is required after the decimal point.\n", .malformedNumber(.afterDecimalPoint)),
        ("[1e]", "lexical error: malformed number, a digit is required after the exponent.\n", .malformedNumber(.afterExponent)),
        ("[-]", "lexical error: malformed number, a digit is required after the minus sign.\n", .malformedNumber(.afterMinusSign)),
        ("[/]", "lexical error: probable comment found in input text, comments are not enabled.\n", .commentsNotEnabled),
        ("[tru]", "lexical error: invalid string in json text.\n", .invalidLiteral),
        ("[1 2]", "parse error: after array element, I expect ',' or ']'\n", .afterArrayElement),
        (#"{"a":1 "b"}"#, "parse error: after key and value, inside map, I expect ',' or '}'\n", .afterObjectMember),
        ("{1:2}", "parse error: invalid object key (must be a string)\n", .invalidObjectKey),
        (#"{"a" 1}"#, "parse error: object key and value must be separated by a colon (':')\n", .missingColon),
        ("[1] 2", "parse error: trailing garbage\n", .trailingGarbage),
        ("]", "parse error: unallowed token at this point in JSON text\n", .unallowedToken),
        ("[1", "parse error: premature EOF\n", .prematureEndOfInput),
    ]

    static func message(for input: String) -> String? {
        let check = YajlSyntaxCheck(options: JSONParsingOptions())
        let bytes = Array(input.utf8)
        let finished = bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return false }
            return check.parse(base, count: buffer.count, base: 0) && check.complete()
        }
        return finished ? nil : check.errorMessage()
    }

    @Test(arguments: 0..<cases.count)
    func yajlSaysWhatTheTableReads(_ index: Int) throws {
        let (input, message, kind) = Self.cases[index]
        let said = try #require(Self.message(for: input), "yajl accepted \(input)")
        #expect(said == message)
        #expect(YajlError(message: said) == kind)
    }

    /// yajl is not asked to check UTF-8 (Spool's own checks do, more strictly): its lexer
    /// passes a byte that no UTF-8 text holds.
    @Test func yajlLeavesUTF8ToSpool() {
        let check = YajlSyntaxCheck(options: JSONParsingOptions())
        let bytes: [UInt8] = [0x5B, 0x22, 0xFF, 0x22, 0x5D]  // ["\xFF"]
        let finished = bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return false }
            return check.parse(base, count: buffer.count, base: 0) && check.complete()
        }
        #expect(finished)
    }

    @Test func unknownMessagesAreKept() {
        #expect(YajlError(message: "lexical error: something new") == .otherLexical)
        #expect(YajlError(message: "parse error: something new") == .unknown("parse error: something new"))
    }
}
