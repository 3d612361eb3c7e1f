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
        var keyBytes: [UInt8]? = nil
    }

    private(set) var levels: [Level] = []
    /// Whether the current token opened the innermost level (so it is not part of its own path).
    private var currentOpensLevel = false

    init() {
        levels.reserveCapacity(32)
    }

    var depth: Int { levels.count }

    @inline(__always)
    mutating func didRead(_ token: RawToken, at index: Int) {
        currentOpensLevel = false
        switch token.kind {
        case .objectStart, .arrayStart:
            bumpIndex()
            levels.append(Level(isObject: token.kind == .objectStart))
            currentOpensLevel = true
        case .objectEnd, .arrayEnd:
            _ = levels.popLast()
        case .key:
            let last = levels.count - 1
            if last >= 0 {
                levels[last].keyToken = index
                levels[last].keyBytes = nil
            }
        default:
            bumpIndex()
        }
    }

    @inline(__always)
    private mutating func bumpIndex() {
        let last = levels.count - 1
        if last >= 0 && !levels[last].isObject { levels[last].index += 1 }
    }

    /// Copies keys whose tokens are about to be discarded from the tape.
    mutating func preserveKeys(below index: Int, tape: TokenTape) {
        for level in levels.indices where levels[level].isObject {
            let token = levels[level].keyToken
            if token >= 0, token < index, levels[level].keyBytes == nil, tape.contains(token) {
                levels[level].keyBytes = Array(tape.bytes(of: tape[token]))
            }
        }
    }

    /// The path of the current token.
    func path(tape: TokenTape) -> JSONKeyPath {
        let count = currentOpensLevel ? levels.count - 1 : levels.count
        var components: [JSONKeyPath.Component] = []
        components.reserveCapacity(count)
        for level in levels.prefix(max(0, count)) {
            if level.isObject {
                if let bytes = level.keyBytes {
                    components.append(.key(String(decoding: bytes, as: UTF8.self)))
                } else if level.keyToken >= 0, tape.contains(level.keyToken) {
                    components.append(.key(String(decoding: tape.bytes(of: tape[level.keyToken]), as: UTF8.self)))
                }
            } else {
                components.append(.index(max(0, level.index)))
            }
        }
        return JSONKeyPath(components)
    }
}
