#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decoding a whole document, for ``JSONDecodable`` and ``StreamingJSONDecoder`` alike.
enum JSONDocument {
    /// Decodes the first value of `reader` with `body` while it is being parsed (see
    /// ``DecodingContext``), then reads the rest: the value's tail and, unless multiple values
    /// are allowed, the end of the input. A small document held in memory is read to its end
    /// first (``PipelineFactory/parsesBeforeDecoding(work:source:options:)``). Invalid JSON anywhere outranks a decoding error: when
    /// decoding fails, the input is read to the end first, and a syntax error there is what is
    /// thrown.
    static func decode<T>(
        _ reader: JSONReader, expected: Any.Type, _ body: (DecodingContext, Int) throws -> T
    ) throws -> T {
        let start = reader.position
        reader.pinnedFrom = start  // the first value's tokens stay on the tape
        if reader.parsesBeforeDecoding {
            // Read whole, with the input read in place, then decoded. (Without a value, the
            // reader says why: an empty input, say.)
            reader.reserveTapeForWholeDocument()
            try reader.readingInPlace { try readRest(of: reader, valueAt: start) }
            return try decodeRoot(of: reader.tape, at: start, expected: expected, body)
        }
        guard try reader.ensureToken(at: start) else {
            try readRest(of: reader, valueAt: start)  // lets the reader say why there is no value
            return try decodeRoot(of: reader.tape, at: start, expected: expected, body)
        }
        let context = DecodingContext(tape: reader.tape, rootIndex: start, filler: reader)
        defer { context.filler = nil }
        let value: T
        do {
            value = try body(context, start)
        } catch {
            try readRest(of: reader, valueAt: start)
            throw error
        }
        try readRest(of: reader, valueAt: start)
        return value
    }

    private static func readRest(of reader: JSONReader, valueAt start: Int) throws {
        try reader.readWholeValue(at: start)
        if !reader.options.allowsMultipleValues {
            while try reader.next() != nil {}  // anything after the value is an error
        }
    }

    /// Reads the first value of an asynchronous input whole (and checks the rest); its tape and
    /// the value's first index.
    static func readWhole(_ asyncReader: AsyncJSONReader) async throws -> (TokenTape, Int) {
        let reader = asyncReader.reader
        let start = reader.position
        reader.pinnedFrom = start
        try await asyncReader.skipValue()
        if !reader.options.allowsMultipleValues {
            while try await asyncReader.next() != nil {}
        }
        return (reader.tape, start)
    }

    /// Decodes the complete value at `start` of `tape` with `body`.
    /// - Throws: a ``DecodeError`` when the input held no value.
    static func decodeRoot<T>(
        of tape: TokenTape, at start: Int, expected: Any.Type, _ body: (DecodingContext, Int) throws -> T
    ) throws -> T {
        guard tape.contains(start) else {
            throw DecodeError(code: .noValue, keyPath: .root, expected: TypeName.of(expected), message: "the input holds no JSON value")
        }
        return try body(DecodingContext(tape: tape, rootIndex: start), start)
    }
}
