/// Text from the input made safe to print on a terminal.
enum TerminalText {
    /// `text` with every control character (tab included) escaped as `\u{…}`, so that a
    /// newline, a tab or an escape sequence inside a JSON string can neither forge output lines
    /// or fields nor drive the terminal.
    static func safe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                result += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
