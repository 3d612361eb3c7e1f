extension Array {
    /// An array of `count` elements that `body` initializes in place, as
    /// `Array(unsafeUninitializedCapacity:initializingWith:)` makes it: for the decoders'
    /// arrays whose count is known, where an append per element, in code generic over
    /// `Element`, would ask the runtime for `[Element]`'s metadata each time.
    ///
    /// Except when `count` is 0: `body` then runs on an empty buffer (its checks still hold),
    /// and the empty array is returned. The standard library's initializer writes the count
    /// into its one shared empty array when the capacity is 0, which is a data race between
    /// threads that decode empty arrays at once (ThreadSanitizer, with parallel workers).
    @inline(__always)
    static func filledInPlace(
        count: Int, _ body: (_ buffer: inout UnsafeMutableBufferPointer<Element>, _ initialized: inout Int) throws -> Void
    ) rethrows -> [Element] {
        guard count > 0 else {
            var buffer = UnsafeMutableBufferPointer<Element>(start: nil, count: 0)
            var initialized = 0
            try body(&buffer, &initialized)
            return []
        }
        return try [Element](unsafeUninitializedCapacity: count, initializingWith: body)
    }
}
