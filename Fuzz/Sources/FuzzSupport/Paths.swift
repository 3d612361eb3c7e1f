import Spool

/// The path a stream target streams, from the input's selector (bits 5-6 of the flags byte)
/// and the reference's first value: 0 the root; 1 the first key of a root object; 2 the
/// deepest container reached by first container children (a nested path such as
/// `data.items[1]`); 3 the last key of a root object, or the second element of a root array.
/// Where the value has no such thing, a path that leads nowhere (`a` or `a[0]`).
public func chosenPath(_ selector: Int, root: RefNode?) -> JSONKeyPath {
    switch (selector, root) {
    case (0, _): return .root
    case (1, .object(let members, _)?) where !members.isEmpty: return JSONKeyPath([.key(members[0].key)])
    case (1, _): return "a"
    case (2, let root?):
        var components: [JSONKeyPath.Component] = []
        var node = root
        while true {
            switch node {
            case .object(let members, _):
                guard let member = members.first(where: { $0.value.isContainer }) else { return finish(components) }
                components.append(.key(member.key))
                node = member.value
            case .array(let items, _):
                guard let index = items.firstIndex(where: \.isContainer) else { return finish(components) }
                components.append(.index(index))
                node = items[index]
            default:
                return finish(components)
            }
        }
    case (3, .object(let members, _)?) where !members.isEmpty: return JSONKeyPath([.key(members[members.count - 1].key)])
    case (3, .array?): return JSONKeyPath([.index(1)])
    default: return ["a", 0]
    }
    func finish(_ components: [JSONKeyPath.Component]) -> JSONKeyPath {
        components.isEmpty ? ["a", 0] : JSONKeyPath(components)
    }
}

extension RefNode {
    /// Whether the value is an array or an object.
    public var isContainer: Bool {
        switch self {
        case .array, .object: return true
        default: return false
        }
    }
}
