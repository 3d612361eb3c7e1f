#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a call to yajl may end so that yajl never takes a long string in pieces.
///
/// yajl copies a token that spans calls into a buffer of its own, byte for byte, and keeps
/// that buffer for good: a string of 20 MB handed over in chunks was held three times (the
/// input window, yajl's buffer, the tape). So a string is handed to yajl only with its
/// closing quote: while its end has not arrived, the call stops before it, and yajl later
/// takes it whole from the window (where the engine keeps it anyway, to check its raw text),
/// calling back with a pointer into it. yajl also copies the *first* token of every call
/// (its lexer is left "buffering" by the end of the call before), so the call stops before the
/// `,`, `:`, `[` or `{` in front of the string, and the next one starts with that one byte.
///
/// Which quotes open strings is known without following every string: the engine knows the
/// state where the bytes given to yajl end (between tokens, or inside the string yajl is
/// holding), and looks back from the end of the new bytes at their last quotes. A call may end
/// at a quote whose string (if it is a closing one) started less than ``shortGap`` bytes
/// before; past longer stretches without quotes it moves back, ending at the first quote after
/// the parsed bytes if need be (which opens a string). A string cut at its closing quote is
/// completed by the next call, at once. Only memory and the number of calls depend on where
/// calls end: yajl is incremental, and the engine gives the same tokens and errors for any
/// chunking.
///
/// A held string is looked at once, as it arrives, for anything yajl could reject inside it
/// (a control character, a bad escape): then it is handed over at once, as before, so that
/// errors come as early as they did. So does a string over the length limit, for the engine's
/// error. UTF-8 is not yajl's to check (``YajlHandle``): the engine checks it once the string
/// is whole, or before an error found later in it (``TapeBuilder/earlierInvalidUTF8(inStringAt:before:)``).
struct StringHoldBack {
    /// A string cut by a call is at most this long (and then completed by the next call).
    static let shortGap = 1 << 16

    /// The held string's opening quote (absolute offset), or -1.
    private var heldStart = -1
    /// How far the held string has been looked at.
    private var heldScanned = 0
    /// The quotes of the last look back (descending) and the end it looked back from.
    private var quotes: [Int] = []
    private var quotesEnd = -1

    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")

    /// The token yajl holds unfinished where the parsed bytes end.
    enum Pending {
        case none
        /// A string whose opening quote is at this absolute offset.
        case string(start: Int)
        /// A number or a literal.
        case scalar
        case comment

        /// What the token starting at `start` in `window` is.
        init(start: Int?, in window: InputWindow) {
            guard let start else {
                self = .none
                return
            }
            guard start >= window.base else {
                self = .comment  // (not reached) unknown: no holding back
                return
            }
            switch window[start] {
            case StringHoldBack.quote: self = .string(start: start)
            case UInt8(ascii: "/"): self = .comment
            default: self = .scalar
            }
        }
    }

    /// How far the next call to yajl may go, given the bytes `parsedEnd ..< end` not yet parsed
    /// and the token yajl holds unfinished: `end`, or less to hold a string back; `parsedEnd`
    /// when nothing should be parsed now.
    mutating func callEnd(
        in window: InputWindow, parsedEnd: Int, end: Int, pending: Pending, maxStringLength: Int
    ) -> Int {
        guard end > parsedEnd else { return end }
        var from = parsedEnd  // the parse is outside strings here
        switch pending {
        case .string(let start):
            // yajl holds the start of a string; a call cut it at its closing quote, so that is
            // usually the next byte.
            guard let closing = closingQuote(in: window, from: parsedEnd, to: end, contentStart: start + 1) else {
                return end  // (a string begun otherwise: no help now)
            }
            from = closing + 1
        case .comment:
            return end  // quotes in it mean nothing
        case .scalar, .none:
            break
        }
        if let (lead, opening) = Self.stringAhead(in: window, from: from, to: end) {
            // A string starts here: hand it over only whole.
            if heldStart != opening {
                heldStart = opening
                heldScanned = opening + 1
            }
            if end - opening - 1 > maxStringLength { return end }  // for the length error
            switch Self.scanString(in: window, from: heldScanned, to: end) {
            case .closed(let closing):
                heldStart = -1
                from = closing + 1
            case .open(let resume):
                heldScanned = resume
                return lead
            case .doubtful:
                heldStart = -1
                return end
            }
        }
        return safeEnd(in: window, from: from, to: end)
    }

    /// A string starting at `from`, after at most whitespace, one separator or opening bracket
    /// and more whitespace: its opening quote, and where a call that holds it back should end
    /// (before the separator or bracket, so that the next call starts with that one-byte token:
    /// yajl copies the first token of every call into its buffer).
    private static func stringAhead(in window: InputWindow, from: Int, to end: Int) -> (lead: Int, opening: Int)? {
        var p = from
        var lead: Int?
        while p < end {
            switch window[p] {
            case 0x20, 0x0A, 0x0D, 0x09:
                p += 1
            case UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "["), UInt8(ascii: "{"):
                guard lead == nil else { return nil }
                lead = p
                p += 1
            case quote:
                return (lead ?? p, p)
            default:
                return nil
            }
        }
        return nil
    }

    /// Where a call that ends before the quote at `q` should end: before the separator or
    /// bracket in front of it, if there is one (see ``stringAhead(in:from:to:)``).
    private static func lead(before q: Int, in window: InputWindow, from: Int) -> Int {
        var p = q - 1
        while p >= from {
            switch window[p] {
            case 0x20, 0x0A, 0x0D, 0x09: p -= 1
            case UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "["), UInt8(ascii: "{"): return p
            default: return q
            }
        }
        return q
    }

    /// The end of a call over `from ..< end`, where `from` is outside strings: before the last
    /// quote, or an earlier one past long stretches without quotes (see the type's note).
    private mutating func safeEnd(in window: InputWindow, from: Int, to end: Int) -> Int {
        if end == quotesEnd, let lowest = quotes.last, lowest < from {
            // The last look back went below `from`: the quotes at or after it are a run of
            // long stretches, and the first of them opens a string.
            while let last = quotes.last, last < from { quotes.removeLast() }
            return quotes.last.map { Self.lead(before: $0, in: window, from: from) } ?? end
        }
        quotes.removeAll(keepingCapacity: true)
        quotesEnd = end
        guard var cut = Self.lastQuote(in: window, from: from, to: end) else { return end }
        quotes.append(cut)
        while let previous = Self.lastQuote(in: window, from: from, to: cut) {
            if cut - previous < StringHoldBack.shortGap { break }
            cut = previous
            quotes.append(cut)
        }
        return Self.lead(before: cut, in: window, from: from)
    }

    /// The first quote in `from ..< end` not escaped by a backslash, looking back no further
    /// than `contentStart` for backslashes.
    private func closingQuote(in window: InputWindow, from: Int, to end: Int, contentStart: Int) -> Int? {
        var p = from
        while p < end {
            guard let hit = memchr(window.pointer(at: p), Int32(StringHoldBack.quote), end - p) else { return nil }
            let q = p + (UnsafeRawPointer(hit) - UnsafeRawPointer(window.pointer(at: p)))
            if !Self.isEscaped(q, in: window, low: max(contentStart, window.base)) { return q }
            p = q + 1
        }
        return nil
    }

    /// Whether the quote at `q` follows an odd number of backslashes (not looking below `low`).
    private static func isEscaped(_ q: Int, in window: InputWindow, low: Int) -> Bool {
        var p = q - 1
        while p >= low && window[p] == backslash { p -= 1 }
        return (q - 1 - p) % 2 == 1
    }

    /// The last quote in `from ..< end` not escaped by a backslash.
    private static func lastQuote(in window: InputWindow, from: Int, to end: Int) -> Int? {
        var high = end
        while high > from {
            guard let q = lastByte(quote, in: window.pointer(at: from), count: high - from).map({ from + $0 }) else {
                return nil
            }
            if !isEscaped(q, in: window, low: from) { return q }
            high = q
        }
        return nil
    }

    /// The index of the last `byte` among `count` bytes at `bytes`, 8 bytes at a time.
    private static func lastByte(_ byte: UInt8, in bytes: UnsafePointer<UInt8>, count: Int) -> Int? {
        let pattern = 0x0101_0101_0101_0101 &* UInt64(byte)
        var i = count
        while i >= 8 {
            let word = UnsafeRawPointer(bytes + (i - 8)).loadUnaligned(as: UInt64.self) ^ pattern
            if (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 != 0 { break }
            i -= 8
        }
        while i > 0 {
            i -= 1
            if bytes[i] == byte { return i }
        }
        return nil
    }

    enum ScanOutcome: Equatable {
        /// The string's closing quote.
        case closed(at: Int)
        /// The string goes on past the bytes in view; look again from `resume`.
        case open(resume: Int)
        /// Something yajl may reject: a control character or an escape that is not one of
        /// JSON's.
        case doubtful
    }

    /// Follows a string's contents from `from` (not inside an escape or a UTF-8 sequence)
    /// towards `end`.
    static func scanString(in window: InputWindow, from: Int, to end: Int) -> ScanOutcome {
        var i = from
        while i < end {
            if i + 8 <= end {
                // Fast path: 8 bytes of printable ASCII other than `"` and `\`.
                let word = UnsafeRawPointer(window.pointer(at: i)).loadUnaligned(as: UInt64.self)
                let quotes = word ^ 0x2222_2222_2222_2222
                let backslashes = word ^ 0x5C5C_5C5C_5C5C_5C5C
                let flagged =
                    word | (word &- 0x2020_2020_2020_2020) & ~word
                    | (quotes &- 0x0101_0101_0101_0101) & ~quotes
                    | (backslashes &- 0x0101_0101_0101_0101) & ~backslashes
                if flagged & 0x8080_8080_8080_8080 == 0 {
                    i += 8
                    continue
                }
            }
            let byte = window[i]
            if byte == quote { return .closed(at: i) }
            if byte == backslash {
                guard i + 1 < end else { return .open(resume: i) }
                switch window[i + 1] {
                case quote, backslash, UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
                    UInt8(ascii: "r"), UInt8(ascii: "t"):
                    i += 2
                case UInt8(ascii: "u"):
                    guard i + 6 <= end else { return .open(resume: i) }
                    for k in 2..<6 where !isHexDigit(window[i + k]) { return .doubtful }
                    i += 6
                default:
                    return .doubtful
                }
                continue
            }
            if byte < 0x20 { return .doubtful }
            // (Bytes above 0x7F are yajl's to pass and Spool's to check, once the string is
            // whole: yajl does not check UTF-8 for Spool, ``YajlHandle``.)
            i += 1
        }
        return .open(resume: end)
    }

    private static func isHexDigit(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || (c | 0x20 >= UInt8(ascii: "a") && c | 0x20 <= UInt8(ascii: "f"))
    }
}
