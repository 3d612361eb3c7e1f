/// A coding path as a linked list, so that decoding a field costs no array: a container keeps
/// the node of its own path, and a field's path is that node plus the field's key. The array a
/// `Decoder` or container reports is built only when asked for (errors, `codingPath`).
final class CodingPathNode {
    @exclusivity(unchecked) private(set) var parent: CodingPathNode?
    @exclusivity(unchecked) private(set) var key: any CodingKey

    init(parent: CodingPathNode?, key: any CodingKey) {
        self.parent = parent
        self.key = key
    }

    /// Makes this node the path of another value: only for a node that no one but its
    /// container holds (``KeyedContainerState/node``), so that no path seen before changes.
    func reuse(parent: CodingPathNode?, key: any CodingKey) {
        self.parent = parent
        self.key = key
    }

    /// The path from the root to this node.
    var path: [any CodingKey] {
        var keys: [any CodingKey] = []
        var node: CodingPathNode? = self
        while let current = node {
            keys.append(current.key)
            node = current.parent
        }
        return keys.reversed()
    }

    /// A node for `keys` from the root (nil for the empty path).
    static func make(_ keys: [any CodingKey]) -> CodingPathNode? {
        keys.reduce(nil) { CodingPathNode(parent: $0, key: $1) }
    }
}
