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

/// Reads all of `bytes` with a reader built for `work`; `prepare` may set the reader up first
/// (and keep it, to look at it after).
func readAll(
    _ bytes: [UInt8], chunkSize: Int = 65_536, options: JSONParsingOptions = .init(), work: JSONReader.Work = .tokens,
    prepare: (JSONReader) -> Void = { _ in }
) -> ReadOutcome {
    var options = options
    options.chunkSize = chunkSize
    options.wholeDocumentThreadMinimum = 0  // (the background path for models too, at any size)
    let reader = JSONReader(.bytes(bytes), options: options, work: work)
    prepare(reader)
    return readAll(reader)
}

/// Reads every remaining token of `reader`.
func readAll(_ reader: JSONReader) -> ReadOutcome {
    var outcome = ReadOutcome()
    do {
        while let token = try reader.next() {
            outcome.tokens.append(record(token, reader))
        }
    } catch {
        outcome.error = asParseError(error)
    }
    return outcome
}

/// `error` as the ``ParseError`` a comparison of outcomes expects (any other error is
/// recorded as an unexpected one).
func asParseError(_ error: any Error) -> ParseError {
    error as? ParseError
        ?? ParseError(kind: .syntax, message: "unexpected error \(error)", location: .init(byteOffset: -1, line: 0, column: 0))
}

/// Reads all of `input`, as ``readAll(_:chunkSize:options:work:prepare:)`` reads bytes.
func readAll(_ input: JSONInput, chunkSize: Int = 65_536) -> ReadOutcome {
    var options = JSONParsingOptions()
    options.chunkSize = chunkSize
    return readAll(JSONReader(input, options: options))
}

/// Reads all of an asynchronous `input` through an ``AsyncJSONReader``.
func readAll(_ input: AsyncJSONInput, chunkSize: Int = 65_536) async -> ReadOutcome {
    var options = JSONParsingOptions()
    options.chunkSize = chunkSize
    let reader = AsyncJSONReader(input, options: options)
    var outcome = ReadOutcome()
    do {
        while let token = try await reader.next() {
            outcome.tokens.append(record(token, reader.reader))
        }
    } catch {
        outcome.error = asParseError(error)
    }
    return outcome
}

/// Reads all of `bytes` through an incremental reader, appending pieces of the given sizes
/// and reading every token after each (or, with `drainingBetween` false, only at the end).
func pushAll(
    _ bytes: [UInt8], pieces: [Int], options: JSONParsingOptions = .init(), drainingBetween: Bool = true
) -> ReadOutcome {
    let reader = JSONReader.incremental(options: options)
    var outcome = ReadOutcome()
    func drain() throws {
        while let token = try reader.next() {
            outcome.tokens.append(record(token, reader))
        }
    }
    do {
        var offset = 0
        for size in pieces {
            let end = min(bytes.count, offset + size)
            try reader.append(bytes[offset..<end])
            if drainingBetween { try drain() }
            offset = end
        }
        try reader.finishInput()
        try drain()
    } catch {
        outcome.error = asParseError(error)
    }
    return outcome
}

/// The record of the reader's current token.
func record(_ token: JSONToken, _ reader: JSONReader) -> TokenRecord {
    let text = reader.withUTF8 { span in
        var bytes: [UInt8] = []
        for i in span.indices { bytes.append(span[i]) }
        return bytes
    }
    return TokenRecord(
        token: token, text: text, location: reader.location ?? SourceLocation(byteOffset: -1, line: 0, column: 0),
        path: reader.path.description)
}

func readAll(_ text: String, chunkSize: Int = 65_536, options: JSONParsingOptions = .init()) -> ReadOutcome {
    readAll(Array(text.utf8), chunkSize: chunkSize, options: options)
}

func parseError(_ text: String, chunkSize: Int = 65_536, options: JSONParsingOptions = .init()) -> ParseError? {
    readAll(text, chunkSize: chunkSize, options: options).error
}
