/// An independent, deliberately simple decoder of one JSON string token, to check that Spool
/// never alters text. Returns nil for strings that are not valid JSON with valid UTF-16 escapes
/// and valid UTF-8.
enum ReferenceDecoder {
    static func decodeString(_ input: [UInt8], at start: Int) -> [UInt8]? {
        guard start < input.count, input[start] == UInt8(ascii: "\"") else { return nil }
        var units: [UInt16] = []  // decoded as UTF-16, then re-encoded: any bad surrogate fails
        var i = start + 1
        var raw: [UInt8] = []
        func flushRaw() -> Bool {
            guard !raw.isEmpty else { return true }
            guard let text = String(validating: raw, as: UTF8.self) else { return false }
            units.append(contentsOf: text.utf16)
            raw.removeAll()
            return true
        }
        while i < input.count {
            let c = input[i]
            if c == UInt8(ascii: "\"") {
                guard flushRaw() else { return nil }
                var scalars = String.UnicodeScalarView()
                var iterator = units.makeIterator()
                var utf16 = UTF16()
                loop: while true {
                    switch utf16.decode(&iterator) {
                    case .scalarValue(let scalar): scalars.append(scalar)
                    case .emptyInput: break loop
                    case .error: return nil
                    }
                }
                return Array(String(scalars).utf8)
            }
            if c < 0x20 { return nil }
            if c == UInt8(ascii: "\\") {
                guard flushRaw(), i + 1 < input.count else { return nil }
                let e = input[i + 1]
                i += 2
                switch e {
                case UInt8(ascii: "\""): units.append(0x22)
                case UInt8(ascii: "\\"): units.append(0x5C)
                case UInt8(ascii: "/"): units.append(0x2F)
                case UInt8(ascii: "b"): units.append(0x08)
                case UInt8(ascii: "f"): units.append(0x0C)
                case UInt8(ascii: "n"): units.append(0x0A)
                case UInt8(ascii: "r"): units.append(0x0D)
                case UInt8(ascii: "t"): units.append(0x09)
                case UInt8(ascii: "u"):
                    guard i + 4 <= input.count, let unit = UInt16(String(decoding: input[i..<i + 4], as: UTF8.self), radix: 16)
                    else { return nil }
                    units.append(unit)
                    i += 4
                default: return nil
                }
                continue
            }
            raw.append(c)
            i += 1
        }
        return nil
    }
}
