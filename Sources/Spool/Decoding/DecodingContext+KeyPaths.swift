extension DecodingContext {
    /// Where a key path from a value leads.
    enum Resolution {
        case found(Int)
        /// The path stops at the object or array `parent`, before the component at `path`'s end.
        case missing(parent: Int, path: JSONKeyPath)
        /// An intermediate value on the path is `null`.
        case null(Int)
    }

    /// One step of a path: the child found, no such child, or `null` where a container was needed.
    private enum Step {
        case found(Int)
        case missing
        case null(Int)
        /// A ``JSONKeyPath/Component/wildcard``, which no path to one value may hold.
        case wildcard
    }

    /// The error for a path to one value that holds a wildcard.
    @inline(never)
    private func wildcardError(in keyPath: JSONKeyPath) -> JSONKeyPath.SyntaxError {
        JSONKeyPath.SyntaxError(
            text: keyPath.description,
            reason: "[*] selects many values, and this path must lead to one (stream them with elements(of:at:))")
    }

    /// Follows `keyPath` from the value at `index` (on the tape): the value found, where the
    /// path stops, or the `null` met on the way.
    /// - Throws: a type mismatch where the path needs an object or array and finds another
    ///   value, a ``JSONKeyPath/SyntaxError`` for a ``JSONKeyPath/Component/wildcard`` (a path
    ///   to one value), or the input's error while reading on.
    func resolve(_ keyPath: JSONKeyPath, from index: Int) throws -> Resolution {
        switch keyPath.storage {
        case .empty:
            return .found(index)
        case .one(let component):
            switch try step(from: index, component) {
            case .found(let target): return .found(target)
            case .missing: return .missing(parent: index, path: keyPath)
            case .null(let target): return .null(target)
            case .wildcard: throw wildcardError(in: keyPath)
            }
        case .many(let components):
            var node = index
            for (position, component) in components.enumerated() {
                switch try step(from: node, component) {
                case .found(let next): node = next
                case .missing:
                    // (A wildcard further on is refused whatever the input holds.)
                    if components[position...].contains(.wildcard) { throw wildcardError(in: keyPath) }
                    return .missing(parent: node, path: JSONKeyPath(Array(components[...position])))
                case .null(let target):
                    if components[position...].contains(.wildcard) { throw wildcardError(in: keyPath) }
                    return .null(target)
                case .wildcard: throw wildcardError(in: keyPath)
                }
            }
            return .found(node)
        }
    }

    @inline(__always)
    private func step(from node: Int, _ component: JSONKeyPath.Component) throws -> Step {
        let token = tape[node]
        switch component {
        case .key(let key):
            guard token.kind == .objectStart else {
                if token.kind == .null { return .null(node) }
                throw mismatchError(at: node, expected: "object", reason: nil)
            }
            var key = key
            if let value = try key.withUTF8({ try member(utf8: $0, ofObjectAt: node, keys: KeysAsWritten()) }) { return .found(value) }
            return .missing
        case .index(let position):
            guard token.kind == .arrayStart else {
                if token.kind == .null { return .null(node) }
                throw mismatchError(at: node, expected: "array", reason: nil)
            }
            var child = node + 1
            var count = 0
            while true {
                try ensure(child)
                if tape[child].kind == .arrayEnd { return .missing }
                if count == position { return .found(child) }
                child = try lastIndex(ofValueAt: child) + 1
                count += 1
            }
        case .wildcard:
            return .wildcard
        }
    }
}
