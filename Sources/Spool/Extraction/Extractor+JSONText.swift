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
    /// never held twice: appends to `bytes` and, once they have reached `threshold` bytes, calls
    /// `flush`, which writes them out and empties them (the text goes to `bytes` a few KiB at a
    /// time, so they hold at most that much beyond `threshold`). The text is the same as
    /// ``writeCompactJSON(into:)``'s.
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
        let tape = self.tape
        let first = index
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: CompactWriter.capacity) { scratch in
            var out = CompactWriter(scratch.baseAddress!)
            // Moves the text written so far to `bytes`, and out once they reach the threshold.
            func spill() throws {
                bytes.append(contentsOf: UnsafeBufferPointer(start: out.start, count: out.count))
                out.count = 0
                if bytes.count >= threshold { try flush(&bytes) }
            }
            var needsComma = false
            var index = first
            while index <= last {
                let token = tape[index]
                if out.free < 8 { try spill() }
                if needsComma && !token.isContainerEnd { out.put(UInt8(ascii: ",")) }
                switch token.kind {
                case .objectStart: out.put(UInt8(ascii: "{"))
                case .arrayStart: out.put(UInt8(ascii: "["))
                case .objectEnd: out.put(UInt8(ascii: "}"))
                case .arrayEnd: out.put(UInt8(ascii: "]"))
                case .key, .string:
                    var text = tape.bytes(of: token)
                    out.put(UInt8(ascii: "\""))
                    // Each byte takes up to 6 (`\u00XX`); long text goes in slices.
                    while 6 * text.count + 2 > out.free {
                        let slice = (out.free - 2) / 6
                        if slice >= 64 || slice >= text.count {
                            out.putEscaped(UnsafeBufferPointer(rebasing: text.prefix(slice)))
                            text = UnsafeBufferPointer(rebasing: text.dropFirst(slice))
                        }
                        try spill()
                    }
                    out.putEscaped(text)
                    out.put(UInt8(ascii: "\""))
                    if token.kind == .key { out.put(UInt8(ascii: ":")) }
                case .number:
                    var text = tape.bytes(of: token)
                    while text.count > out.free {
                        let slice = out.free
                        out.put(UnsafeBufferPointer(rebasing: text.prefix(slice)))
                        text = UnsafeBufferPointer(rebasing: text.dropFirst(slice))
                        try spill()
                    }
                    out.put(text)
                case .true: out.put("true")
                case .false: out.put("false")
                case .null: out.put("null")
                }
                needsComma = !(token.kind == .objectStart || token.kind == .arrayStart || token.kind == .key)
                index += 1
            }
            try spill()
        }
    }
}

/// Compact JSON text written into a small scratch buffer, byte by byte without the checks of
/// appending to an array; ``Extractor/writeCompactJSON(into:flushingAt:_:)`` moves it on.
private struct CompactWriter {
    static let capacity = 4096

    let start: UnsafeMutablePointer<UInt8>
    var count = 0

    init(_ start: UnsafeMutablePointer<UInt8>) { self.start = start }

    var free: Int { CompactWriter.capacity &- count }

    @inline(__always)
    mutating func put(_ byte: UInt8) {
        start[count] = byte
        count &+= 1
    }

    /// Copies `text` (which fits).
    @inline(__always)
    mutating func put(_ text: UnsafeBufferPointer<UInt8>) {
        guard let source = text.baseAddress else { return }
        (start + count).update(from: source, count: text.count)
        count &+= text.count
    }

    @inline(__always)
    mutating func put(_ literal: StaticString) {
        put(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Copies `text` with `"`, `\` and control characters escaped (room for 6 bytes each);
    /// 8 bytes at a time while none needs it.
    @inline(__always)
    mutating func putEscaped(_ text: UnsafeBufferPointer<UInt8>) {
        guard let source = text.baseAddress else { return }
        let n = text.count
        var i = 0
        while i < n {
            if i &+ 8 <= n {
                let word = UnsafeRawPointer(source + i).loadUnaligned(as: UInt64.self)
                let quotes = word ^ 0x2222_2222_2222_2222
                let backslashes = word ^ 0x5C5C_5C5C_5C5C_5C5C
                let flagged =
                    (word &- 0x2020_2020_2020_2020) & ~word
                    | (quotes &- 0x0101_0101_0101_0101) & ~quotes
                    | (backslashes &- 0x0101_0101_0101_0101) & ~backslashes
                if flagged & 0x8080_8080_8080_8080 == 0 {
                    UnsafeMutableRawPointer(start + count).storeBytes(of: word, as: UInt64.self)
                    count &+= 8
                    i &+= 8
                    continue
                }
            }
            let byte = source[i]
            if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                put(byte)
            } else {
                putEscape(byte)
            }
            i &+= 1
        }
    }

    /// The escape for `"`, `\` or a control character.
    @inline(never)
    mutating func putEscape(_ byte: UInt8) {
        put(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): put(byte)
        case 0x0A: put(UInt8(ascii: "n"))
        case 0x0D: put(UInt8(ascii: "r"))
        case 0x09: put(UInt8(ascii: "t"))
        case 0x08: put(UInt8(ascii: "b"))
        case 0x0C: put(UInt8(ascii: "f"))
        default:  // \u00XX for the other control characters
            put("u00")
            put(CompactWriter.hexDigit(byte >> 4))
            put(CompactWriter.hexDigit(byte & 0xF))
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
