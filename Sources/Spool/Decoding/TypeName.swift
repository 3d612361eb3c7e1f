import Synchronization

/// Type names for messages, as Swift code spells them: `Int?`, `[String]`, `[String: Int]`
/// rather than the runtime's `Optional<Int>`, `Array<String>`, `Dictionary<String, Int>`.
enum TypeName {
    /// The name of `type` with Swift's sugar for optionals, arrays and dictionaries.
    static func of(_ type: Any.Type) -> String {
        let id = ObjectIdentifier(type)
        if let name = names.withLock({ $0[id] }) { return name }
        let name = sugared("\(type)")
        names.withLock { if $0.count < 4096 { $0[id] = name } }
        return name
    }

    /// The names made so far, by type: the runtime's name of a type costs about 5,000
    /// instructions, and messages about refused values (a `try?` fallback refuses one per
    /// element) name the same few types again and again.
    private static let names = Mutex<[ObjectIdentifier: String]>([:])

    /// `name` (a runtime type name) with the sugar applied at every level of generic arguments.
    static func sugared(_ name: String) -> String {
        guard name.utf8.contains(UInt8(ascii: "<")) else { return name }  // (not Foundation's `contains`: 7,000 instructions)
        var scalars = Substring(name).unicodeScalars[...]
        guard let node = Node.parse(&scalars), scalars.isEmpty else { return name }
        return node.rendered
    }

    /// A type name and its generic arguments.
    private struct Node {
        var name: String
        var arguments: [Node]

        var rendered: String {
            let parts = arguments.map(\.rendered)
            switch (name, parts.count) {
            case ("Swift.Optional", 1), ("Optional", 1): return parts[0] + "?"
            case ("Swift.Array", 1), ("Array", 1): return "[\(parts[0])]"
            case ("Swift.Dictionary", 2), ("Dictionary", 2): return "[\(parts[0]): \(parts[1])]"
            case (_, 0): return name.hasPrefix("Swift.") ? String(name.dropFirst(6)) : name
            default: return "\(name)<\(parts.joined(separator: ", "))>"
            }
        }

        /// Parses `Name` or `Name<Argument, ...>` off the front of `text`; nil for anything
        /// else (tuples, functions), which is then printed as the runtime spells it.
        static func parse(_ text: inout Substring.UnicodeScalarView.SubSequence) -> Node? {
            while text.first == " " { text.removeFirst() }
            var name = ""
            while let c = text.first, c != "<", c != ">", c != ",", c != " " {
                if c == "(" || c == ")" { return nil }
                name.unicodeScalars.append(c)
                text.removeFirst()
            }
            guard !name.isEmpty else { return nil }
            var node = Node(name: name, arguments: [])
            guard text.first == "<" else { return node }
            text.removeFirst()
            while true {
                guard let argument = parse(&text) else { return nil }
                node.arguments.append(argument)
                while text.first == " " { text.removeFirst() }
                guard let c = text.first else { return nil }
                text.removeFirst()
                if c == ">" { return node }
                if c != "," { return nil }
            }
        }
    }
}
