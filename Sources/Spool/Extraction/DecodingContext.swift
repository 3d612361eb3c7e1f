/// What every ``Extractor`` of one decoded value shares: the tape holding the value, where the
/// value starts, and its path in the document.
///
/// Paths are not tracked while decoding: on the happy path an extractor is just a tape index.
/// When an error needs one, ``path(of:)`` walks down from the root to the offending token.
final class DecodingContext {
    let tape: TokenTape
    /// The tape's generation when the value was decoded; a later one means the tokens are gone.
    let generation: Int
    let rootIndex: Int
    let basePath: JSONKeyPath
    /// The last object searched for a key, and where its next member starts: models usually ask
    /// for fields in document order, so most lookups succeed at the first comparison.
    @exclusivity(unchecked) var hintObject = -1
    @exclusivity(unchecked) var hintMember = -1

    init(tape: TokenTape, rootIndex: Int, basePath: JSONKeyPath = .root) {
        self.tape = tape
        generation = tape.generation
        self.rootIndex = rootIndex
        self.basePath = basePath
    }

    var isValid: Bool { tape.generation == generation && tape.contains(rootIndex) }

    /// The absolute index of the last token of the value that starts at `index`.
    @inline(__always)
    func lastIndex(ofValueAt index: Int) -> Int {
        let token = tape[index]
        return token.isContainerStart ? token.payload : index
    }

    /// The path from the document root to the token at `index`.
    func path(of index: Int) -> JSONKeyPath {
        var components = basePath.components
        var node = rootIndex
        while node != index, tape.contains(node) {
            let token = tape[node]
            guard token.isContainerStart, token.payload > node else { break }
            let end = token.payload
            var child = node + 1
            var position = 0
            var found = false
            while child < end {
                if token.kind == .objectStart {
                    let value = child + 1
                    let last = lastIndex(ofValueAt: value)
                    if index == child || (index >= value && index <= last) {
                        components.append(.key(String(decoding: tape.bytes(of: tape[child]), as: UTF8.self)))
                        if index == child { return JSONKeyPath(components) }
                        node = value
                        found = true
                        break
                    }
                    child = last + 1
                } else {
                    let last = lastIndex(ofValueAt: child)
                    if index >= child && index <= last {
                        components.append(.index(position))
                        node = child
                        found = true
                        break
                    }
                    child = last + 1
                    position += 1
                }
            }
            if !found { break }
        }
        return JSONKeyPath(components)
    }
}
