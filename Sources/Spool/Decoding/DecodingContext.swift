#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What every decoder of one value shares (each ``Extractor`` of the operators, the
/// `Decodable` models' tape decoder): the tape holding the value, where the value starts, and
/// its path in the document.
///
/// Paths are not tracked while decoding: on the happy path an extractor is just a tape index.
/// When an error needs one, ``path(of:)`` walks down from the root to the offending token.
///
/// **Decoding while parsing.** A whole document decodes while its tail is still being parsed
/// (on the background thread for large inputs): `filler` is the reader that keeps filling the
/// tape, and every step onto a token not yet parsed (``ensure(_:)``) or past a container not
/// yet closed (``lastIndex(ofValueAt:)``) reads on until it is there. Lookups and element loops
/// find the end of an object or array by its end token, so they never wait for more than they
/// read. Once the document is complete, `filler` is cleared.
///
/// **Releasing decoded elements.** In that mode, the outermost array (or dictionary) decoded
/// with ``forEachChild(of:releasing:_:)`` releases its elements from the tape once decoded
/// (``TokenTape/release(_:upTo:ofContainer:children:)``), unless
/// ``JSONParsingOptions/releasesDecodedElements`` is off. Memory then holds the model and the
/// largest element, not the document. Reading a released element again throws.
final class DecodingContext {
    let tape: TokenTape
    /// The tape's generation when the value was decoded; a later one means the tokens are gone.
    let generation: Int
    let rootIndex: Int
    /// The root value's path, from the document root: a streamed element's (array's path and
    /// its index) is put together when an error asks for it.
    var basePath: JSONKeyPath { baseLast.map { baseContainer + [$0] } ?? baseContainer }
    private let baseContainer: JSONKeyPath
    private let baseLast: JSONKeyPath.Component?
    /// Where the lookups of the operators (``Extractor``) have got to, in the last object
    /// searched for a key. A `Decodable` model's keyed container keeps its own
    /// (``KeyedContainerState``), so that it takes up its object where it left it after a
    /// nested model has searched others.
    @exclusivity(unchecked) var lookups = MemberLookups()
    /// The index of a wide object's keys, shared by every lookup in that object.
    @exclusivity(unchecked) var keyIndex = KeyIndex()

    /// How deep models decoded from this context may recurse on the thread's stack (set where
    /// the context is made, which is where its decoding starts).
    @exclusivity(unchecked) var stackLimit = StackLimit()

    /// The reader still adding the document's tokens to `tape`, or nil when it is complete.
    @exclusivity(unchecked) var filler: JSONReader?
    /// Whether a loop is releasing the children it has decoded (only one at a time).
    @exclusivity(unchecked) var isReleasing = false
    /// Children are released in runs of at least this many tokens, so that moving the tokens
    /// parsed after them costs little.
    static let releaseRun = 1 << 15

    init(tape: TokenTape, rootIndex: Int, basePath: JSONKeyPath = .root, filler: JSONReader? = nil) {
        self.tape = tape
        generation = tape.generation
        self.rootIndex = rootIndex
        baseContainer = basePath
        baseLast = nil
        self.filler = filler
    }

    /// The context of a streamed element, whose path is `element`'s.
    init(tape: TokenTape, rootIndex: Int, element: ElementPath) {
        self.tape = tape
        generation = tape.generation
        self.rootIndex = rootIndex
        baseContainer = element.container
        baseLast = element.last
        filler = nil
    }

    var isValid: Bool { tape.generation == generation && tape.contains(rootIndex) }

    /// Whether the token at `index` can still be read: the tape has not moved on, and the
    /// token was not released.
    @inline(__always)
    func isValid(_ index: Int) -> Bool { isValid && tape.contains(index) }

    /// Makes sure the token at `index` is on the tape, reading on if the document is still
    /// arriving.
    /// - Throws: the reader's ``ParseError`` or ``InputError`` when the input fails first;
    ///   ``releasedError()`` for a token the stream released or dropped (a keyed container's
    ///   lookups check their object's start token this way).
    @inline(__always)
    func ensure(_ index: Int) throws {
        if index >= tape.end { try readOn(to: index) }
        // (Below the tape's base: dropped, for a decoder or container a model kept past its
        // element and used after the stream moved on.)
        if tape.isReleased(index) || index < tape.base { throw releasedFailure() }
    }

    /// ``releasedError()``, boxed out of line (``ensure(_:)`` is inlined into the decoding
    /// frames, where a `DecodeError` built in place would take room once per nesting level).
    @inline(never)
    func releasedFailure() -> any Error { releasedError() }

    /// The error for reading an element again after it was released.
    func releasedError() -> DecodeError {
        let container = tape.gapContainer
        let path = path(of: container)
        let name = path.isEmpty ? "the top-level value" : "\(path)"
        let what = tape.contains(container) && tape[container].kind == .objectStart ? "members" : "elements"
        return DecodeError(
            code: .released, keyPath: path, location: tape.contains(container) ? tape.location(at: container) : nil,
            message: "the first \(tape.gapChildren) \(what) of \(name) were released once decoded, to keep memory "
                + "flat, and cannot be read again; decode each array once, or set "
                + "JSONParsingOptions.releasesDecodedElements to false")
    }

    @inline(never)
    private func readOn(to index: Int) throws {
        guard let filler, index >= tape.end else { return }
        guard try filler.ensureToken(at: index) else { throw endedInsideValue() }
    }

    /// The reader reports a truncated document itself; this is only a safety net.
    private func endedInsideValue() -> DecodeError {
        DecodeError(code: .incomplete, keyPath: basePath, message: "the input ended inside the value being decoded")
    }

    /// The absolute index of the last token of the value that starts at `index`, reading on
    /// until a container's end has been parsed.
    @inline(__always)
    func lastIndex(ofValueAt index: Int) throws -> Int {
        try ensure(index)
        if let last = tape.lastIndex(ofValueAt: index) { return last }
        return try readOn(toEndOf: index)
    }

    @inline(never)
    private func readOn(toEndOf index: Int) throws -> Int {
        guard let filler else { return index }  // not reached: a complete tape has every end
        guard let last = try filler.readToEnd(ofValueAt: index) else { throw endedInsideValue() }
        return last
    }

    /// Calls `body` with the index of each element of the array at `container`, or each key of
    /// the object at `container` (its value follows it), reading on as the document arrives.
    /// With `releasing`, the children are released once `body` is done with them, when this
    /// context decodes while parsing and no outer loop is releasing already (``ReleaseRun``).
    @inline(__always)
    func forEachChild(of container: Int, releasing: Bool = false, _ body: (Int) throws -> Void) throws {
        var walk = ChildSteps(container: container, from: container &+ 1, releasing: releasing, in: self)
        defer { walk.end(in: self) }
        while try !walk.isAtEnd(in: self) {  // (until the container's own end)
            let child = walk.child
            let value = tape[child].kind == .key ? child &+ 1 : child
            try body(child)
            if try walk.advance(pastValueAt: value, in: self) {
                walk.release(upTo: walk.child, children: walk.run.children, in: self)
            }
        }
        if walk.releases && walk.run.children > 0 { walk.release(upTo: walk.child, children: walk.run.children, in: self) }
    }

    /// Whether a loop over the children of `container` that asks to release them may: this
    /// context decodes while parsing with ``JSONParsingOptions/releasesDecodedElements``, no
    /// outer loop is releasing already (only one at a time), and the tape can. When it may,
    /// the loop is now the one releasing, until it sets `isReleasing` back.
    @inline(__always)
    func startsReleasing(_ container: Int) -> Bool {
        guard !isReleasing, filler?.options.releasesDecodedElements == true,
            tape.canRelease(from: container &+ 1, ofContainer: container)
        else { return false }
        isReleasing = true
        return true
    }

    /// The path from the document root to the token at `index`. It reads nothing more: a
    /// container still open (its end not parsed yet) runs to the end of the tape, which holds
    /// `index`.
    func path(of index: Int) -> JSONKeyPath {
        var path = basePath
        var node = rootIndex
        var level = 0
        while node != index, tape.contains(node) {
            let token = tape[node]
            guard token.isContainerStart else { break }
            let end = token.payload > node ? token.payload : tape.end
            var child = node + 1
            var position = 0
            // Resume after the child found at this level last time, when it is in the same
            // container and not past `index`: errors asked for element after element of one
            // array (a `try?` fallback in a loop) then cost O(1) each, not O(the index).
            if level < pathMemos.count {
                let memo = pathMemos[level]
                if memo.container == node && memo.generation == tape.generation && memo.child > node
                    && memo.child <= index && tape.contains(memo.child)
                {
                    child = memo.child
                    position = memo.position
                }
            }
            var found = false
            defer { level += 1 }
            while child < end {
                pathSteps &+= 1
                if child == tape.gapStart {  // released children: count them, skip them
                    if token.kind == .arrayStart { position += tape.gapChildren }
                    child += tape.gapLength
                    continue
                }
                if token.kind == .objectStart {
                    let value = child + 1
                    let last = tape.lastIndex(ofValueAt: value) ?? max(value, tape.end - 1)
                    if index == child || (index >= value && index <= last) {
                        remember(PathMemo(container: node, child: child, position: position, generation: tape.generation), at: level)
                        path.append(.key(tape.text(of: tape[child])))
                        if index == child { return path }
                        node = value
                        found = true
                        break
                    }
                    child = last + 1
                } else {
                    let last = tape.lastIndex(ofValueAt: child) ?? max(child, tape.end - 1)
                    if index >= child && index <= last {
                        remember(PathMemo(container: node, child: child, position: position, generation: tape.generation), at: level)
                        path.append(.index(position))
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
        return path
    }

    /// Where ``path(of:)`` found its way through a container: the child (for an object, its
    /// key) holding the index asked for, and that child's position.
    struct PathMemo {
        var container = -1
        var child = 0
        var position = 0
        var generation = 0
    }

    /// The children ``path(of:)`` has stepped over, for tests of its cost.
    @exclusivity(unchecked) private(set) var pathSteps = 0

    /// The last ``PathMemo`` of each level from the root.
    @exclusivity(unchecked) private var pathMemos: [PathMemo] = []

    private func remember(_ memo: PathMemo, at level: Int) {
        while pathMemos.count <= level { pathMemos.append(PathMemo()) }
        pathMemos[level] = memo
    }
}
