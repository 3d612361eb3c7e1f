import Testing
@testable import Spool

@Suite("Parse errors")
struct ParseErrorTests {
    @Test func pointsAtTheStrayCommaWithLineColumnPathAndExcerpt() throws {
        let error = try #require(parseError("{\n  \"a\": [1, 2,, 3]\n}"))
        #expect(error.location == SourceLocation(byteOffset: 15, line: 2, column: 14))
        #expect(error.path == ["a", 2])
        #expect(
            error.description == """
                2:14: error: expected a value, found ',' (at a[2])
                  "a": [1, 2,, 3]
                             ^
                """)
    }

    @Test(arguments: [
        ("[1 2]", "1:4: error: expected ',' or ']' after array element, found a number (at [1])"),
        ("[1,]", "1:4: error: expected a value, found ']' (at [1])"),
        ("{\"a\" 1}", "1:6: error: expected ':' after object key, found a number (at a)"),
        ("{1:2}", "1:2: error: expected a string key, found a number"),
        ("{\"a\":1,}", "1:8: error: expected a string key, found '}' (at a)"),
        ("[tru]", "1:2: error: invalid literal 'tru': expected true, false or null (at [0])"),
        ("[1.]", "1:2: error: invalid number: a digit is required after the decimal point (at [0])"),
        ("[-]", "1:2: error: invalid number: a digit is required after the minus sign (at [0])"),
        ("[1]]", "1:4: error: expected end of input after the top-level value, found ']'"),
        ("[1] x", "1:5: error: expected end of input after the top-level value, found 'x'"),
        ("1 2", "1:3: error: expected end of input after the top-level value, found a number (several top-level values, as in NDJSON, need JSONParsingOptions.allowsMultipleValues)"),
        ("{\"a\":1 \"b\":2}", "1:8: error: expected ',' or '}' after object member, found a string (at a)"),
        ("[\"a\u{01}\"]", "1:4: error: invalid character in string: byte 0x01 must be escaped (at [0])"),
        ("[\"\\x\"]", "1:4: error: invalid escape sequence in string (at [0])"),
        ("[\"\\u12x4\"]", "1:7: error: invalid \\u escape: expected 4 hexadecimal digits (at [0])"),
        ("{\"a\":[1,{\"b\":[true,x]}]}", "1:20: error: expected a value, found 'x' (at a[1].b[1])"),
        ("[truex]", "1:6: error: expected ',' or ']' after array element, found 'x' (at [1])"),
        ("[1 .5]", "1:4: error: expected ',' or ']' after array element, found '.' (at [1])"),
        ("{\"a\": 1 x}", "1:9: error: expected ',' or '}' after object member, found 'x' (at a)"),
        ("{\"a\" x}", "1:6: error: expected ':' after object key, found 'x' (at a)"),
        ("{x}", "1:2: error: expected a string key, found 'x'"),
        ("[1 tru]", "1:4: error: expected ',' or ']' after array element, found 'tru' (at [1])"),
        ("[1 -]", "1:4: error: expected ',' or ']' after array element, found a number (at [1])"),
        ("[\u{0C}]", "1:2: error: unexpected form feed (\\f): JSON whitespace is only space, tab, line feed and carriage return (at [0])"),
        ("[1,\u{0B}2]", "1:4: error: unexpected vertical tab (\\v): JSON whitespace is only space, tab, line feed and carriage return (at [1])"),
        ("[1] // c", "1:5: error: comments are not allowed (JSONParsingOptions.allowsComments)"),
    ])
    func describesSyntaxErrors(_ input: String, _ expected: String) throws {
        let error = try #require(parseError(input))
        #expect(error.summary == expected)
        #expect(error.kind == .syntax)
    }

    @Test(arguments: [
        ("", "1:1: error: unexpected end of input: the input holds no JSON value"),
        ("  \n ", "2:2: error: unexpected end of input: the input holds no JSON value"),
        ("[1,2", "1:5: error: unexpected end of input; the array opened at 1:1 is not closed (at [2])"),
        ("{\"a\":[{\"b\":", "1:12: error: unexpected end of input; the object opened at 1:7 is not closed (at a[0].b)"),
        ("{\n  \"name\": \"Nirv", "2:16: error: unexpected end of input in the string that starts at 2:11; the object opened at 1:1 is not closed (at name)"),
        ("[tr", "1:4: error: unexpected end of input in the literal that starts at 1:2; the array opened at 1:1 is not closed (at [0])"),
        ("12.", "1:4: error: unexpected end of input in the number that starts at 1:1"),
    ])
    func truncatedInputNamesTheUnclosedContainer(_ input: String, _ expected: String) throws {
        let error = try #require(parseError(input))
        #expect(error.summary == expected)
        #expect(error.kind == .unexpectedEndOfInput)
    }

    @Test func rejectsBadSurrogateEscapesInsteadOfAlteringThem() throws {
        let mismatched = try #require(parseError(#"["\ud800\u0041"]"#))
        #expect(mismatched.kind == .invalidString)
        #expect(mismatched.location.column == 3)
        #expect(mismatched.message == #"invalid \u escape: high surrogate \uD800 is not followed by a low surrogate"#)
        let lone = try #require(parseError(#"{"k": "x\uDC00"}"#))
        #expect(lone.message == #"invalid \u escape: low surrogate \uDC00 without a high surrogate before it"#)
        #expect(lone.path == ["k"])
        #expect(parseError(#"["\ud834\udd1e"]"#) == nil)
        #expect(readAll(#"["\ud834\udd1e"]"#).tokens[1].text == Array("𝄞".utf8))
    }

    @Test(arguments: [
        ([0x5B, 0x22, 0xC0, 0x80, 0x22, 0x5D], "overlong encoding"),
        ([0x5B, 0x22, 0xE0, 0x80, 0xAF, 0x22, 0x5D], "overlong encoding"),
        ([0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D], "encoded UTF-16 surrogate"),
        ([0x5B, 0x22, 0xF4, 0x90, 0x80, 0x80, 0x22, 0x5D], "code point above U+10FFFF"),
        ([0x5B, 0x22, 0xF5, 0x80, 0x80, 0x80, 0x22, 0x5D], "unexpected byte 0xF5"),
    ] as [([UInt8], String)])
    func rejectsUTF8ThatYajlLetsThrough(_ bytes: [UInt8], _ reason: String) throws {
        let error = try #require(readAll(bytes).error)
        #expect(error.kind == .invalidString)
        #expect(error.message.contains(reason))
        #expect(error.location == SourceLocation(byteOffset: 2, line: 1, column: 3))
        var lax = JSONParsingOptions()
        lax.validatesUTF8 = false
        #expect(readAll(bytes, options: lax).error == nil)
    }

    /// UTF-8 that yajl itself rejects is located at the offending bytes, not where yajl
    /// stopped (past the string, or on the next line), at every chunk size.
    @Test(arguments: [
        (Array("[\"".utf8) + [0xE2, 0x82] + Array("\"]".utf8), 2, "bad continuation byte"),
        (Array("[\"".utf8) + [0xE2, 0x82] + Array("\n, 1]".utf8), 2, "bad continuation byte"),
        (Array("[\"abcdefg".utf8) + [0xE2, 0x82] + Array("hij\"]".utf8), 9, "bad continuation byte"),
        (Array("{\"k".utf8) + [0xFF] + Array("\": 1}".utf8), 3, "unexpected byte 0xFF"),
    ] as [([UInt8], Int, String)])
    func invalidUTF8PointsAtTheBadBytes(_ bytes: [UInt8], _ offset: Int, _ reason: String) throws {
        for size in [1, 2, 3, 7, 64, 65_536] {
            let error = try #require(readAll(bytes, chunkSize: size).error)
            #expect(error.kind == .invalidString)
            #expect(error.message == "invalid UTF-8 in string: \(reason)", "chunk size \(size)")
            #expect(error.location == SourceLocation(byteOffset: offset, line: 1, column: offset + 1), "chunk size \(size)")
        }
    }

    /// yajl does not check UTF-8 for Spool, so a problem yajl finds later in the same string
    /// (a control character, a bad escape, the end of the input) or the string's length limit
    /// must not hide the bad bytes before it, at any chunk size.
    @Test(arguments: [
        (Array("[\"ab".utf8) + [0xFF] + Array("cd\u{01}\"]".utf8), 4, "unexpected byte 0xFF"),
        (Array("[\"ab".utf8) + [0xC3, 0x28] + Array("\\q\"]".utf8), 4, "bad continuation byte"),
        (Array("[\"ab".utf8) + [0xE0, 0x80, 0x80] + Array("\\u12x4\"]".utf8), 4, "overlong encoding"),
        (Array("[\"ab".utf8) + [0xFE] + Array("cdef".utf8), 4, "unexpected byte 0xFE"),
        (Array("{\"k".utf8) + [0xED, 0xA0, 0x80] + Array(String(repeating: "x", count: 40).utf8) + Array("\": 1}".utf8), 3,
         "encoded UTF-16 surrogate"),
    ] as [([UInt8], Int, String)])
    func invalidUTF8BeforeAnotherProblemInTheString(_ bytes: [UInt8], _ offset: Int, _ reason: String) throws {
        var options = JSONParsingOptions()
        options.maxStringLength = 16
        for size in [1, 2, 3, 7, 64, 65_536] {
            let error = try #require(readAll(bytes, chunkSize: size, options: options).error)
            #expect(error.kind == .invalidString, "chunk size \(size)")
            #expect(error.message == "invalid UTF-8 in string: \(reason)", "chunk size \(size)")
            #expect(error.location == SourceLocation(byteOffset: offset, line: 1, column: offset + 1), "chunk size \(size)")
        }
    }

    /// A UTF-8 sequence cut short by the end of the input is the end of the input's error.
    @Test func aSequenceCutByTheEndOfTheInput() throws {
        let bytes = Array("[\"ab".utf8) + [0xE2, 0x82]
        for size in [1, 2, 64] {
            let error = try #require(readAll(bytes, chunkSize: size).error)
            #expect(error.kind == .unexpectedEndOfInput, "chunk size \(size)")
        }
    }

    @Test func sameErrorAtEveryChunkSize() {
        let input = "{\n  \"objects\": [\n    {\"name\": \"Nirvana\", \"members\": [{\"name\": \"Kurt\"}, {\"name\": truth}]}\n  ]\n}"
        let whole = readAll(input)
        #expect(whole.error?.summary == "3:64: error: invalid literal 'truth': expected true, false or null (at objects[0].members[1].name)")
        for size in [1, 2, 3, 5, 7, 11, 64] {
            let chunked = readAll(input, chunkSize: size)
            #expect(chunked == whole, "chunk size \(size)")
        }
    }

    @Test func excerptClipsLongLinesAroundTheError() throws {
        let input = "[" + String(repeating: "1, ", count: 40) + "oops" + String(repeating: ", 2", count: 40) + "]"
        let error = try #require(parseError(input))
        #expect(error.location.column == 122)
        let lines = error.description.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3)
        #expect(lines[1].count <= 72)
        let caretColumn = try #require(lines[2].firstIndex(of: "^")).utf16Offset(in: lines[2])
        let excerpt = Array(lines[1])
        #expect(String(excerpt[caretColumn...].prefix(4)) == "oops")
    }

    /// An excerpt clipped inside a line starts and ends on whole characters.
    @Test func excerptsNeverCutACharacter() throws {
        for input in ["[1,," + String(repeating: "x", count: 33) + "é]", "[\"" + String(repeating: "é", count: 40) + "\",,]"] {
            let error = try #require(parseError(input))
            #expect(!error.excerpt.contains("\u{FFFD}"), "\(error.excerpt)")
        }
    }

    @Test func caretCountsCharactersNotBytesInTheExcerpt() throws {
        let error = try #require(parseError(#"{"naïve": 1, "ß": x}"#))
        #expect(error.location.column == 21)  // bytes
        #expect(error.excerptCaret == 18)  // characters
    }
}

@Suite("Limits")
struct LimitTests {
    static func nested(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }

    @Test func depthLimitDefaultsTo512() throws {
        #expect(parseError(Self.nested(512)) == nil)
        let error = try #require(parseError(Self.nested(513)))
        #expect(error.kind == .limitExceeded)
        #expect(error.location.column == 513)
        #expect(error.message.contains("maximum depth of 512"))
    }

    /// Extreme settings are clamped, never trapped on: a chunk size of `Int.max` reads in 64 MiB
    /// chunks at most, and a string limit of `Int.max` in 32-bit token lengths.
    @Test func extremeSettingsAreClamped() throws {
        var options = JSONParsingOptions()
        options.chunkSize = .max
        options.maxStringLength = .max
        options.maxNumberLength = .max
        options.maxDepth = .max
        let reader = JSONReader(.string(#"{"a": ["x", 1.5e3]}"#), options: options)
        #expect(try reader.skipToEnd() == 1)
        #expect(readAll(#"[1, "x"]"#, chunkSize: .min).tokens.count == 4)
        #expect(JSONParsingOptions(chunkSize: .max).effectiveChunkSize == JSONParsingOptions.maxChunkSize)
    }

    @Test func depthLimitIsConfigurable() throws {
        var options = JSONParsingOptions()
        options.maxDepth = 3
        #expect(parseError(#"{"a":[{}]}"#, options: options) == nil)
        let error = try #require(parseError(#"{"a":[{"b":[]}]}"#, options: options))
        #expect(error.summary.hasPrefix("1:12: error: nesting is deeper than the maximum depth of 3"))
        #expect(error.path == ["a", 0, "b"])
    }

    @Test(arguments: [1, 3, 64, 65_536])
    func stringLengthLimitAtAnyChunkSize(_ chunkSize: Int) throws {
        var options = JSONParsingOptions()
        options.maxStringLength = 10
        #expect(readAll(#"["0123456789"]"#, chunkSize: chunkSize, options: options).error == nil)
        let error = try #require(parseError(#"["0123456789A"]"#, chunkSize: chunkSize, options: options))
        #expect(error.kind == .limitExceeded)
        #expect(error.location.column == 2)
        let long = "[\"" + String(repeating: "x", count: 5000) + "\u{01}\"]"
        #expect(readAll(long, chunkSize: chunkSize, options: options).error?.kind == .limitExceeded)
        let keyError = try #require(parseError(#"{"0123456789AB": 1}"#, chunkSize: chunkSize, options: options))
        #expect(keyError.kind == .limitExceeded)
    }

    @Test(arguments: [1, 7, 65_536])
    func numberLengthLimitAtAnyChunkSize(_ chunkSize: Int) throws {
        let ok = "[" + String(repeating: "9", count: 1000) + "]"
        #expect(readAll(ok, chunkSize: chunkSize).error == nil)
        let tooLong = "[" + String(repeating: "9", count: 1001) + "]"
        let error = try #require(parseError(tooLong, chunkSize: chunkSize))
        #expect(error.kind == .limitExceeded)
        #expect(error.summary.hasPrefix("1:2: error: number is longer than the maximum of 1000 bytes"))
    }
}

@Suite("Limits against the grammar")
struct LimitsAgainstGrammarTests {
    /// Found by fuzzing: a too-long token where no value may stand is a syntax error at any
    /// chunk size, not a length error in small chunks only.
    @Test(arguments: [1, 2, 7, 65_536])
    func aMisplacedLongTokenIsASyntaxError(_ chunkSize: Int) throws {
        var options = JSONParsingOptions()
        options.maxNumberLength = 10
        options.maxStringLength = 10
        let digits = String(repeating: "3", count: 30)
        let cases = [
            (#"{"a": "x""# + digits + "}", "1:10: error: expected ',' or '}' after object member, found a number (at a)"),
            ("[1 " + digits + "]", "1:4: error: expected ',' or ']' after array element, found a number (at [1])"),
            ("{" + digits + ": 1}", "1:2: error: expected a string key, found a number"),
            (#"{"a" "# + digits + "}", "1:6: error: expected ':' after object key, found a number (at a)"),
            ("[1] " + digits, "1:5: error: expected end of input after the top-level value, found a number (several top-level values, as in NDJSON, need JSONParsingOptions.allowsMultipleValues)"),
            ("[" + digits + "]", "1:2: error: number is longer than the maximum of 10 bytes (JSONParsingOptions.maxNumberLength) (at [0])"),
            (#"[1 ""# + digits + #""]"#, "1:4: error: expected ',' or ']' after array element, found a string (at [1])"),
            // Found by fuzzing too: the same when the long token is also malformed further on,
            // which yajl reports first when it sees the whole token in one call.
            ("[[]" + digits + ".[", "1:4: error: expected ',' or ']' after array element, found a number (at [1])"),
            (#"[1 ""# + digits + #"\q"]"#, "1:4: error: expected ',' or ']' after array element, found a string (at [1])"),
        ]
        for (input, expected) in cases {
            let error = try #require(parseError(input, chunkSize: chunkSize, options: options), "\(input)")
            #expect(error.summary == expected, "\(input) at chunk size \(chunkSize)")
        }
    }
}

@Suite("Error order")
struct ErrorOrderTests {
    /// Found by fuzzing: a number already over its limit is reported before a vertical tab after it.
    @Test(arguments: [1, 7, 65_536])
    func theEarliestProblemWins(_ chunkSize: Int) throws {
        var options = JSONParsingOptions()
        options.allowsMultipleValues = true
        options.maxNumberLength = 40
        let input = #""""""# + String(repeating: "5", count: 60) + "\u{0B}"
        let error = try #require(parseError(input, chunkSize: chunkSize, options: options))
        #expect(error.summary == "1:5: error: number is longer than the maximum of 40 bytes (JSONParsingOptions.maxNumberLength)")
    }
}

@Suite("Control characters in strings")
struct ControlCharacterInStringTests {
    /// Found by fuzzing: with trailing garbage allowed, a raw vertical tab inside the first value's
    /// string was reported as the end of input, at a column that depended on the chunking.
    @Test(arguments: [1, 2, 3, 65_536])
    func aVerticalTabInAStringIsNamedWhateverTheChunking(_ chunkSize: Int) throws {
        for trailingGarbage in [false, true] {
            var options = JSONParsingOptions()
            options.allowsTrailingGarbage = trailingGarbage
            let error = try #require(parseError("\"\u{0B}\"", chunkSize: chunkSize, options: options))
            #expect(error.location.line == 1 && error.location.column == 2, "\(error.summary) (chunk \(chunkSize), garbage \(trailingGarbage))")
            #expect(error.summary.contains("vertical tab"), "\(error.summary) (chunk \(chunkSize), garbage \(trailingGarbage))")
        }
    }

    /// Found by the CI fuzz smoke run (SpoolFuzz): with trailing garbage allowed, an unfinished
    /// literal or number ended by a vertical tab or form feed (`t\v...`) was reported as the end
    /// of input, at the end of whatever input had arrived (1:17 in one chunk, 1:3 in 1-byte
    /// chunks). It is the vertical tab, at its own place, as without trailing garbage; a whole
    /// number ended by one is still the first value.
    @Test(arguments: [1, 2, 3, 65_536])
    func aVerticalTabAfterAnUnfinishedScalarIsNamedWhateverTheChunking(_ chunkSize: Int) throws {
        for (text, column) in [("t\u{0B}xxxxxxxxxxxxxx", 2), ("tr\u{0C}xx", 3), ("-\u{0B}xx", 2), ("1.\u{0B}x", 3), ("nul\u{0B}", 4)] {
            for trailingGarbage in [false, true] {
                var options = JSONParsingOptions()
                options.allowsTrailingGarbage = trailingGarbage
                let error = try #require(parseError(text, chunkSize: chunkSize, options: options))
                let context = "\(text.debugDescription): \(error.summary) (chunk \(chunkSize), garbage \(trailingGarbage))"
                #expect(error.location.line == 1 && error.location.column == column, "\(context)")
                #expect(error.summary.contains("vertical tab") || error.summary.contains("form feed"), "\(context)")
            }
        }
        var options = JSONParsingOptions()
        options.allowsTrailingGarbage = true
        options.chunkSize = chunkSize
        #expect(try Int.decodeValue(from: .string("12\u{0B}xx"), options: options) == 12)
    }
}
