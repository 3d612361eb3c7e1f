#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of input that Spool still needs: from a little before the oldest unfinished token
/// to the last byte read. Offsets are absolute (counted from the start of the input).
///
/// ```text
///  discarded | context | pending token | parsed ... | unparsed (held back) | free
///            ^base                                   ^parsedEnd             ^end     ^base+capacity
/// ```
///
/// New input is written straight into the free space (`read(2)` lands here), yajl parses from
/// `parsedEnd`, and the bytes of a token that yajl has not finished yet stay, so the engine can
/// check its raw text and report errors with context.
///
/// One owner changes it: the ``YajlFeed`` (reading, appending, discarding). The ``TapeWriter``
/// holds the same window to read the bytes of the tokens it records, and never changes it.
///
/// **Lent input.** For input held whole in memory, the window can read the caller's bytes in
/// place for the length of a call (``readingInPlace(_:from:_:)``): reading a chunk then only
/// moves its end, and discarding moves its start, where the window would copy every byte
/// once (0.63M instructions of a 0.63 MB document). Nothing is ever written to lent bytes:
/// anything that would write (``freeSpace(minimum:)``) first copies what the window still
/// holds into storage of its own, as the end of the loan does.
final class InputWindow {
    private(set) var storage: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    /// Absolute offset of `storage[0]`.
    private(set) var base: Int = 0
    /// Number of valid bytes in `storage`.
    private(set) var count: Int = 0
    /// While input is lent (``readingInPlace(_:from:_:)``): the window's own storage and its
    /// capacity, kept for the end of the loan. `storage` then points into the lent bytes.
    private var own: (storage: UnsafeMutablePointer<UInt8>, capacity: Int)?

    init(capacity: Int) {
        self.capacity = max(64, capacity)
        storage = InputWindow.reallocate(nil, capacity: self.capacity)
    }

    deinit { free(own?.storage ?? storage) }

    /// Runs `body` with the window reading `input`, the whole input from its first byte, in
    /// place: each read from `source` (whose bytes `input` are) takes the next bytes of `input`
    /// without copying them, and `source` skips them. When the call returns, the bytes the
    /// window still holds are copied into its own storage, so nothing refers to `input` after
    /// it. Only before any byte has arrived; otherwise `body` runs as usual.
    func readingInPlace<R>(_ input: UnsafeRawBufferPointer, from source: any ByteSource, _ body: () throws -> R) rethrows -> R {
        guard own == nil, base == 0, count == 0, let start = input.baseAddress else { return try body() }
        own = (storage, capacity)
        // Never written: see ``freeSpace(minimum:)``.
        storage = UnsafeMutablePointer(mutating: start.assumingMemoryBound(to: UInt8.self))
        capacity = input.count
        lentSource = source
        defer { endLoan() }
        return try body()
    }

    /// The source of the lent bytes, which skips what the window takes.
    private var lentSource: (any ByteSource)?

    /// Whether the window reads lent bytes in place.
    var isLent: Bool { own != nil }

    /// Copies the bytes the window holds out of the lent input into its own storage.
    private func endLoan() {
        guard let (ownStorage, ownCapacity) = own else { return }
        own = nil
        lentSource = nil
        var target = ownStorage
        var targetCapacity = ownCapacity
        if targetCapacity < count {
            targetCapacity = max(count, 64)
            target = InputWindow.reallocate(target, capacity: targetCapacity)
        }
        if count > 0 { UnsafeMutableRawPointer(target).copyMemory(from: storage, byteCount: count) }
        storage = target
        capacity = targetCapacity
    }

    /// Makes the input start at `offset` (a resumed reader's, ``ResumePoint``), before any byte.
    func start(at offset: Int) {
        assert(count == 0, "the input starts before it arrives")
        base = offset
    }

    /// `realloc`: a large buffer grows or shrinks by remapping its pages, without a second copy
    /// of its bytes alive meanwhile. Allocation failure is not recoverable here (as for any
    /// Swift allocation), so it stops the process with a message.
    private static func reallocate(_ pointer: UnsafeMutablePointer<UInt8>?, capacity: Int) -> UnsafeMutablePointer<UInt8> {
        guard let raw = realloc(pointer, capacity) else {
            var message = "Spool: out of memory allocating \(capacity) bytes for the input window\n"
            message.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
            abort()
        }
        return raw.bindMemory(to: UInt8.self, capacity: capacity)
    }

    /// Absolute offset one past the last byte read.
    var end: Int { base + count }

    @inline(__always)
    subscript(offset: Int) -> UInt8 { storage[offset - base] }

    @inline(__always)
    func pointer(at offset: Int) -> UnsafeMutablePointer<UInt8> { storage + (offset - base) }

    /// Free space for at least `minimum` more bytes, growing the storage when needed. (Lent
    /// bytes are never written: the loan ends first.)
    func freeSpace(minimum: Int) -> UnsafeMutableRawBufferPointer {
        if own != nil { endLoan() }
        if capacity - count < minimum {
            var newCapacity = capacity * 2
            while newCapacity - count < minimum { newCapacity *= 2 }
            storage = InputWindow.reallocate(storage, capacity: newCapacity)
            capacity = newCapacity
        }
        return UnsafeMutableRawBufferPointer(start: storage + count, count: capacity - count)
    }

    /// Marks `written` bytes of the free space as input.
    func commit(_ written: Int) {
        count += min(max(0, written), capacity - count)
    }

    /// Reads up to `count` bytes from `source` into the free space, growing the storage when
    /// needed. Returns how many were read: 0 at the end of the input.
    func read(from source: any ByteSource, upTo count: Int) throws(InputError) -> Int {
        if own != nil, let lentSource, lentSource === source {
            // The next bytes are in place already: the source passes over them.
            let taken = try source.skip(min(count, capacity &- self.count))
            self.count &+= taken
            return taken
        }
        let space = freeSpace(minimum: count)
        let read = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: space.prefix(count)))
        commit(read)
        return read
    }

    /// The first form feed or vertical tab from `start` to `end`: whitespace to yajl, an error
    /// to Spool (outside comments).
    func firstBadWhitespace(from start: Int, to end: Int) -> Int? {
        guard start < end else { return nil }
        return StrictnessScan.firstBadWhitespace(pointer(at: start), count: end - start).map { start + $0 }
    }

    /// Searches backwards for the `"` that opens the string ending (past its closing quote) at
    /// `end`, not below `low`: the first quote not preceded by an odd number of backslashes.
    @inline(never)
    func openingQuote(end: Int, low: Int) -> Int {
        let low = max(low, base)
        var p = end &- 2
        while p >= low {
            if self[p] == UInt8(ascii: "\"") {
                var backslashes = 0
                while p - 1 - backslashes >= low && self[p - 1 - backslashes] == UInt8(ascii: "\\") { backslashes += 1 }
                if backslashes % 2 == 0 { return p }
            }
            p &-= 1
        }
        return low
    }

    /// The first `"` from `low` up to `end`, or nil: the opening quote of a string that ends
    /// at `end`, when only whitespace and separators lie between `low` and it (the end of the
    /// token before it), found forwards over those few bytes instead of backwards over the
    /// string (a string with escapes is found that way: twitter.json's URLs, 0.4M instructions).
    @inline(__always)
    func firstQuote(from low: Int, to end: Int) -> Int? {
        let low = max(low, base)
        guard low < end, let hit = memchr(pointer(at: low), Int32(UInt8(ascii: "\"")), end &- low) else { return nil }
        return low &+ (UnsafeRawPointer(hit) - UnsafeRawPointer(pointer(at: low)))
    }

    /// Forgets the bytes below the absolute offset `offset`, moving the rest to the front, and
    /// returns to `preferredCapacity` when an unusually long token had grown the storage.
    func discard(below offset: Int, preferredCapacity: Int) {
        let drop = min(max(0, offset - base), count)
        if own != nil {
            // Lent bytes stay where they are: the window starts further on.
            storage += drop
            capacity -= drop
            base += drop
            count -= drop
            return
        }
        if drop > 0 {
            let keep = count - drop
            UnsafeMutableRawPointer(storage).copyMemory(from: storage + drop, byteCount: keep)
            base += drop
            count = keep
        }
        if capacity > 4 * preferredCapacity && count * 2 < preferredCapacity {
            storage = InputWindow.reallocate(storage, capacity: preferredCapacity)
            capacity = preferredCapacity
        }
    }
}
