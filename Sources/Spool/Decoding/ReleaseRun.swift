/// The children a loop over one container has passed and not released yet: what
/// ``DecodingContext/forEachChild(of:releasing:_:)`` and ``DecodingContext/ChildWalk`` release,
/// a run of at least ``DecodingContext/releaseRun`` tokens at a time, so that moving the tokens
/// parsed after them costs little. The one place that counts and releases passed children.
struct ReleaseRun {
    let container: Int
    /// The first child not released yet.
    private(set) var released: Int
    /// How many children were passed since ``released``.
    private(set) var children = 0

    init(container: Int, from first: Int) {
        self.container = container
        released = first
    }

    /// Notes one more child passed, the next starting at `next`; true when the run is long
    /// enough to release.
    @inline(__always)
    mutating func pass(to next: Int) -> Bool {
        children &+= 1
        return next &- released >= DecodingContext.releaseRun
    }

    /// Releases the first `count` of the children passed, which end before `stop`.
    mutating func release(upTo stop: Int, children count: Int, in tape: TokenTape) {
        tape.release(released, upTo: stop, ofContainer: container, children: count)
        released = stop
        children &-= count
    }
}
