/// The "did you mean" of a missing key: a key seen in the same object that is the wanted one
/// up to case, or one edit away (a character added, dropped, changed, or two swapped).
enum KeySuggestion {
    /// Whether `candidate` is near `wanted` (and not equal to it).
    static func isNear(_ candidate: String, to wanted: String) -> Bool {
        guard candidate != wanted else { return false }
        if candidate.lowercased() == wanted.lowercased() { return true }
        let a = Array(candidate.unicodeScalars)
        let b = Array(wanted.unicodeScalars)
        guard abs(a.count - b.count) <= 1 else { return false }
        var i = 0
        while i < a.count && i < b.count && a[i] == b[i] { i += 1 }
        if a.count == b.count {
            // One changed, or two swapped.
            if a[(i + 1)...] == b[(i + 1)...] { return true }
            return i + 1 < a.count && a[i] == b[i + 1] && a[i + 1] == b[i] && a[(i + 2)...] == b[(i + 2)...]
        }
        // One added or dropped.
        return a.count > b.count ? a[(i + 1)...] == b[i...] : a[i...] == b[(i + 1)...]
    }

    /// The key the current token (a key of the object being searched for `wanted`) suggests,
    /// if it is near: read as text only when its length is within one byte of `wanted`'s, or
    /// equal (a case difference).
    static func suggestion(from reader: JSONReader, for wanted: String) -> String? {
        guard let token = reader.currentToken, abs(Int(token.length) - wanted.utf8.count) <= 1,
            let text = reader.text, isNear(text, to: wanted)
        else { return nil }
        return text
    }
}
