/// A stack of trivial values in manually managed storage: no reference counting, no
/// uniqueness checks, no exclusivity bookkeeping. Used for the open containers the tape
/// writer, the cursor and ``JSONWriter`` track on every token, and for a `JSONWriter`'s
/// member records.
struct LevelStack<Element> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 64) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    /// Frees the storage; the owner calls this from its `deinit`.
    func deallocate() {
        base.deinitialize(count: count)
        base.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    /// The innermost level. Only valid when not empty.
    var top: UnsafeMutablePointer<Element> { base + (count &- 1) }

    @inline(__always)
    subscript(level: Int) -> Element {
        get { base[level] }
        nonmutating set { base[level] = newValue }
    }

    @inline(__always)
    mutating func push(_ element: Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count += 1
    }

    /// Drops the innermost level. Only valid when not empty.
    @inline(__always)
    mutating func removeTop() {
        count &-= 1
        (base + count).deinitialize(count: 1)
    }

    @inline(__always)
    mutating func pop() -> Element? {
        guard count > 0 else { return nil }
        count -= 1
        return (base + count).move()
    }

    /// The innermost element, if any.
    var last: Element? { count > 0 ? base[count &- 1] : nil }

    /// Drops the elements from `range.lowerBound` on (a count not above ``count``).
    @inline(__always)
    mutating func removeSubrange(_ range: PartialRangeFrom<Int>) {
        guard range.lowerBound < count else { return }
        (base + range.lowerBound).deinitialize(count: count &- range.lowerBound)
        count = range.lowerBound
    }

    /// Removes the elements in `range` (within ``count``), moving the later ones down.
    mutating func removeSubrange(_ range: Range<Int>) {
        guard range.lowerBound < range.upperBound else { return }
        let later = count &- range.upperBound
        (base + range.lowerBound).deinitialize(count: range.count)
        (base + range.lowerBound).moveInitialize(from: base + range.upperBound, count: later)
        count &-= range.count
    }

    /// Removes the element at `index` (below ``count``), moving the later ones down.
    mutating func remove(at index: Int) {
        (base + index).deinitialize(count: 1)
        (base + index).moveInitialize(from: base + (index &+ 1), count: count &- index &- 1)
        count &-= 1
    }

    @inline(never)
    private mutating func grow() {
        let fresh = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        fresh.moveInitialize(from: base, count: count)
        base.deallocate()
        base = fresh
        capacity *= 2
    }
}
