/// Strict checks of a string token's raw source text (between its quotes), for what yajl does
/// not check: UTF-8 (yajl is not asked to, ``YajlHandle``; its own check would let overlong
/// UTF-8, encoded surrogates and code points above U+10FFFF through), and `\u` escapes that do
/// not form valid UTF-16 (yajl turns `"\ud800\u0041"` into U+10041 and a lone surrogate into
/// `?`). One pass; runs of plain ASCII are skipped 8 bytes at a time.
enum StringChecks {
    struct Failure {
        /// Index into the raw text of the offending byte or escape.
        var index: Int
        var message: String
    }

    /// Whether every byte is below 0x80, checked 8 bytes at a time.
    @inline(__always)
    static func isASCII(_ raw: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = raw.baseAddress else { return true }
        let count = raw.count
        let raw8 = UnsafeRawPointer(start)
        if count >= 8 && count <= 16 {
            // Two overlapping words: most keys and short strings.
            let word = raw8.loadUnaligned(as: UInt64.self) | raw8.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            return word & 0x8080_8080_8080_8080 == 0
        }
        if count > 16 {
            var i = 0
            var bits: UInt64 = 0
            while i + 8 <= count {
                bits |= raw8.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                i += 8
            }
            bits |= raw8.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            return bits & 0x8080_8080_8080_8080 == 0
        }
        if count >= 4 {
            // Two overlapping 4-byte loads cover 4 to 7 bytes.
            let word = raw8.loadUnaligned(as: UInt32.self) | raw8.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
            return word & 0x8080_8080 == 0
        }
        var bits: UInt8 = 0
        for i in 0..<count { bits |= start[i] }
        return bits & 0x80 == 0
    }

    /// Returns the first problem in `raw` (the bytes between the quotes), or `nil`.
    static func check(_ raw: UnsafeBufferPointer<UInt8>, validateUTF8: Bool) -> Failure? {
        guard let start = raw.baseAddress else { return nil }
        let count = raw.count
        var i = 0
        while i < count {
            // Fast path: 8 bytes with no high bit and no backslash.
            if i + 8 <= count {
                let word = UnsafeRawPointer(start + i).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 == 0 && !hasByte(word, 0x5C) {
                    i += 8
                    continue
                }
            }
            let byte = start[i]
            if byte < 0x80 {
                if byte == UInt8(ascii: "\\") {
                    if let failure = checkEscape(start, count, &i) { return failure }
                } else {
                    i += 1
                }
                continue
            }
            guard validateUTF8 else {
                i += 1
                continue
            }
            // The common sequences checked in place: two bytes, and three bytes outside the
            // leads with a narrower second byte (E0, ED); the rest, and every failure, out of
            // line (a call per character cost CJK text about 25 instructions a character).
            if byte >= 0xC2 && byte <= 0xDF {
                if i &+ 1 < count && start[i &+ 1] & 0xC0 == 0x80 {
                    i &+= 2
                    continue
                }
            } else if byte >= 0xE1 && byte <= 0xEF && byte != 0xED {
                if i &+ 2 < count && start[i &+ 1] & 0xC0 == 0x80 && start[i &+ 2] & 0xC0 == 0x80 {
                    i &+= 3
                    continue
                }
            }
            if let failure = checkUTF8Sequence(start, count, &i) { return failure }
        }
        return nil
    }

    @inline(__always)
    private static func hasByte(_ word: UInt64, _ byte: UInt8) -> Bool {
        let x = word ^ (0x0101_0101_0101_0101 &* UInt64(byte))
        return (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080 != 0
    }

    /// At a backslash: skips the escape; checks `\u` escapes for valid surrogate pairs.
    static func checkEscape(_ p: UnsafePointer<UInt8>, _ count: Int, _ i: inout Int) -> Failure? {
        guard i + 1 < count else {
            i = count
            return nil
        }
        guard p[i + 1] == UInt8(ascii: "u") else {
            i += 2
            return nil
        }
        guard let unit = hex4(p, count, i + 2) else {
            i += 2  // yajl reports malformed escapes itself
            return nil
        }
        switch unit {
        case 0xD800...0xDBFF:
            if i + 12 <= count, p[i + 6] == UInt8(ascii: "\\"), p[i + 7] == UInt8(ascii: "u"),
                let low = hex4(p, count, i + 8), (0xDC00...0xDFFF).contains(low)
            {
                i += 12
                return nil
            }
            return Failure(
                index: i,
                message: "invalid \\u escape: high surrogate \\u\(hexText(unit)) is not followed by a low surrogate")
        case 0xDC00...0xDFFF:
            return Failure(
                index: i,
                message: "invalid \\u escape: low surrogate \\u\(hexText(unit)) without a high surrogate before it")
        default:
            i += 6
            return nil
        }
    }

    private static func hex4(_ p: UnsafePointer<UInt8>, _ count: Int, _ at: Int) -> UInt32? {
        guard at + 4 <= count else { return nil }
        var value: UInt32 = 0
        for k in 0..<4 {
            let c = p[at + k]
            let digit: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = c - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private static func hexText(_ unit: UInt32) -> String {
        let digits = String(unit, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// How many bytes the UTF-8 sequence that starts with `lead` takes: 1 for a byte that cannot
    /// start one (``checkUTF8Sequence(_:_:_:)`` rejects it without looking further).
    @inline(__always)
    static func sequenceLength(lead: UInt8) -> Int {
        switch lead {
        case 0xC2...0xDF: return 2
        case 0xE0...0xEF: return 3
        case 0xF0...0xF4: return 4
        default: return 1
        }
    }

    /// The first sequence in `raw` that is not strict UTF-8, looking only at bytes above 0x7F;
    /// a sequence cut by the end of `raw` is not judged (the bytes after it are not in view).
    /// For the part of a string before an error yajl reports in it, since yajl does not check
    /// UTF-8 for Spool (``YajlHandle``).
    static func firstInvalidUTF8(_ raw: UnsafeBufferPointer<UInt8>) -> Failure? {
        guard let start = raw.baseAddress else { return nil }
        let count = raw.count
        var i = 0
        while i < count {
            if start[i] < 0x80 {
                i &+= 1
                continue
            }
            if i &+ sequenceLength(lead: start[i]) > count {
                // Cut by the end of the bytes in view: judge only the continuation bytes there.
                var k = i &+ 1
                while k < count {
                    if start[k] & 0xC0 != 0x80 {
                        return Failure(index: i, message: "invalid UTF-8 in string: bad continuation byte")
                    }
                    k &+= 1
                }
                return nil
            }
            if let failure = checkUTF8Sequence(start, count, &i) { return failure }
        }
        return nil
    }

    /// At a byte >= 0x80: checks one UTF-8 sequence strictly (RFC 3629) and skips it.
    static func checkUTF8Sequence(_ p: UnsafePointer<UInt8>, _ count: Int, _ i: inout Int) -> Failure? {
        let lead = p[i]
        let length = sequenceLength(lead: lead)
        if length == 1 {
            let what = lead == 0xC0 || lead == 0xC1 ? "overlong encoding (byte 0x\(hexByte(lead)))" : "unexpected byte 0x\(hexByte(lead))"
            return Failure(index: i, message: "invalid UTF-8 in string: \(what)")
        }
        // The second byte's range, narrower after these leads (RFC 3629).
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        switch lead {
        case 0xE0: lower = 0xA0
        case 0xED: upper = 0x9F
        case 0xF0: lower = 0x90
        case 0xF4: upper = 0x8F
        default: break
        }
        guard i + length <= count else {
            return Failure(index: i, message: "invalid UTF-8 in string: truncated sequence")
        }
        let second = p[i + 1]
        if second < lower || second > upper {
            if second >= 0x80 && second <= 0xBF {
                let what: String
                switch lead {
                case 0xED: what = "encoded UTF-16 surrogate"
                case 0xF4: what = "code point above U+10FFFF"
                default: what = "overlong encoding"
                }
                return Failure(index: i, message: "invalid UTF-8 in string: \(what)")
            }
            return Failure(index: i, message: "invalid UTF-8 in string: bad continuation byte")
        }
        var k = 2
        while k < length {
            if p[i + k] & 0xC0 != 0x80 {
                return Failure(index: i, message: "invalid UTF-8 in string: bad continuation byte")
            }
            k += 1
        }
        i += length
        return nil
    }

    /// Two uppercase hexadecimal digits, as messages show a byte.
    static func hexByte(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }

    /// Decodes the escapes of a string's raw text (already checked valid), for error paths.
    static func unescape(_ raw: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = 0
        while i < raw.count {
            let c = raw[i]
            guard c == UInt8(ascii: "\\"), i + 1 < raw.count else {
                out.append(c)
                i += 1
                continue
            }
            let e = raw[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                guard let base = raw.baseAddress, var unit = hex4(base, raw.count, i) else { continue }
                i += 4
                if (0xD800...0xDBFF).contains(unit), i + 6 <= raw.count, raw[i] == UInt8(ascii: "\\"),
                    let low = hex4(base, raw.count, i + 2), (0xDC00...0xDFFF).contains(low)
                {
                    unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                }
                if let scalar = Unicode.Scalar(unit) {
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                }
            default: out.append(e)
            }
        }
        return out
    }
}
