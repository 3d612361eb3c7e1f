@testable import Spool

/// Everything observable about one token, for comparing runs.
struct TokenRecord: Hashable, CustomStringConvertible {
    var token: JSONToken
    var text: [UInt8]
    var location: SourceLocation
    var path: String

    var description: String { "\(token) \(String(decoding: text, as: UTF8.self)) @\(location) \(path)" }
}

/// The result of reading a whole input: its tokens, and the error that stopped it, if any.
struct ReadOutcome: Hashable {
    var tokens: [TokenRecord] = []
    var error: ParseError?
}

/// Reads all of `bytes`; `prepare` may set the reader up first (and keep it, to look at it after).
func readAll(
    _ bytes: [UInt8], chunkSize: Int = 65_536, options: JSONParsingOptions = .init(),
    prepare: (JSONReader) -> Void = { _ in }
) -> ReadOutcome {
    var options = options
    options.chunkSize = chunkSize
    let reader = JSONReader(bytes: bytes, options: options)
    prepare(reader)
    var outcome = ReadOutcome()
    do {
        while let token = try reader.next() {
            let text = reader.withUTF8 { span in
                var bytes: [UInt8] = []
                for i in span.indices { bytes.append(span[i]) }
                return bytes
            }
            outcome.tokens.append(
                TokenRecord(
                    token: token, text: text, location: reader.location ?? SourceLocation(byteOffset: -1, line: 0, column: 0),
                    path: reader.path.description))
        }
    } catch let error as ParseError {
        outcome.error = error
    } catch {
        outcome.error = ParseError(kind: .syntax, message: "unexpected error \(error)", location: .init(byteOffset: -1, line: 0, column: 0))
    }
    return outcome
}

func readAll(_ text: String, chunkSize: Int = 65_536, options: JSONParsingOptions = .init()) -> ReadOutcome {
    readAll(Array(text.utf8), chunkSize: chunkSize, options: options)
}

func parseError(_ text: String, chunkSize: Int = 65_536, options: JSONParsingOptions = .init()) -> ParseError? {
    readAll(text, chunkSize: chunkSize, options: options).error
}
