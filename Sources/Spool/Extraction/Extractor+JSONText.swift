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
    /// `flush`, which writes them out and empties them (the text goes to `bytes` a KiB at a
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
        if last == first {
            // A lone number or literal: its text as it is.
            let token = tape[first]
            switch token.kind {
            case .number: bytes.append(contentsOf: tape.bytes(of: token))
            case .true: bytes.append(contentsOf: "true".utf8)
            case .false: bytes.append(contentsOf: "false".utf8)
            case .null: bytes.append(contentsOf: "null".utf8)
            default: break
            }
            if token.kind != .string {
                if bytes.count >= threshold { try flush(&bytes) }
                return
            }
        }
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: CompactWriter.capacity) { scratch in
            var out = CompactWriter(scratch.baseAddress!)
            try out.write(tape, from: first, through: last, into: &bytes, flushingAt: threshold, flush)
        }
    }
}

/// Compact JSON text written into a small scratch buffer, byte by byte without the checks of
/// appending to an array; ``Extractor/writeCompactJSON(into:flushingAt:_:)`` moves it on.
private struct CompactWriter {
    static let capacity = 1024  // (on the stack: withUnsafeTemporaryAllocation takes larger ones from the heap)

    let start: UnsafeMutablePointer<UInt8>
    var count = 0

    init(_ start: UnsafeMutablePointer<UInt8>) { self.start = start }

    /// Writes the tokens `first ... last` (a whole value) of `tape` (see
    /// ``Extractor/writeCompactJSON(into:flushingAt:_:)``).
    mutating func write(
        _ tape: TokenTape, from first: Int, through last: Int, into bytes: inout [UInt8], flushingAt threshold: Int,
        _ flush: (inout [UInt8]) throws -> Void
    ) throws {
        var needsComma = false
        var index = first
        while index <= last {
            let token = tape[index]
            if free < 8 { try spill(into: &bytes, flushingAt: threshold, flush) }
            if needsComma && !token.isContainerEnd { put(UInt8(ascii: ",")) }
            switch token.kind {
            case .objectStart: put(UInt8(ascii: "{"))
            case .arrayStart: put(UInt8(ascii: "["))
            case .objectEnd: put(UInt8(ascii: "}"))
            case .arrayEnd: put(UInt8(ascii: "]"))
            case .key, .string:
                var text = tape.bytes(of: token)
                put(UInt8(ascii: "\""))
                // Each byte takes up to 6 (`\u00XX`); long text goes in slices.
                while 6 * text.count + 2 > free {
                    let slice = (free - 2) / 6
                    if slice >= 64 {
                        putEscaped(UnsafeBufferPointer(rebasing: text.prefix(slice)))
                        text = UnsafeBufferPointer(rebasing: text.dropFirst(slice))
                    }
                    try spill(into: &bytes, flushingAt: threshold, flush)
                }
                putEscaped(text)
                put(UInt8(ascii: "\""))
                if token.kind == .key { put(UInt8(ascii: ":")) }
            case .number:
                var text = tape.bytes(of: token)
                while text.count > free {
                    let slice = free
                    put(UnsafeBufferPointer(rebasing: text.prefix(slice)))
                    text = UnsafeBufferPointer(rebasing: text.dropFirst(slice))
                    try spill(into: &bytes, flushingAt: threshold, flush)
                }
                put(text)
            case .true: put("true")
            case .false: put("false")
            case .null: put("null")
            }
            needsComma = !(token.kind == .objectStart || token.kind == .arrayStart || token.kind == .key)
            index &+= 1
        }
        try spill(into: &bytes, flushingAt: threshold, flush)
    }

    /// Moves the text written so far to `bytes`, and out once they reach the threshold.
    mutating func spill(into bytes: inout [UInt8], flushingAt threshold: Int, _ flush: (inout [UInt8]) throws -> Void) throws {
        bytes.append(contentsOf: UnsafeBufferPointer(start: start, count: count))
        count = 0
        if bytes.count >= threshold { try flush(&bytes) }
    }

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
