extension String {
    /// Whether `fragment`'s UTF-8 occurs in this string's, compared byte by byte (no Unicode
    /// equivalence: for the ASCII of messages). Foundation's `contains(_:)` goes through
    /// `NSString` on Linux, about 8,000 instructions a call: classifying one yajl error took
    /// seven, once per batch of a parallel stream (``YajlError/init(message:)``).
    func containsBytes(of fragment: String) -> Bool {
        var text = self
        var fragment = fragment
        return text.withUTF8 { text in
            fragment.withUTF8 { fragment in
                guard !fragment.isEmpty else { return true }
                guard fragment.count <= text.count else { return false }
                for start in 0...(text.count - fragment.count)
                where text[start] == fragment[0] && UnsafeBufferPointer(rebasing: text[start..<(start + fragment.count)]).elementsEqual(fragment) {
                    return true
                }
                return false
            }
        }
    }
}
