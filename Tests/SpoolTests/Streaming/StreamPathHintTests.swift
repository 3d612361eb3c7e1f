import Spool
import Testing

/// Issue 24, item 6: a stream's path that misses says what was probably meant.
@Suite("Stream paths: did you mean")
struct StreamPathHintTests {
    static let json = #"{"search_metadata": {"count": 2}, "statuses": [1, 2], "Statuses2": []}"#

    func message(streaming path: JSONKeyPath) throws -> String {
        let elements = JSONStream(.string(Self.json)).elements(of: Int.self, at: path)
        let error = try #require(throws: DecodeError.self) { _ = try elements.next() }
        #expect(error.code == .missingKey || error.code == .typeMismatch)
        return error.message
    }

    @Test(arguments: [
        ("Statuses", "statuses"),  // case
        ("statuse", "statuses"),  // one dropped
        ("statusess", "statuses"),  // one added
        ("stetuses", "statuses"),  // one changed
        ("sattuses", "statuses"),  // two swapped
    ])
    func aNearKeyIsSuggested(_ wanted: String, _ suggested: String) throws {
        let message = try message(streaming: [.key(wanted)])
        #expect(message.hasSuffix("did you mean \"\(suggested)\"?"), "\(message)")
    }

    @Test func aFarKeyGetsNoSuggestion() throws {
        let message = try message(streaming: ["results"])
        #expect(message == #"missing key "results" (streaming results)"#)
    }

    @Test func aSuggestionComesFromTheObjectSearched() throws {
        let message = try message(streaming: ["search_metadata", "Count"])
        #expect(message.hasSuffix(#"in search_metadata (streaming search_metadata.Count); did you mean "count"?"#), "\(message)")
    }

    @Test func anIndexAfterADotIsShownInBrackets() throws {
        let path = try JSONKeyPath(parsing: "statuses.0")
        let message = try message(streaming: path)
        #expect(message.hasSuffix("; for an element, write statuses[0] (an index goes in brackets)"), "\(message)")
    }
}
