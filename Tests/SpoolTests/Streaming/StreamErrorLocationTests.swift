import Foundation
import Spool
import Testing

/// Errors found while moving to the streamed array keep their location, however the input is
/// read (tokens passed are dropped, in batches when parsing runs in the background).
@Suite("Stream error locations")
struct StreamErrorLocationTests {
    static let big: String = {
        let band = #"{"name": "B", "active": "active", "members": [{"name": "M", "birth_date": "1970-01-01"}]}"#
        return "{\n  \"objects\": [\n" + Array(repeating: band, count: 5_000).joined(separator: ",\n") + "\n  ]\n}\n"
    }()

    static func options(chunkSize: Int, background: Bool) -> JSONParsingOptions {
        var options = JSONParsingOptions()
        options.chunkSize = chunkSize
        options.parsesInBackground = background
        return options
    }

    @Test(arguments: [(16, true), (16, false), (65_536, true), (1 << 20, false)])
    func aMissingKeyOrElementIsLocated(_ chunkSize: Int, _ background: Bool) throws {
        let options = Self.options(chunkSize: chunkSize, background: background)
        let key = #expect(throws: DecodeError.self) { try JSONStream(.string(Self.big), options: options).count(at: "nope") }
        #expect(key?.description == #"1:1: error: missing key "nope" (streaming nope)"#)
        let element = #expect(throws: DecodeError.self) {
            _ = try JSONStream(.string(Self.big), options: options).elements(of: JSONValue.self, at: ["objects", 9_999]).next()
        }
        #expect(element?.description == "2:14: error: missing element [9999] in objects (streaming objects[9999])")
    }

    @Test func aParseErrorInACountSaysHowManyWereCounted() throws {
        let error = #expect(throws: ParseError.self) {
            try JSONStream(.string(#"{"objects": [1, 2, 3,, 4]}"#)).count(at: "objects")
        }
        #expect(error?.message == "expected a value, found ',' (3 elements of objects read before it)")
    }
}
