import Spool
import Testing

/// Issue 22, item 10: invalid text after the streamed array of a ``PushJSONStream`` comes out
/// the same way whatever the order of `finishInput()` and the element loop, and however the
/// input was split: the loop never ends normally on input already known to be invalid.
@Suite("PushJSONStream: errors after the streamed container")
struct PushErrorOrderTests {
    /// Documents invalid only after the container streamed at `path`, with the message their error has.
    static let cases: [(text: String, path: JSONKeyPath, message: String)] = [
        (#"[""],"#, .root, "expected end of input after the top-level value, found ','"),
        (#"[""] x"#, .root, "expected end of input after the top-level value, found 'x'"),
        (#"[""], "# + String(repeating: "x", count: 60), .root, "expected end of input after the top-level value, found ','"),
        (#"{"a": [1], "b": x}"#, "a", "expected a value, found 'x'"),
    ]

    /// What a caller does with a stream, in one order, and where the first error came from.
    enum Order: CaseIterable { case drainThenFinishInput, finishInputThenDrain }

    /// Runs `text`, split at `split`, through a push stream in `order`: the call that threw first,
    /// and its error.
    static func firstError(_ text: String, at path: JSONKeyPath, split: Int, order: Order) -> (call: String, error: ParseError?) {
        let bytes = Array(text.utf8)
        let stream = PushJSONStream()
        let elements = stream.elements(of: JSONValue.self, at: path)
        var call = ""
        do {
            func drain() throws {
                call = "next()"
                while try elements.next() != nil {}
            }
            call = "append"
            try stream.append(bytes[..<split])
            try drain()
            call = "append"
            try stream.append(bytes[split...])
            switch order {
            case .drainThenFinishInput:
                try drain()
                call = "finishInput()"
                try stream.finishInput()
                try drain()
            case .finishInputThenDrain:
                call = "finishInput()"
                try stream.finishInput()
                try drain()
            }
            #expect(elements.isFinished)
            call = "finish()"
            try stream.finish()
            return ("none", nil)
        } catch {
            return (call, error as? ParseError)
        }
    }

    @Test(arguments: Order.allCases)
    func theElementLoopDoesNotEndNormallyOnInvalidText(_ order: Order) throws {
        for (text, path, message) in Self.cases {
            for split in 0...text.utf8.count {
                let (call, error) = Self.firstError(text, at: path, split: split, order: order)
                #expect(call != "finish()" && call != "none", "\(text) split at \(split): first error from \(call)")
                #expect(error?.message == message + " (1 element of \(path.isEmpty ? "the input" : "a") read before it)",
                        "\(text) split at \(split), \(order): \(String(describing: error))")
            }
        }
    }

    @Test func finishInputFirstThenNextThrows() throws {
        let stream = PushJSONStream()
        let strings = stream.elements(of: String.self)
        try stream.append(Array(#"[""],"#.utf8))
        try stream.finishInput()  // the element is not handed out yet: next() throws after it
        #expect(try strings.next() == "")
        let error = #expect(throws: ParseError.self) { try strings.next() }
        #expect(error?.location.column == 5)
        #expect(strings.isFinished)
        #expect(try strings.next() == nil)
    }

    @Test func aCountDoesNotEndNormallyEither() throws {
        let stream = PushJSONStream()
        try stream.append(Array(#"[1, 2] ]"#.utf8))
        try stream.finishInput()
        #expect(throws: ParseError.self) { try stream.count() }
    }

    @Test func anErrorAfterTheElementsAreHandedOutComesFromAppend() throws {
        let stream = PushJSONStream()
        let strings = stream.elements(of: String.self, at: "a")
        try stream.append(Array(#"{"a": ["x"], "b": "#.utf8))
        #expect(try strings.next() == "x")
        #expect(try strings.next() == nil)
        #expect(strings.isFinished)
        // The error is after a token not read (the key "b"): the reader alone would wait.
        let error = #expect(throws: ParseError.self) {
            try stream.append(Array(("nope" + String(repeating: " ", count: 60)).utf8))
        }
        #expect(error?.message.hasPrefix("invalid literal 'nope'") == true, "\(String(describing: error))")
    }
}
