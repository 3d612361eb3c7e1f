extension JSONKeyPath {
    /// A path that cannot be parsed from its text.
    public struct SyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The text that was parsed.
        public var text: String
        /// What is wrong with it.
        public var reason: String
        /// `invalid path "a..b": empty key`.
        public var description: String { "invalid path \(JSONKeyPath.quoted(text)): \(reason)" }
    }

    /// For a missing key that reads like a path in Spool's notation (`"objects[0].members"`
    /// given as one string literal, which is one key): `did you mean ["objects", 0, "members"]?`.
    static func pathSyntaxHint(for component: Component) -> String? {
        guard case .key(let key) = component, key.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "[") }),
            let parsed = try? JSONKeyPath(parsing: key), parsed.components.count > 1
        else { return nil }
        return "did you mean \(parsed.arrayLiteral)? (a string literal is one key; "
            + "JSONKeyPath(parsing:) reads the dotted notation)"
    }

    /// The path as a Swift array literal: `["objects", 0, "members"]`.
    var arrayLiteral: String {
        let parts = components.map { component -> String in
            switch component {
            case .key(let key): return JSONKeyPath.quoted(key)
            case .index(let index): return "\(index)"
            case .wildcard: return ".wildcard"
            }
        }
        return "[\(parts.joined(separator: ", "))]"
    }

    /// Parses a path in Spool's notation, the one ``description`` prints: keys joined by dots,
    /// `[N]` for an index, `[*]` for every element (``Component/wildcard``), `["..."]` for a
    /// key with dots, brackets or other characters (JSON string escapes allowed), and `.` for the
    /// root: `objects`, `data.items`, `groups[2].members`, `objects[*].members`,
    /// `objects[0]["first.name"]`. The empty string is an error (an empty
    /// PATH is more often a mistake than a request for the root).
    public init(parsing text: String) throws(SyntaxError) {
        var components: [Component] = []
        let chars = Array(text.unicodeScalars)
        var i = 0
        func fail(_ reason: String) -> SyntaxError { SyntaxError(text: text, reason: reason) }
        if text.isEmpty { throw fail("empty path (. is the root)") }
        if text == "." {
            self.init([])
            return
        }
        var expectKey = true
        while i < chars.count {
            let c = chars[i]
            if c == "[" {
                i += 1
                guard i < chars.count else { throw fail("unclosed [") }
                if chars[i] == "\"" {
                    i += 1
                    var key = ""
                    while i < chars.count && chars[i] != "\"" {
                        if chars[i] == "\\" && i + 1 < chars.count {
                            i += 1
                            switch chars[i] {
                            case "n": key.unicodeScalars.append("\n")
                            case "t": key.unicodeScalars.append("\t")
                            case "r": key.unicodeScalars.append("\r")
                            case "u":
                                guard i + 4 < chars.count, let value = UInt32(String(String.UnicodeScalarView(chars[(i + 1)...(i + 4)])), radix: 16),
                                    let scalar = Unicode.Scalar(value)
                                else { throw fail("bad \\u escape") }
                                key.unicodeScalars.append(scalar)
                                i += 4
                            default: key.unicodeScalars.append(chars[i])
                            }
                        } else {
                            key.unicodeScalars.append(chars[i])
                        }
                        i += 1
                    }
                    guard i + 1 < chars.count, chars[i] == "\"", chars[i + 1] == "]" else { throw fail("unclosed [\"") }
                    components.append(.key(key))
                    i += 2
                } else if chars[i] == "*" {
                    guard i + 1 < chars.count, chars[i + 1] == "]" else { throw fail("[* must be [*]") }
                    components.append(.wildcard)
                    i += 2
                } else {
                    var digits = ""
                    while i < chars.count && chars[i] != "]" {
                        digits.unicodeScalars.append(chars[i])
                        i += 1
                    }
                    guard i < chars.count else { throw fail("unclosed [") }
                    guard !digits.isEmpty, digits.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }),
                        let index = Int(digits)
                    else { throw fail("[\(digits)] is not an index") }
                    components.append(.index(index))
                    i += 1
                }
                expectKey = false
            } else if c == "." {
                guard !expectKey || components.isEmpty && i == 0 else { throw fail("empty key") }
                i += 1
                expectKey = true
                guard i < chars.count else { throw fail("ends with a dot") }
            } else {
                guard expectKey else { throw fail("expected . or [ before \(String(c))") }
                var key = ""
                while i < chars.count && chars[i] != "." && chars[i] != "[" {
                    key.unicodeScalars.append(chars[i])
                    i += 1
                }
                components.append(.key(key))
                expectKey = false
            }
        }
        self.init(components)
    }
}
