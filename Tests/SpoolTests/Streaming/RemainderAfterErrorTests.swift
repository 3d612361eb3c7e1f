import Spool
import Testing

/// The remainder after a stream failed to find its path: a document, never past a container's end.
@Suite("Remainder after a path error")
struct RemainderAfterErrorTests {
    @Test(arguments: [#"{}"#, #"{"b": [1, {"c": 2}]}"#, #"[1, 2]"#])
    func theRemainderOfAFailedStreamIsReadable(_ text: String) throws {
        let stream = JSONStream(.string(text))
        #expect(throws: DecodeError.self) { _ = try stream.elements(of: JSONValue.self, at: "a").next() }
        let remainder = try stream.remainder()
        #expect(try remainder.decode(as: JSONValue.self) == JSONValue.decodeValue(from: .string(text)))
    }
}
