/// Copies the tokens a stream passes outside its streamed elements onto a small tape of its
/// own, so the document's other values (a catalog's `last_updated`) can be read afterwards.
final class RemainderRecorder {
    let tape = TokenTape(tokenCapacity: 256, arenaCapacity: 4096)
    private var open: [(index: Int, children: Int, isObject: Bool)] = []
    /// The reader's depth inside the streamed array (or the outermost array a wildcard
    /// crosses), while its elements are being handed out: nothing inside it is recorded.
    var streamedArrayDepth: Int?
    /// False once the first top-level value has been recorded, when a stream goes on to the
    /// next values of an NDJSON input: the remainder is the first value's, and memory stays
    /// bounded however many values follow.
    var isRecording = true

    /// Appends the reader's current token.
    func record(from reader: JSONReader) {
        guard isRecording, streamedArrayDepth == nil, let token = reader.currentToken else { return }
        tape.textIsValidUTF8 = reader.tape.textIsValidUTF8
        let line = reader.tape.line(of: token)
        tape.noteLine(line.line, startingAt: line.offset)
        var copy = token
        if token.hasText {
            let bytes = reader.tape.bytes(of: token)
            copy.payload = tape.appendBytes(bytes.baseAddress, count: bytes.count)
        }
        if let last = open.indices.last {
            // Objects count their members (keys), arrays their elements.
            if open[last].isObject ? token.kind == .key : token.publicKind.startsValue { open[last].children += 1 }
        }
        switch token.kind {
        case .objectStart, .arrayStart:
            copy.payload = -1
            open.append((tape.append(copy), 0, token.kind == .objectStart))
        case .objectEnd, .arrayEnd:
            guard let (start, children, _) = open.popLast() else { return }
            copy.payload = start
            copy.length = UInt32(truncatingIfNeeded: children)
            tape.close(start, end: tape.append(copy), children: children)
        default:
            tape.append(copy)
        }
    }

    /// Records the end token of the streamed array (or object), the reader's current token:
    /// the stream is back in the document around it.
    func recordStreamedEnd(from reader: JSONReader) {
        streamedArrayDepth = nil
        record(from: reader)
    }

    /// The recorded document, once the rest of the input has been read.
    func finish() throws -> Extractor {
        guard tape.count > 0 else {
            throw DecodeError(code: .noValue, keyPath: .root, message: "the input holds no JSON value")
        }
        return Extractor(context: DecodingContext(tape: tape, rootIndex: tape.base), index: tape.base)
    }
}
