import Spool
import Testing

/// Validation (`skipToEnd()`) with comments allowed reports the cursor's error: a vertical tab
/// or form feed between tokens comes before a later string error, at every chunk size (a fuzz
/// finding: the lean validating handlers do not scan between tokens).
@Suite("Validation with comments")
struct ValidationWithCommentsTests {
    static let inputs = [
        "[\u{0B}[\"\\u2}00B\"]}",
        "[" + String(repeating: " ", count: 200) + "1," + String(repeating: " ", count: 200) + "[\u{0B}[\"\\u2}00B\"]]]",
        "{\"a\": /* c */ [1,\u{0C} 2]}",
    ]

    @Test(arguments: [1, 7, 64, 65_536])
    func validationReportsWhatTheCursorReports(_ chunkSize: Int) {
        for text in Self.inputs {
            var options = JSONParsingOptions()
            options.allowsComments = true
            options.chunkSize = chunkSize
            let validated = #expect(throws: ParseError.self) { try JSONReader(.string(text), options: options).skipToEnd() }
            let cursor = #expect(throws: ParseError.self) {
                let reader = JSONReader(.string(text), options: options)
                while try reader.next() != nil {}
            }
            #expect(validated?.description == cursor?.description, "\(text)")
            #expect(validated?.message.contains("must be escaped") == false, "\(text)")
        }
    }
}
