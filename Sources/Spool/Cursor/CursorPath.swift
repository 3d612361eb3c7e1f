/// The logical path of the token under a cursor, kept as the cursor moves.
///
/// Each open container is one level: an array knows the index of its current element, an
/// object the tape index of its current key. A key is copied out only when its token is about
/// to leave the tape, so tracking costs no allocation per token.
struct CursorPath {
    struct Level {
        var isObject: Bool
        var index: Int = -1
        var keyToken: Int = -1
        var keyPreserved = false
    }

    private(set) var levels = LevelStack<Level>(capacity: 32)
    /// Copies of keys (by level) whose tokens have left the tape.
    private var preservedKeys: [Int: [UInt8]] = [:]
    /// Whether the current token opened the innermost level (so it is not part of its own path).
    private var currentOpensLevel = false

    func deallocate() { levels.deallocate() }

    var depth: Int { levels.count }

    @inline(__always)
    mutating func didRead(_ kind: RawToken.Kind, at index: Int) {
        currentOpensLevel = false
        switch kind {
        case .objectStart, .arrayStart:
            bumpIndex()
            levels.push(Level(isObject: kind == .objectStart))
            currentOpensLevel = true
        case .objectEnd, .arrayEnd:
            if let level = levels.pop(), level.keyPreserved { preservedKeys[levels.count] = nil }
        case .key:
            if levels.count > 0 {
                let top = levels.top
                top.pointee.keyToken = index
                if top.pointee.keyPreserved {
                    top.pointee.keyPreserved = false
                    preservedKeys[levels.count - 1] = nil
                }
            }
        default:
            bumpIndex()
        }
    }

    @inline(__always)
    private func bumpIndex() {
        if levels.count > 0 {
            let top = levels.top
            if !top.pointee.isObject { top.pointee.index += 1 }
        }
    }

    /// Copies keys whose tokens are about to be discarded from the tape.
    mutating func preserveKeys(below index: Int, tape: TokenTape) {
        for level in 0..<levels.count where levels[level].isObject {
            let token = levels[level].keyToken
            if token >= 0, token < index, !levels[level].keyPreserved, tape.contains(token) {
                preservedKeys[level] = Array(tape.bytes(of: tape[token]))
                levels.base[level].keyPreserved = true
            }
        }
    }

    /// The path of the current token.
    func path(tape: TokenTape) -> JSONKeyPath {
        let count = max(0, currentOpensLevel ? levels.count - 1 : levels.count)
        var components: [JSONKeyPath.Component] = []
        components.reserveCapacity(count)
        for level in 0..<count {
            let entry = levels[level]
            if entry.isObject {
                if entry.keyPreserved, let bytes = preservedKeys[level] {
                    components.append(.key(String(decoding: bytes, as: UTF8.self)))
                } else if entry.keyToken >= 0, tape.contains(entry.keyToken) {
                    components.append(.key(tape.text(of: tape[entry.keyToken])))
                }
            } else {
                components.append(.index(max(0, entry.index)))
            }
        }
        return JSONKeyPath(components)
    }
}
