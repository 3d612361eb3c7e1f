/// Where a streamed element is: the path of the array (or object) holding it and its index (or
/// key) there. The element's full ``JSONKeyPath`` is spelled out only when something asks for it
/// (an error), not once per element.
struct ElementPath {
    /// The path of the container, from the document root (NDJSON: from the value's index).
    let container: JSONKeyPath
    /// The element's index, or the member's key, in the container.
    let last: JSONKeyPath.Component

    /// The element's path from the document root.
    var keyPath: JSONKeyPath { container + [last] }
}
