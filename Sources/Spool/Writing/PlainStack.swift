#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A growable stack of plain values in memory of its own: a ``JSONWriter``'s open containers
/// and its member records. Pushing and popping cost a store and a count, without an array's
/// uniqueness and capacity checks or out-of-line calls on the writer's hottest paths. Owned by
/// one writer, which frees it.
struct PlainStack<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        base = UnsafeMutablePointer<Element>.allocate(capacity: self.capacity)
    }

    /// Frees the memory; the stack is not used after.
    func deallocate() {
        base.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    var last: Element? { count > 0 ? base[count &- 1] : nil }

    subscript(index: Int) -> Element {
        @inline(__always) get { base[index] }
        @inline(__always) nonmutating set { base[index] = newValue }
    }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count &+= 1
    }

    @inline(never)
    private mutating func grow() {
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        grown.moveInitialize(from: base, count: count)
        base.deallocate()
        base = grown
        capacity *= 2
    }

    /// Removes the last element, which must exist, and returns it.
    @inline(__always)
    @discardableResult
    mutating func removeLast() -> Element {
        count &-= 1
        return base[count]
    }

    /// Forgets the elements from `range.lowerBound` on.
    @inline(__always)
    mutating func removeSubrange(_ range: PartialRangeFrom<Int>) {
        count = range.lowerBound
    }

    mutating func remove(at index: Int) {
        memmove(base + index, base + index + 1, (count - index - 1) * MemoryLayout<Element>.stride)
        count -= 1
    }
}
