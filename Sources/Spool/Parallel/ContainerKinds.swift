/// The kinds of the open containers (array or object), innermost last: one bit a level, the
/// innermost 64 in a register and the rest in an array, so that memory is O(depth / 64) words
/// and the common shallow document never touches the array.
struct ContainerKinds {
    /// Bit 0 is the innermost container (1 for an object); up to 64 levels.
    private var recent: UInt64 = 0
    /// Full words of 64 outer levels each, outermost first.
    private var spilled: [UInt64] = []
    /// The number of open containers.
    private(set) var depth = 0

    /// Opens a container.
    @inline(__always)
    mutating func push(isObject: Bool) {
        if depth & 63 == 0 && depth > 0 {
            spilled.append(recent)
            recent = 0
        }
        recent = recent << 1 | (isObject ? 1 : 0)
        depth += 1
    }

    /// Closes the innermost container: whether it was an object, or nil when none is open.
    @inline(__always)
    mutating func pop() -> Bool? {
        guard depth > 0 else { return nil }
        let isObject = recent & 1 == 1
        recent >>= 1
        depth -= 1
        if depth & 63 == 0 && depth > 0 {
            recent = spilled.popLast() ?? 0
        }
        return isObject
    }
}
