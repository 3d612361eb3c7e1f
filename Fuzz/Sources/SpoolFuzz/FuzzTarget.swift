import Spool

#if canImport(Glibc)
import Glibc
#endif

/// Differential fuzzing of Spool. The first byte picks the options and a small chunk size;
/// the rest is the JSON text. Any disagreement aborts, which libFuzzer records as a crash:
/// - whole-buffer parsing on the reader's thread vs tiny chunks parsed on a background thread,
///   and vs tiny pieces appended to an incremental reader: the same tokens (kind, text,
///   location, path) and the same error;
/// - `skipToEnd()` (lean validation, and in 64 KiB chunks its shortcut) vs the cursor: the same
///   error, or none;
/// - a valid document, written back with `compactJSON()` and parsed again: the same value.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let flags = data[0]
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    var options = JSONParsingOptions()
    options.allowsComments = flags & 1 != 0
    options.allowsMultipleValues = flags & 2 != 0
    options.allowsTrailingGarbage = flags & 0x80 != 0
    options.maxDepth = 64
    options.maxStringLength = 300
    options.maxNumberLength = 40
    let smallChunk = Int(flags >> 2) % 7 + 1

    func read(chunkSize: Int, inBackground: Bool) -> (tokens: [String], error: String?) {
        var runOptions = options
        runOptions.chunkSize = chunkSize
        runOptions.parsesInBackground = inBackground
        let reader = JSONReader(.bytes(bytes), options: runOptions)
        var tokens: [String] = []
        do {
            while let token = try reader.next() {
                tokens.append("\(token)|\(reader.text ?? "")|\(reader.location?.description ?? "?")|\(reader.path)")
            }
        } catch {
            return (tokens, "\(error)")
        }
        return (tokens, nil)
    }

    /// Appends `bytes` to an incremental reader in pieces of `size`, reading after each.
    func push(pieces size: Int) -> (tokens: [String], error: String?) {
        let reader = JSONReader.incremental(options: options)
        var tokens: [String] = []
        func drain() throws {
            while let token = try reader.next() {
                tokens.append("\(token)|\(reader.text ?? "")|\(reader.location?.description ?? "?")|\(reader.path)")
            }
        }
        do {
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + size)
                try reader.append(bytes[offset..<end])
                try drain()
                offset = end
            }
            try reader.finishInput()
            try drain()
        } catch {
            return (tokens, "\(error)")
        }
        return (tokens, nil)
    }

    let whole = read(chunkSize: 65_536, inBackground: false)
    let chunked = read(chunkSize: smallChunk, inBackground: true)
    guard whole.tokens == chunked.tokens, whole.error == chunked.error else {
        report("chunked reading differs", whole, chunked)
        abort()
    }
    let pushed = push(pieces: smallChunk)
    guard whole.tokens == pushed.tokens, whole.error == pushed.error else {
        report("incremental reading differs", whole, pushed)
        abort()
    }

    // `skipToEnd()` in small chunks (lean validation) and in 64 KiB chunks (where it first
    // tries its shortcut: yajl's grammar and a raw-byte scan, the full engine again at any
    // doubt): the same verdict and the same error as the cursor.
    for chunkSize in [smallChunk, 65_536] {
        var validationOptions = options
        validationOptions.chunkSize = chunkSize
        var validationError: String?
        do {
            try JSONReader(.bytes(bytes), options: validationOptions).skipToEnd()
        } catch {
            validationError = "\(error)"
        }
        guard validationError == whole.error else {
            report("validation in \(chunkSize)-byte chunks differs: \(validationError ?? "valid")", whole, chunked)
            abort()
        }
    }

    if whole.error == nil && !options.allowsMultipleValues,
        let value = try? JSONValue.decodeValue(from: .bytes(bytes), options: options),
        let text = try? Extractor.decodeValue(from: .bytes(bytes), options: options).compactJSON()
    {
        var strict = JSONParsingOptions()
        strict.maxDepth = 64
        guard let again = try? JSONValue.decodeValue(from: .string(text), options: strict), again == value else {
            report("round trip differs: \(text)", whole, chunked)
            abort()
        }
    }
    return 0
}

private func report(_ what: String, _ whole: (tokens: [String], error: String?), _ chunked: (tokens: [String], error: String?)) {
    var text = "\(what)\nwhole: \(whole.tokens.count) tokens, \(whole.error ?? "no error")\n"
    text += "chunked: \(chunked.tokens.count) tokens, \(chunked.error ?? "no error")\n"
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}
