extension Extractor {
    /// This value as compact JSON text: no whitespace, numbers exactly as written, strings
    /// re-escaped (`"`, `\`, control characters; everything else as UTF-8).
    public func compactJSON() throws -> String {
        var bytes: [UInt8] = []
        try writeCompactJSON(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends this value as compact JSON text to `bytes`.
    public func writeCompactJSON(into bytes: inout [UInt8]) throws {
        try writeCompactJSON(into: &bytes, flushingAt: .max) { _ in }
    }

    /// Writes this value as compact JSON text in pieces, so that a value of many megabytes is
    /// never held twice: appends to `bytes` and, whenever they reach `threshold` bytes (between
    /// tokens, and every `threshold` bytes of a long string), calls `flush`, which writes them
    /// out and empties them. The text is the same as ``writeCompactJSON(into:)``'s.
    ///
    /// Everything that can go wrong with the value itself (a stale extractor, input that ends
    /// or fails inside the value, released elements) throws before `flush` is first called:
    /// the whole value is on the tape before writing starts. After that, only `flush` throws.
    public func writeCompactJSON(
        into bytes: inout [UInt8], flushingAt threshold: Int, _ flush: (inout [UInt8]) throws -> Void
    ) throws {
        _ = try checkedToken()
        let last = try context.lastIndex(ofValueAt: index)
        if tape.gapLength > 0 && tape.gapStart <= last && tape.gapStart &+ tape.gapLength > index {
            throw context.releasedError()
        }
        var needsComma = false
        var index = self.index
        while index <= last {
            try context.ensure(index)  // (cannot fail: the whole value is on the tape)
            let token = tape[index]
            if needsComma && !token.isContainerEnd { bytes.append(UInt8(ascii: ",")) }
            switch token.kind {
            case .objectStart: bytes.append(UInt8(ascii: "{"))
            case .arrayStart: bytes.append(UInt8(ascii: "["))
            case .objectEnd: bytes.append(UInt8(ascii: "}"))
            case .arrayEnd: bytes.append(UInt8(ascii: "]"))
            case .key:
                try Self.appendQuoted(tape.bytes(of: token), to: &bytes, flushingAt: threshold, flush)
                bytes.append(UInt8(ascii: ":"))
            case .string: try Self.appendQuoted(tape.bytes(of: token), to: &bytes, flushingAt: threshold, flush)
            case .number: bytes.append(contentsOf: tape.bytes(of: token))
            case .true: bytes.append(contentsOf: "true".utf8)
            case .false: bytes.append(contentsOf: "false".utf8)
            case .null: bytes.append(contentsOf: "null".utf8)
            }
            needsComma = !(token.kind == .objectStart || token.kind == .arrayStart || token.kind == .key)
            index += 1
            if bytes.count >= threshold { try flush(&bytes) }
        }
    }

    /// Appends `text` quoted and escaped, in pieces of `threshold` bytes of text, flushing
    /// between them.
    private static func appendQuoted(
        _ text: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8], flushingAt threshold: Int,
        _ flush: (inout [UInt8]) throws -> Void
    ) throws {
        bytes.append(UInt8(ascii: "\""))
        let piece = max(1, threshold)
        var start = 0
        while text.count - start > piece {
            appendEscaped(UnsafeBufferPointer(rebasing: text[start..<start + piece]), to: &bytes)
            start += piece
            if bytes.count >= threshold { try flush(&bytes) }
        }
        appendEscaped(UnsafeBufferPointer(rebasing: text[start...]), to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends `text` with `"`, `\` and control characters escaped: runs that need no escape
    /// are copied whole.
    private static func appendEscaped(_ text: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        var runStart = 0
        for (i, byte) in text.enumerated() {
            let escape: UInt8? =
                switch byte {
                case UInt8(ascii: "\""): UInt8(ascii: "\"")
                case UInt8(ascii: "\\"): UInt8(ascii: "\\")
                case 0x0A: UInt8(ascii: "n")
                case 0x0D: UInt8(ascii: "r")
                case 0x09: UInt8(ascii: "t")
                case 0x08: UInt8(ascii: "b")
                case 0x0C: UInt8(ascii: "f")
                case 0x00..<0x20: UInt8(ascii: "u")
                default: nil
                }
            guard let escape else { continue }
            if i > runStart { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart..<i])) }
            runStart = i + 1
            bytes.append(UInt8(ascii: "\\"))
            bytes.append(escape)
            if escape == UInt8(ascii: "u") {  // \u00XX for the other control characters
                bytes.append(UInt8(ascii: "0"))
                bytes.append(UInt8(ascii: "0"))
                bytes.append(hexDigit(byte >> 4))
                bytes.append(hexDigit(byte & 0xF))
            }
        }
        if text.count > runStart { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart...])) }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
