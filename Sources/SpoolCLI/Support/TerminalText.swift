/// Text from the input or the command line (band names, file names) made safe to print on a
/// terminal.
enum TerminalText {
    /// `text` with every control character (tab included), line or paragraph separator and
    /// bidirectional formatting character escaped as `\u{…}`, so that a newline, a tab, an
    /// escape sequence or a right-to-left override inside a JSON string or a file name can
    /// neither forge output lines or fields, nor drive the terminal, nor reorder what is shown.
    static func safe(_ text: String) -> String {
        guard needsEscaping(text) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) {
                result += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether ``safe(_:)`` would change `text`.
    static func needsEscaping(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: isUnsafe)
    }

    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F: true  // C0 and C1 controls, DEL
        case 0x2028, 0x2029: true  // line and paragraph separators
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true  // bidirectional marks, embeddings, overrides, isolates
        default: false
        }
    }
}
