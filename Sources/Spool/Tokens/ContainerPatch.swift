/// The end of a container whose start token is on a different tape: applied by the reader once
/// it holds both (see ``BackgroundPipeline``).
struct ContainerPatch {
    /// Absolute index of the container's start token.
    var start: Int
    /// Absolute index of its end token.
    var end: Int
    var children: Int

    /// Records the end in the start token, if `tape` still holds it.
    func apply(to tape: TokenTape) {
        assert(end > start, "a container ends before it starts")
        tape.close(start, end: end, children: children)
    }
}
