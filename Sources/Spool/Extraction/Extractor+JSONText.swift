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
        _ = try checkedToken()
        let last = try context.lastIndex(ofValueAt: index)
        var needsComma = false
        var index = self.index
        while index <= last {
            try context.ensure(index)  // throws for released tokens
            let token = tape[index]
            if needsComma && !token.isContainerEnd { bytes.append(UInt8(ascii: ",")) }
            switch token.kind {
            case .objectStart: bytes.append(UInt8(ascii: "{"))
            case .arrayStart: bytes.append(UInt8(ascii: "["))
            case .objectEnd: bytes.append(UInt8(ascii: "}"))
            case .arrayEnd: bytes.append(UInt8(ascii: "]"))
            case .key:
                Self.appendQuoted(tape.bytes(of: token), to: &bytes)
                bytes.append(UInt8(ascii: ":"))
            case .string: Self.appendQuoted(tape.bytes(of: token), to: &bytes)
            case .number: bytes.append(contentsOf: tape.bytes(of: token))
            case .true: bytes.append(contentsOf: "true".utf8)
            case .false: bytes.append(contentsOf: "false".utf8)
            case .null: bytes.append(contentsOf: "null".utf8)
            }
            needsComma = !(token.kind == .objectStart || token.kind == .arrayStart || token.kind == .key)
            index += 1
        }
    }

    private static func appendQuoted(_ text: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text {
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
            guard let escape else {
                bytes.append(byte)
                continue
            }
            bytes.append(UInt8(ascii: "\\"))
            bytes.append(escape)
            if escape == UInt8(ascii: "u") {  // \u00XX for the other control characters
                bytes.append(UInt8(ascii: "0"))
                bytes.append(UInt8(ascii: "0"))
                bytes.append(hexDigit(byte >> 4))
                bytes.append(hexDigit(byte & 0xF))
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
