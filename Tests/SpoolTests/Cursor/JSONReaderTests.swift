import Foundation
import Testing
@testable import Spool

@Suite("JSONReader")
struct JSONReaderTests {
    static let catalog = """
        {
          "objects": [
            {"name": "Nirvana", "active": false, "members": [{"name": "Kurt"}, {"name": "Krist"}]},
            {"name": "Foo Fighters", "homepage": null, "members": [{"name": "Dave"}]}
          ],
          "last_updated": "2016-01-01"
        }
        """

    @Test func reportsPathDepthAndLocationOfEveryToken() throws {
        let reader = JSONReader(.string(Self.catalog))
        var seen: [String] = []
        while let token = try reader.next() {
            if token == .string, let text = reader.text {
                let location = try #require(reader.location)
                seen.append("\(reader.path) \(text) \(location) depth \(reader.depth)")
            }
        }
        #expect(
            seen == [
                "objects[0].name Nirvana 3:14 depth 3",
                "objects[0].members[0].name Kurt 3:63 depth 5",
                "objects[0].members[1].name Krist 3:81 depth 5",
                "objects[1].name Foo Fighters 4:14 depth 3",
                "objects[1].members[0].name Dave 4:69 depth 5",
                "last_updated 2016-01-01 6:19 depth 1",
            ])
    }

    @Test func tokenKindsAndPathsOfContainers() throws {
        let reader = JSONReader(.string(#"{"a": [1, {"b": true}], "c": null}"#))
        var events: [String] = []
        while let token = try reader.next() { events.append("\(token)@\(reader.path)#\(reader.depth)") }
        #expect(
            events == [
                "'{'@.#1", "key@a#1", "'['@a#2", "number@a[0]#2", "'{'@a[1]#3", "key@a[1].b#3", "true@a[1].b#3",
                "'}'@a[1]#2", "']'@a#1", "key@c#1", "null@c#1", "'}'@.#0",
            ])
    }

    @Test func textComparesWithoutMakingStrings() throws {
        let reader = JSONReader(.string(#"{"naïve": "x\ny", "n": -12.5e3}"#))
        #expect(try reader.next() == .objectStart)
        #expect(try reader.next() == .key)
        #expect(reader.textEquals("naïve"))
        #expect(!reader.textEquals("naive"))
        #expect(try reader.next() == .string)
        #expect(reader.text == "x\ny")
        #expect(reader.withUTF8 { $0.count } == 3)
        _ = try reader.next()
        #expect(try reader.next() == .number)
        #expect(reader.text == "-12.5e3")  // exactly as written
        #expect(try reader.next() == .objectEnd)
        #expect(reader.text == nil)
        #expect(try reader.next() == nil)
        #expect(try reader.next() == nil)
    }

    @Test func peekDoesNotMove() throws {
        let reader = JSONReader(.string("[1, 2]"))
        #expect(try reader.peek() == .arrayStart)
        #expect(try reader.next() == .arrayStart)
        #expect(try reader.peek() == .number)
        #expect(try reader.next() == .number)
        #expect(reader.text == "1")
    }

    @Test(arguments: [1, 5, 65_536])
    func skipValueSkipsWholeSubtrees(_ chunkSize: Int) throws {
        var options = JSONParsingOptions()
        options.chunkSize = chunkSize
        let reader = JSONReader(.string(Self.catalog), options: options)
        #expect(try reader.next() == .objectStart)
        #expect(try reader.next() == .key)
        try reader.skipValue()  // the whole objects array
        #expect(reader.depth == 1)
        #expect(try reader.next() == .key)
        #expect(reader.textEquals("last_updated"))
        try reader.skipValue()
        #expect(try reader.next() == .objectEnd)
        #expect(try reader.next() == nil)
    }

    /// The skipped container closes in a chunk read while the cursor is inside a nested one:
    /// the jump to its end must wait until the cursor is back at its level. (Tokens are pinned,
    /// as a whole-value decoder pins them, so the start token is still held when its end comes.)
    @Test(arguments: [1, 2, 3, 4, 5, 8])
    func skipValueJumpsOnlyFromTheSkippedContainersOwnLevel(_ chunkSize: Int) throws {
        for text in ["[[[1,2]],3]", "[[[[1]],[2]],3]", "{\"a\":[{\"b\":[1]}],\"c\":3}"] {
            var options = JSONParsingOptions()
            options.chunkSize = chunkSize
            options.parsesInBackground = false
            let reader = JSONReader(.string(text), options: options)
            reader.pinnedFrom = 0
            _ = try reader.next()
            try reader.skipValue()
            #expect(reader.depth == 1, "\(text) at chunk size \(chunkSize)")
            #expect(try reader.next() == (text.hasPrefix("{") ? .key : .number), "\(text) at chunk size \(chunkSize)")
        }
    }

    @Test func skipValueAtAKeySkipsTheMember() throws {
        let reader = JSONReader(.string(#"{"a": {"x": [1, 2]}, "b": 2}"#))
        _ = try reader.next()
        try reader.skipValue()
        #expect(try reader.next() == .key)
        #expect(reader.textEquals("b"))
        #expect(reader.path == ["b"])
    }

    @Test func skipIsConstantTimeOnceTheContainerHasClosed() throws {
        let big = "[" + (0..<10_000).map { "{\"i\": \($0)}" }.joined(separator: ",") + "]"
        var options = JSONParsingOptions()
        options.chunkSize = 1 << 20  // the whole array is on the tape after the first chunk
        let reader = JSONReader(.string("[" + big + ", 7]"), options: options)
        _ = try reader.next()
        let before = reader.position
        try reader.skipValue()
        #expect(reader.position == before + 1 + 10_000 * 4 + 1)
        #expect(try reader.next() == .number)
        #expect(reader.path == [1])
    }

    @Test func pathsKeepKeysWhoseTokensWereDropped() throws {
        // Tiny chunks: the key "deep" leaves the tape long before the values under it.
        let values = (0..<500).map(String.init).joined(separator: ",")
        var options = JSONParsingOptions()
        options.chunkSize = 3
        let reader = JSONReader(.string(#"{"outer": {"deep": ["#+values+#"]}}"#), options: options)
        var last = JSONKeyPath.root
        while let token = try reader.next() {
            if token == .number { last = reader.path }
        }
        #expect(last == ["outer", "deep", 499])
        #expect(last.description == "outer.deep[499]")
    }

    @Test func readsFilesPipesDataAndStrings() throws {
        let text = #"{"k": [true, false, null]}"#
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("spool-reader-\(UUID()).json")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        func kinds(_ reader: JSONReader) throws -> [JSONToken] {
            var kinds: [JSONToken] = []
            while let token = try reader.next() { kinds.append(token) }
            return kinds
        }
        let expected: [JSONToken] = [.objectStart, .key, .arrayStart, .bool(true), .bool(false), .null, .arrayEnd, .objectEnd]
        let fromFile = JSONReader(.file(file.path))
        #expect(fromFile.totalBytes == text.utf8.count)
        #expect(try kinds(fromFile) == expected)
        #expect(try kinds(JSONReader(.data(Data(text.utf8)))) == expected)
        #expect(try kinds(JSONReader(.bytes(Array(text.utf8)))) == expected)
        #expect(try kinds(JSONReader(.string(text))) == expected)

        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data(text.utf8))
        try pipe.fileHandleForWriting.close()
        let fromPipe = JSONReader(.fileDescriptor(pipe.fileHandleForReading.fileDescriptor, closeWhenDone: false))
        #expect(fromPipe.totalBytes == nil)
        #expect(try kinds(fromPipe) == expected)
        #expect(fromPipe.bytesRead == text.utf8.count)
    }

    @Test func missingFileIsAnInputError() {
        #expect {
            _ = try JSONReader(.file("/nonexistent/spool.json")).next()
        } throws: { error in
            let error = error as? InputError
            return error?.operation == "open" && error?.reason == "No such file or directory"
                && error?.description == "cannot open '/nonexistent/spool.json': No such file or directory"
        }
        #expect(throws: InputError.self) { _ = try JSONReader(.file("/tmp")).next() }
    }

    @Test func incrementalReaderTakesChunksAsTheyArrive() throws {
        let reader = JSONReader.incremental()
        var tokens: [JSONToken] = []
        func drain() throws { while let token = try reader.next() { tokens.append(token) } }
        for piece in [#"{"na"#, #"me": "Nir"#, #"vana", "n": 1"#] {
            try reader.append(Array(piece.utf8))
            try drain()
            #expect(!reader.isAtEnd)
        }
        #expect(tokens == [.objectStart, .key, .string, .key])  // the 1 may continue
        try reader.append(Array("2}".utf8))
        try drain()
        #expect(!reader.isAtEnd)
        try reader.finishInput()
        try drain()
        #expect(tokens == [.objectStart, .key, .string, .key, .number, .objectEnd])
        #expect(reader.isAtEnd)
    }

    @Test func incrementalReaderReportsErrorsAfterTheGoodTokens() throws {
        let reader = JSONReader.incremental()
        try reader.append(Array("[1, 2,".utf8))
        try reader.append(Array(", 3]".utf8))
        #expect(try reader.next() == .arrayStart)
        #expect(try reader.next() == .number)
        #expect(try reader.next() == .number)
        // The error waits for the rest of its line, which a pull reader would show.
        #expect(try reader.next() == nil)
        #expect(!reader.isAtEnd)
        let error = try #require(throws: ParseError.self) { try reader.append(Array("\n".utf8)) }
        #expect(error.description == "1:7: error: expected a value, found ',' (at [2])\n[1, 2,, 3]\n      ^")
        #expect(throws: error) { try reader.next() }
        // Appending on without reading: append does not throw before the '{' is handed out.
        let unread = JSONReader.incremental()
        for piece in ["{3}", "\n", " "] { try unread.append(Array(piece.utf8)) }
        #expect(try unread.next() == .objectStart)
        #expect(throws: ParseError.self) { try unread.next() }
        let truncated = JSONReader.incremental()
        try truncated.append(Array("[1".utf8))
        try truncated.finishInput()  // the error waits until the good tokens are read
        #expect(try truncated.next() == .arrayStart)
        #expect(try truncated.next() == .number)
        #expect {
            try truncated.next()
        } throws: { error in
            (error as? ParseError)?.summary == "1:3: error: unexpected end of input; the array opened at 1:1 is not closed (at [1])"
        }
        let empty = JSONReader.incremental()
        #expect(throws: ParseError.self) { try empty.finishInput() }
    }

    /// However the input is split into appended pieces, an incremental reader hands out the
    /// same tokens and the same error (message, location, path, excerpt) as a pull reader.
    @Test func incrementalReaderGivesTheSameErrorHoweverTheInputIsSplit() throws {
        var inputs = Fixtures.names(in: Fixtures.parsingDirectory, prefix: "n_").map { Fixtures.bytes($0) }
        inputs += ["[trut" + "h, 1]", "[Infinity]", "[1,,2]", "{\"a\": [1, 2,, 3]}\n", "[\"abc\\x\"]", "[1] x"].map { Array($0.utf8) }
        for bytes in inputs where bytes.count <= 64 {
            let pulled = readAll(bytes, chunkSize: 1)
            for split in 0...bytes.count {
                let pushed = pushAll(bytes, pieces: [split, bytes.count - split])
                #expect(pushed == pulled, "\(String(decoding: bytes, as: UTF8.self)) split at \(split)")
            }
            let bytewise = Array(repeating: 1, count: bytes.count)
            #expect(pushAll(bytes, pieces: bytewise) == pulled)
            // Appending everything before reading anything: the tokens before the error still come first.
            #expect(pushAll(bytes, pieces: bytewise, drainingBetween: false) == pulled)
        }
    }

    /// With trailing garbage allowed, reading ends with the first value: what follows is not
    /// checked (a form feed, an unterminated string) and, from a file, not even read.
    @Test func trailingGarbageAllowedEndsWithTheFirstValue() throws {
        var options = JSONParsingOptions()
        options.allowsTrailingGarbage = true
        let cases: [(String, [JSONToken])] = [
            ("[1, 2] garbage \u{0C} \"unterminated", [.arrayStart, .number, .number, .arrayEnd]),
            ("12x", [.number]),
            ("\"abc\" \"def\"", [.string]),
            ("{\"a\": true}}}", [.objectStart, .key, .bool(true), .objectEnd]),
            ("1\u{0C}garbage", [.number]),  // a form feed ends the number, and is garbage
            ("1.5\u{0B}", [.number]),
        ]
        for (text, tokens) in cases {
            for size in [1, 2, 3, 7, 64, 65_536] {
                let outcome = readAll(text, chunkSize: size, options: options)
                #expect(outcome.error == nil && outcome.tokens.map(\.token) == tokens, "\(text) at \(size)")
            }
            #expect(pushAll(Array(text.utf8), pieces: [1, 2, 3, 100], options: options).tokens.map(\.token) == tokens)
            #expect(try JSONReader(.string(text), options: options).skipToEnd() == 1)
        }
        // Errors inside the value are still errors.
        #expect(parseError("[1,,2] x", options: options)?.summary == "1:4: error: expected a value, found ',' (at [1])")
        #expect(parseError("[1, 2", options: options)?.kind == .unexpectedEndOfInput)
        #expect(parseError("[1] x", options: options) == nil)
        #expect(parseError("[1] x")?.summary == "1:5: error: expected end of input after the top-level value, found 'x'")
        // With several values allowed, the garbage is parsed as values.
        options.allowsMultipleValues = true
        #expect(parseError("[1] x", options: options) != nil)

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("spool-garbage-\(UUID()).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let tail = [UInt8](repeating: UInt8(ascii: "x"), count: 4 << 20)
        #expect(FileManager.default.createFile(atPath: path, contents: Data(Array("{\"a\": [1]} ".utf8) + tail)))
        options.allowsMultipleValues = false
        options.chunkSize = 4096
        let reader = JSONReader(.file(path), options: options)
        #expect(try reader.skipToEnd() == 1)
        #expect(reader.bytesRead == 4096)

        // Appended bytes after the value are dropped, not kept.
        let pushed = JSONReader.incremental(options: options)
        try pushed.append(Array("[1] ".utf8))
        #expect(try pushed.skipToEnd() == 1)
        for _ in 0..<64 { try pushed.append(tail[0..<65_536]) }
        #expect(pushed.isAtEnd && pushed.builder.bytesReceived == 4)
    }

    @Test func readsMultipleTopLevelValues() throws {
        var options = JSONParsingOptions()
        options.allowsMultipleValues = true
        let outcome = readAll("{\"a\":1}\n\n[2]\n\"x\" 4\n", options: options)
        #expect(outcome.error == nil)
        #expect(outcome.tokens.filter { $0.location.column == 1 || $0.token == .number }.count >= 3)
        #expect(readAll("", options: options).error == nil)
        #expect(readAll("\n\n", options: options).error == nil)
        #expect(readAll("1\"a\"", options: options).error?.message == "expected whitespace between top-level values, found a string")
        #expect(readAll("[1][2]", options: options).error == nil)
    }

    @Test func acceptsCommentsWhenAsked() throws {
        var options = JSONParsingOptions()
        options.allowsComments = true
        let input = "// header\n{\"a\": /* one */ 1, // tail\n \"b\": [2 /* two\n lines */]}\n"
        for size in [1, 2, 3, 65_536] {
            let outcome = readAll(input, chunkSize: size, options: options)
            #expect(outcome.error == nil, "chunk size \(size)")
            #expect(outcome.tokens.map(\.token) == [.objectStart, .key, .number, .key, .arrayStart, .number, .arrayEnd, .objectEnd])
            #expect(outcome.tokens.last?.location == SourceLocation(byteOffset: 63, line: 4, column: 11))
        }
    }
}

@Suite("Yajl feed")
struct YajlFeedTests {
    /// yajl re-lexes an unfinished token on every call, and copies a token that spans calls into
    /// a buffer of its own: a long string is held back until its closing quote has arrived and
    /// then handed over whole, never re-lexed (StringHoldBack). In the background (yajl on its
    /// own thread), the calls are made there and replayed on the reader's tape builder, which
    /// counts them the same way.
    @Test(arguments: [false, true])
    func longStringsInSmallChunksAreHandedOverWhole(inBackground: Bool) throws {
        let length = 4 << 20
        var bytes = Array("[\"".utf8)
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "a"), count: length))
        bytes.append(contentsOf: Array("\", 1]".utf8))
        var options = JSONParsingOptions()
        options.chunkSize = 1024
        options.parsesInBackground = inBackground
        let reader = JSONReader(.bytes(bytes), options: options)
        #expect(try reader.next() == .arrayStart)
        #expect(try reader.next() == .string)
        #expect(reader.withUTF8 { $0.count } == length)
        #expect(reader.builder.relexedBytes == 0)
        #expect(reader.builder.parseCalls < 10)
        #expect(try reader.next() == .number)
        #expect(reader.isParsingInBackground == inBackground)
    }

    /// Long strings of every kind among long runs without strings, in small chunks: the same
    /// tokens as in one chunk, and linear work. Strings with escapes or non-ASCII bytes are
    /// handed over as they arrive (yajl may reject bytes in them, and should as early as before).
    @Test(arguments: [false, true], [1000, 4096])
    func longStringsOfEveryKindInSmallChunks(inBackground: Bool, chunkSize: Int) throws {
        let ascii = String(repeating: "abcdefgh", count: 40_000)
        let escaped = String(repeating: #"a\n\"\\\u00e9\/b"#, count: 10_000)
        let unicode = String(repeating: "é😀x", count: 20_000)
        let numbers = (0..<30_000).map(String.init).joined(separator: ",")
        let text = """
            {"k": "\(ascii)", "e": "\(escaped)", "u": "\(unicode)", "n": [\(numbers)], "q": "x",
             "\(ascii)": ["\(ascii)", "\(ascii)"], "z": "\(ascii)\\\\"}
            """
        let bytes = Array(text.utf8)
        var options = JSONParsingOptions()
        options.parsesInBackground = inBackground
        let whole = readAll(bytes, chunkSize: 1 << 26, options: options)
        #expect(whole.error == nil)
        #expect(whole.tokens.count == 30_000 + 20)
        options.chunkSize = chunkSize
        let reader = JSONReader(.bytes(bytes), options: options)
        var tokens: [TokenRecord] = []
        while let token = try reader.next() { tokens.append(record(token, reader)) }
        #expect(tokens == whole.tokens)
        #expect(reader.builder.relexedBytes <= 2 * bytes.count)
    }

    /// A held string that turns out to hold a byte yajl rejects goes to yajl at once: the error
    /// comes after reading a few chunks, not the whole string.
    @Test(arguments: [false, true])
    func anErrorInALongStringComesEarly(inBackground: Bool) throws {
        var bytes = Array("[\"ab\u{1}".utf8)
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "a"), count: 2 << 20))
        var options = JSONParsingOptions()
        options.chunkSize = 4096
        options.parsesInBackground = inBackground
        let whole = try #require(readAll(bytes, chunkSize: 1 << 26).error)
        #expect(whole.location.byteOffset == 4)
        let reader = JSONReader(.bytes(bytes), options: options)
        #expect(try reader.next() == .arrayStart)
        #expect {
            try reader.next()
        } throws: { error in
            (error as? ParseError)?.message == whole.message && (error as? ParseError)?.location == whole.location
        }
        #expect(reader.bytesRead < 1 << 18)
    }

    /// An unfinished comment is held back like an unfinished string, so a long comment in small
    /// chunks is not re-lexed quadratically (it was: 16 MB took 7 s).
    @Test(arguments: [false, true], ["/*", "//"])
    func longCommentsInSmallChunksStayLinear(inBackground: Bool, opener: String) throws {
        let length = 4 << 20
        var bytes = Array("[1, \(opener)".utf8)
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "x"), count: length))
        bytes.append(contentsOf: Array((opener == "//" ? "\n 2]" : "*/ 2]").utf8))
        var options = JSONParsingOptions()
        options.chunkSize = 1024
        options.allowsComments = true
        options.parsesInBackground = inBackground
        let reader = JSONReader(.bytes(bytes), options: options)
        #expect(try reader.skipToEnd() == 1)
        #expect(reader.builder.relexedBytes <= 2 * length)
        #expect(reader.builder.parseCalls < 100)
    }

    /// A block comment still open at the end of the input is an error, after a value too.
    @Test func anUnclosedCommentAfterTheValueIsAnError() {
        var options = JSONParsingOptions()
        options.allowsComments = true
        for size in [1, 2, 3, 65_536] {
            #expect(parseError("[1] /* abc", chunkSize: size, options: options)?.summary
                == "1:11: error: unexpected end of input in the comment that starts at 1:5")
            #expect(parseError("{\"a\":1}/*/", chunkSize: size, options: options)?.kind == .unexpectedEndOfInput)
            #expect(parseError("[1] // a line comment ends with the input", chunkSize: size, options: options) == nil)
        }
    }

    /// The string length limit bounds comments too, so a reader never holds an endless one;
    /// the error is the same whatever the chunking, and with a later error after the comment.
    @Test func anOverlongCommentFailsAtItsStartAtEveryChunkSize() throws {
        var options = JSONParsingOptions()
        options.allowsComments = true
        options.maxStringLength = 100
        let comment = String(repeating: "x", count: 200)
        for text in ["[1, /*\(comment)*/ 2]", "[1, //\(comment)\n 2]", "[1, /*\(comment)*/ ,]", "[1 /*\(comment)", "{\"a\": //\(comment)"] {
            let errors = Set([1, 2, 3, 7, 64, 4096].map { parseError(text, chunkSize: $0, options: options) })
            #expect(errors.count == 1, "\(text.prefix(8)): \(errors)")
            let error = try #require(errors.first ?? nil)
            #expect(error.kind == .limitExceeded && error.message.hasPrefix("comment is longer than"), "\(error)")
            #expect(error.location.byteOffset == Array(text.utf8).firstIndex(of: UInt8(ascii: "/")))
        }
        options.maxStringLength = 204
        #expect(parseError("[1, /*\(comment)*/ 2]", chunkSize: 3, options: options) == nil)
    }

    /// A string over the limit fails where it starts, in either split of background work, and
    /// neither thread reads it to its end first.
    @Test(arguments: [nil, JSONReader.Work.tokens, .models])
    func anOverlongStringFailsEarlyInEveryMode(_ work: JSONReader.Work?) throws {
        var bytes = Array("{\"a\": [1, \"".utf8)
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "a"), count: 8 << 20))
        bytes.append(contentsOf: Array("\"]}".utf8))
        var options = JSONParsingOptions()
        options.chunkSize = 4096
        options.maxStringLength = 100_000
        options.parsesInBackground = work != nil
        let reader = JSONReader(.bytes(bytes), options: options, work: work ?? .tokens)
        let error = try #require(throws: ParseError.self) { while try reader.next() != nil {} }
        #expect(error.kind == .limitExceeded)
        #expect(error.location.byteOffset == 10)
        #expect(error.path.description == "a[1]")
        #expect(reader.bytesRead < 1 << 20)
    }

    @Test(arguments: [false, true])
    func memoryIsReusedWhileReadingALargeDocument(inBackground: Bool) throws {
        let element = #"{"name": "Nirvana", "members": [{"name": "Kurt", "birth_date": "1967-02-20"}], "n": 12}"#
        let text = "[" + Array(repeating: element, count: 20_000).joined(separator: ",\n") + "]"
        var options = JSONParsingOptions()
        options.chunkSize = 4096
        options.parsesInBackground = inBackground
        let reader = JSONReader(.string(text), options: options)
        var count = 0
        while let token = try reader.next() { if token == .string { count += 1 } }
        #expect(count == 60_000)
        #expect(reader.bytesRead == text.utf8.count)
        #expect(reader.isParsingInBackground == inBackground)
        #expect(reader.builder.tape.tokenCapacity <= 4096)
        #expect(reader.builder.tape.arenaCapacity <= 64 * 1024)
        #expect(reader.builder.window.capacity <= 2 * (4096 + 256))
    }
}

@Suite("skipToEnd")
struct SkipToEndTests {
    static let inputs = [
        #"{"objects": [{"na\u00efve": {"deep": [1, 2, {"x": tru}]}}]}"#,
        #"{"a\"b": [1, 2,, 3]}"#,
        "{\"outer\": {\"list\": [" + (0..<300).map(String.init).joined(separator: ",") + ", x]}}",
        #"{"k": "\ud800"}"#,
        "[1, 2",
        #"{"a": 1} {"b": 2}"#,
    ]

    @Test(arguments: [1, 3, 16, 65_536])
    func reportsTheSameErrorsAsTheCursor(_ chunkSize: Int) throws {
        var options = JSONParsingOptions()
        options.chunkSize = chunkSize
        for input in Self.inputs {
            let expected = try #require(parseError(input, chunkSize: chunkSize))
            #expect(throws: expected) { try JSONReader(.string(input), options: options).skipToEnd() }
        }
    }

    @Test func countsTopLevelValues() throws {
        #expect(try JSONReader(.string("[1, {\"a\": [2]}]")).skipToEnd() == 1)
        var options = JSONParsingOptions()
        options.allowsMultipleValues = true
        #expect(try JSONReader(.string("1\n{\"a\": 2}\n\n[3]\n"), options: options).skipToEnd() == 3)
        let reader = JSONReader(.string(#"{"a": [1, 2], "b": 3}"#))
        #expect(try reader.next() == .objectStart)
        #expect(try reader.next() == .key)
        #expect(try reader.skipToEnd() == 1)
        #expect(try reader.next() == nil)
    }
}

@Suite("Line counting")
struct LineCountingTests {
    /// Validation counts lines lazily; lines in bytes that leave the input window must still count.
    @Test(arguments: [1, 5, 64, 65_536])
    func validationAndTheCursorAgreeOnLinesOfLongDocuments(_ chunkSize: Int) throws {
        // Long runs of scalar lines between container starts, as in a real catalog.
        let fields = (1...5).map { "    \"field\($0)\": \"a value long enough to fill the line\",\n" }.joined()
        let band = "  {\n" + fields + "    \"tags\": [1, 2]\n  },\n"
        let text = "[\n" + String(repeating: band, count: 40) + "  {\"name\": x}\n]\n"
        var options = JSONParsingOptions()
        options.chunkSize = chunkSize
        let cursor = try #require(parseError(text, chunkSize: chunkSize))
        #expect(cursor.location.line == 322)
        #expect(throws: cursor) { try JSONReader(.string(text), options: options).skipToEnd() }
    }
}

@Suite("Comments across chunks")
struct CommentsAcrossChunksTests {
    /// Found by the fuzzer: a chunk boundary inside `*/` made the error point into the comment.
    @Test(arguments: 1...7)
    func errorsAfterACommentPointAtTheToken(_ chunkSize: Int) throws {
        var options = JSONParsingOptions()
        options.allowsComments = true
        let text = #"{"a":/*com{"a":*/ocmmen*t/e"b"}"#
        let error = try #require(parseError(text, chunkSize: chunkSize, options: options))
        #expect(error.summary == "1:18: error: expected a value, found 'ocmmen' (at a)")
        let lineComment = try #require(parseError("[1, // note\n x]", chunkSize: chunkSize, options: options))
        #expect(lineComment.location == SourceLocation(byteOffset: 13, line: 2, column: 2))
    }
}
