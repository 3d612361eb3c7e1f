/// A coding key for a JSON key or an array index, for coding paths. An index's `stringValue`
/// is `Index N`, as in `JSONDecoder`'s paths; it is spelled out only when asked for.
struct JSONCodingKey: CodingKey, Hashable {
    private enum Storage: Hashable {
        case key(String)
        case index(Int)
    }

    private let storage: Storage

    init(stringValue: String) {
        storage = .key(stringValue)
    }

    init(intValue: Int) {
        storage = .index(intValue)
    }

    init(_ component: JSONKeyPath.Component) {
        switch component {
        case .key(let key): self.init(stringValue: key)
        case .index(let index): self.init(intValue: index)
        case .wildcard: self.init(stringValue: "[*]")
        }
    }

    var stringValue: String {
        switch storage {
        case .key(let key): key
        case .index(let index): "Index \(index)"
        }
    }

    var intValue: Int? {
        if case .index(let index) = storage { return index }
        return nil
    }
}
