#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The token tape: every token yajl reported and the cursor has not yet let go of.
///
/// ```
/// tokens  [ {  key  [  num  str  ]  }  ... ]      RawToken, 32 bytes each
///           ^base                          ^base+count      (absolute indices)
///               |    |   |    |
/// arena   [ "name" | "12\0" | "Ann" | ... ]       decoded text of keys/strings, number text
///           ^arenaBase                            (absolute offsets)
/// ```
///
/// Indices and arena offsets are *absolute*: they keep counting up for the whole input, and
/// ``discard(below:)`` slides the window forward. A container's start token holds the
/// absolute index of its end token, so skipping a sub-tree is O(1) once it has closed.
/// Numbers are stored with a trailing NUL so C conversions can read them in place.
///
/// Storage is two manually managed buffers that only grow; discarding moves the retained
/// suffix to the front, so in steady state appending a token allocates nothing. Growth uses
/// `realloc`, which moves a large buffer by remapping its pages instead of copying them.
final class TokenTape {
    @exclusivity(unchecked) private(set) var tokens: UnsafeMutablePointer<RawToken>
    @exclusivity(unchecked) private(set) var tokenCapacity: Int
    /// Absolute index of `tokens[0]`.
    @exclusivity(unchecked) private(set) var base: Int = 0
    /// Number of tokens held.
    @exclusivity(unchecked) private(set) var count: Int = 0

    @exclusivity(unchecked) private(set) var arena: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private(set) var arenaCapacity: Int
    /// Absolute arena offset of `arena[0]`.
    @exclusivity(unchecked) private(set) var arenaBase: Int = 0
    @exclusivity(unchecked) private(set) var arenaCount: Int = 0

    /// Bumped whenever tokens are discarded, so views onto the tape can tell they went stale.
    @exclusivity(unchecked) private(set) var generation: Int = 0

    init(tokenCapacity: Int = 4096, arenaCapacity: Int = 64 * 1024) {
        self.tokenCapacity = max(16, tokenCapacity)
        self.arenaCapacity = max(256, arenaCapacity)
        tokens = TokenTape.allocate(RawToken.self, capacity: self.tokenCapacity)
        arena = TokenTape.allocate(UInt8.self, capacity: self.arenaCapacity)
    }

    deinit {
        free(tokens)
        free(arena)
    }

    /// Memory for `capacity` trivial values. Allocation failure is not recoverable here (as for
    /// any Swift allocation), so it stops the process with a message rather than corrupting memory.
    private static func allocate<T>(_ type: T.Type, capacity: Int) -> UnsafeMutablePointer<T> {
        guard let raw = malloc(capacity * MemoryLayout<T>.stride) else { outOfMemory(capacity * MemoryLayout<T>.stride) }
        return raw.bindMemory(to: T.self, capacity: capacity)
    }

    private static func reallocate<T>(_ pointer: UnsafeMutablePointer<T>, capacity: Int) -> UnsafeMutablePointer<T> {
        guard let raw = realloc(pointer, capacity * MemoryLayout<T>.stride) else {
            outOfMemory(capacity * MemoryLayout<T>.stride)
        }
        return raw.bindMemory(to: T.self, capacity: capacity)
    }

    private static func outOfMemory(_ bytes: Int) -> Never {
        var message = "Spool: out of memory allocating \(bytes) bytes for the token tape\n"
        message.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
        abort()
    }

    /// Absolute index one past the last token.
    var end: Int { base + count }

    @inline(__always)
    subscript(index: Int) -> RawToken {
        get { tokens[index - base] }
        set { tokens[index - base] = newValue }
    }

    @inline(__always)
    func contains(_ index: Int) -> Bool { index >= base && index < base + count }

    /// Appends a token and returns its absolute index.
    @inline(__always)
    @discardableResult
    func append(_ token: RawToken) -> Int {
        if count == tokenCapacity { growTokens() }
        (tokens + count).initialize(to: token)
        count += 1
        return base + count - 1
    }

    /// Copies bytes into the arena, optionally followed by a NUL, and returns their absolute offset.
    @inline(__always)
    func appendBytes(_ bytes: UnsafeRawPointer?, count length: Int, nulTerminated: Bool = false) -> Int {
        let needed = length + (nulTerminated ? 1 : 0)
        if arenaCount + needed > arenaCapacity { growArena(toFit: needed) }
        let offset = arenaBase + arenaCount
        if let bytes, length > 0 {
            (arena + arenaCount).update(from: bytes.assumingMemoryBound(to: UInt8.self), count: length)
        }
        if nulTerminated { arena[arenaCount + length] = 0 }
        arenaCount += needed
        return offset
    }

    /// Copies a key's or string's bytes into the arena and reports whether they are all ASCII,
    /// in one pass: words of 8 bytes, then overlapping words for the tail.
    @inline(__always)
    func appendText(_ bytes: UnsafeRawPointer?, count length: Int) -> (offset: Int, isASCII: Bool) {
        if arenaCount &+ length > arenaCapacity { growArena(toFit: length) }
        let offset = arenaBase &+ arenaCount
        guard let source = bytes, length > 0 else { return (offset, true) }
        let destination = UnsafeMutableRawPointer(arena + arenaCount)
        arenaCount &+= length
        var high: UInt64 = 0
        if length >= 8 {
            var i = 0
            while i &+ 8 <= length {
                let word = source.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                destination.storeBytes(of: word, toByteOffset: i, as: UInt64.self)
                high |= word
                i &+= 8
            }
            let tail = source.loadUnaligned(fromByteOffset: length &- 8, as: UInt64.self)
            destination.storeBytes(of: tail, toByteOffset: length &- 8, as: UInt64.self)
            high |= tail
        } else if length >= 4 {
            let first = source.loadUnaligned(as: UInt32.self)
            let last = source.loadUnaligned(fromByteOffset: length &- 4, as: UInt32.self)
            destination.storeBytes(of: first, as: UInt32.self)
            destination.storeBytes(of: last, toByteOffset: length &- 4, as: UInt32.self)
            high = UInt64(first | last)
        } else {
            for i in 0..<length {
                let byte = source.load(fromByteOffset: i, as: UInt8.self)
                destination.storeBytes(of: byte, toByteOffset: i, as: UInt8.self)
                high |= UInt64(byte)
            }
        }
        return (offset, high & 0x8080_8080_8080_8080 == 0)
    }

    /// The text bytes of a key, string or number token.
    @inline(__always)
    func bytes(of token: RawToken) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: arena + (token.payload - arenaBase), count: Int(token.length))
    }

    /// Drops every token below the absolute index `index` (and the arena bytes only they used).
    func discard(below index: Int) {
        let drop = min(max(0, index - base), count)
        guard drop > 0 else { return }
        generation &+= 1
        if drop == count {
            base += count
            count = 0
            arenaBase += arenaCount
            arenaCount = 0
            return
        }
        // The first retained token that owns arena bytes bounds what the arena must keep.
        var keepArenaFrom = arenaBase + arenaCount
        for i in drop..<count where tokens[i].hasText {
            keepArenaFrom = tokens[i].payload
            break
        }
        let keepTokens = count - drop
        UnsafeMutableRawPointer(tokens).copyMemory(
            from: tokens + drop, byteCount: keepTokens * MemoryLayout<RawToken>.stride)
        base += drop
        count = keepTokens
        let arenaDrop = keepArenaFrom - arenaBase
        if arenaDrop > 0 {
            let keepBytes = arenaCount - arenaDrop
            UnsafeMutableRawPointer(arena).copyMemory(from: arena + arenaDrop, byteCount: keepBytes)
            arenaBase += arenaDrop
            arenaCount = keepBytes
        }
    }

    /// Exchanges everything this tape holds (storage, numbering, counts) with `other`.
    func swapStorage(with other: TokenTape) {
        swap(&tokens, &other.tokens)
        swap(&tokenCapacity, &other.tokenCapacity)
        swap(&base, &other.base)
        swap(&count, &other.count)
        swap(&arena, &other.arena)
        swap(&arenaCapacity, &other.arenaCapacity)
        swap(&arenaBase, &other.arenaBase)
        swap(&arenaCount, &other.arenaCount)
        generation &+= 1
        other.generation &+= 1
    }

    /// Empties the tape and continues its numbering at the given absolute token index and arena
    /// offset (where the tape it replaces ended).
    func reset(base: Int, arenaBase: Int) {
        generation &+= 1
        self.base = base
        count = 0
        self.arenaBase = arenaBase
        arenaCount = 0
    }

    /// Absolute arena offset one past the last text byte.
    var arenaEnd: Int { arenaBase &+ arenaCount }

    /// Appends the tokens and text of `batch`, which must continue this tape's numbering (its
    /// first token and first text byte come right after this tape's last ones). An empty tape
    /// adopts the batch's numbering.
    func append(contentsOf batch: TokenTape) {
        if count == 0 && arenaCount == 0 {
            base = batch.base
            arenaBase = batch.arenaBase
        }
        guard base &+ count == batch.base, arenaBase &+ arenaCount == batch.arenaBase else { return }
        if count &+ batch.count > tokenCapacity { growTokens(toFit: batch.count) }
        (tokens + count).update(from: batch.tokens, count: batch.count)
        count &+= batch.count
        if batch.arenaCount > 0 {
            if arenaCount &+ batch.arenaCount > arenaCapacity { growArena(toFit: batch.arenaCount) }
            (arena + arenaCount).update(from: batch.arena, count: batch.arenaCount)
            arenaCount &+= batch.arenaCount
        }
    }

    /// Releases memory beyond the default capacities after an unusually large element.
    func shrinkIfOversized(tokenLimit: Int = 1 << 16, arenaLimit: Int = 1 << 20) {
        if tokenCapacity > tokenLimit && count * 4 < tokenLimit {
            tokens = TokenTape.reallocate(tokens, capacity: tokenLimit)
            tokenCapacity = tokenLimit
        }
        if arenaCapacity > arenaLimit && arenaCount * 4 < arenaLimit {
            arena = TokenTape.reallocate(arena, capacity: arenaLimit)
            arenaCapacity = arenaLimit
        }
    }

    @inline(never)
    private func growTokens(toFit extra: Int = 1) {
        var newCapacity = tokenCapacity * 2
        while newCapacity < count + extra { newCapacity *= 2 }
        tokens = TokenTape.reallocate(tokens, capacity: newCapacity)
        tokenCapacity = newCapacity
    }

    @inline(never)
    private func growArena(toFit needed: Int) {
        var newCapacity = arenaCapacity * 2
        while newCapacity < arenaCount + needed { newCapacity *= 2 }
        arena = TokenTape.reallocate(arena, capacity: newCapacity)
        arenaCapacity = newCapacity
    }
}
