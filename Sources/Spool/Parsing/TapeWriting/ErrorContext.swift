/// The ``TapeWriter``'s error, from the moment a handler finds it until it is rendered: the
/// first problem found (a ``PendingError``; the parse stops there), and what rendering it
/// shows of the input: an excerpt of the line, and a short description of the offending token.
///
/// Handlers find errors while yajl reads from the input window, which cannot grow then; the
/// tape builder renders the error (``TapeWriter/makeError(_:)``) once yajl has returned and the
/// window holds a little of the input after it, so the message and excerpt do not depend on
/// the chunk size.
struct ErrorContext {
    /// The first problem found, not yet rendered.
    var pending: PendingError?

    /// How many bytes an excerpt shows at most on each side of its offset.
    static let excerptReach = 35

    /// The line around `offset` (which starts at `lineStart` or later), as far as the window
    /// still holds it (about ``excerptReach`` bytes each side); the caret's position in it, in
    /// characters.
    static func excerpt(around offset: Int, lineStart: Int, in window: InputWindow) -> (String, Int) {
        var low = max(window.base, lineStart, offset - excerptReach)
        // Start on a character, not inside one.
        while low < min(offset, window.end) && window[low] & 0xC0 == 0x80 { low += 1 }
        var high = min(offset, window.end)
        while high < window.end && high < offset + excerptReach && window[high] != 0x0A && window[high] != 0x0D { high += 1 }
        // End on a character, not inside one.
        while high > offset && high < window.end && window[high] & 0xC0 == 0x80 { high -= 1 }
        guard low <= high, low <= min(offset, window.end) else { return ("", 0) }
        var text = ""
        var caret = 0
        var bytes: [UInt8] = []
        for p in low..<high { bytes.append(window[p]) }
        let before = min(offset, window.end) - low
        // Decode leniently; count the characters before the offset for the caret.
        caret = String(decoding: bytes[0..<before], as: UTF8.self).count
        text = String(decoding: bytes, as: UTF8.self)
        text = String(text.map { $0.isASCII && ($0.asciiValue ?? 0x20) < 0x20 ? " " : $0 })
        if offset >= window.end && text.isEmpty { return ("", 0) }
        return (text, caret)
    }

    /// Whether the byte at an absolute offset starts a JSON value: `{`, `[`, `"`, a digit, `-`,
    /// or the first letter of `true`, `false` or `null`.
    static func startsValue(at offset: Int, in window: InputWindow) -> Bool {
        guard offset >= window.base, offset < window.end else { return false }
        switch window[offset] {
        case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            return true
        default:
            return false
        }
    }

    /// A short description of the token or byte at an absolute offset, for "found X".
    static func describeToken(at offset: Int, in window: InputWindow) -> String {
        guard offset >= window.base, offset < window.end else { return "end of input" }
        let c = window[offset]
        switch c {
        case UInt8(ascii: "\""): return "a string"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return "a number"
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
            var end = offset
            while end < window.end && end - offset < 16 {
                let b = window[end]
                guard (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
                else { break }
                end += 1
            }
            var word = ""
            for p in offset..<end { word.unicodeScalars.append(Unicode.Scalar(window[p])) }
            return "'\(word)'"
        case 0x21...0x7E: return "'\(Character(Unicode.Scalar(c)))'"
        case 0x09: return "a tab"
        case 0x0A: return "a line feed"
        case 0x0D: return "a carriage return"
        default:
            return "byte 0x\(StringChecks.hexByte(c))"
        }
    }
}
