/// Releasing decoded elements: how a whole-document decoder keeps memory flat.
///
/// While `decodeValue(from:)` decodes an array
/// (or a dictionary) of the document, each element it has finished with is released: its
/// tokens and text leave the buffers, and the tokens parsed after them move down. What is left
/// is one gap of absolute indices, `gapStart ..< gapStart + gapLength`, holding the first
/// `gapChildren` children of `gapContainer`. Indices keep their meaning: the tokens before the
/// gap (the path down to the container) and after it are read as before, ``contains(_:)`` is
/// false inside it, and decoders check before stepping in.
extension TokenTape {
    /// Whether the children of `container` starting at `first` may be released: the tape has
    /// no gap yet (and `first` is the container's first child), or its gap ends right at
    /// `first` within the same container.
    func canRelease(from first: Int, ofContainer container: Int) -> Bool {
        if gapLength == 0 { return first == container &+ 1 && contains(container) }
        return gapContainer == container && gapStart &+ gapLength == first
    }

    /// Releases the complete children `first ..< stop` (`children` of them) of `container`;
    /// ``canRelease(from:ofContainer:)`` must hold and every token up to `stop` be on the tape.
    func release(_ first: Int, upTo stop: Int, ofContainer container: Int, children: Int) {
        guard stop > first, canRelease(from: first, ofContainer: container), stop <= end else { return }
        defer { assertConsistent() }
        // Text bytes: from the first text token at or after `first` to the first after `stop`.
        let arenaStart = firstText(from: first, to: stop) ?? arenaEnd
        let arenaStop = firstText(from: stop, to: end) ?? arenaEnd
        releaseLines(from: self[first].offset, keptOffset: stop < end ? self[stop].offset : nil)
        let physicalFirst = physical(first)
        let physicalStop = physical(stop)
        (tokens + physicalFirst).update(from: tokens + physicalStop, count: count &- physicalStop)
        count &-= physicalStop &- physicalFirst
        if gapLength == 0 {
            gapStart = first
            gapContainer = container
        }
        gapLength &+= stop &- first
        gapChildren &+= children
        let adjoins = arenaGapLength == 0 || arenaGapStart &+ arenaGapLength == arenaStart
        if arenaStop > arenaStart && adjoins {  // (text is laid out in token order, so it adjoins)
            let physicalArenaStart = physicalArena(arenaStart)
            let physicalArenaStop = physicalArena(arenaStop)
            (arena + physicalArenaStart).update(from: arena + physicalArenaStop, count: arenaCount &- physicalArenaStop)
            arenaCount &-= physicalArenaStop &- physicalArenaStart
            if arenaGapLength == 0 { arenaGapStart = arenaStart }
            arenaGapLength &+= arenaStop &- arenaStart
        }
    }

    /// The arena offset of the first token with text in `from ..< to`.
    private func firstText(from: Int, to: Int) -> Int? {
        var index = from
        while index < to {
            let token = self[index]
            if token.hasText { return token.payload }
            index &+= 1
        }
        return nil
    }

    func clearGap() {
        gapStart = Int.max
        gapLength = 0
        gapContainer = -1
        gapChildren = 0
    }

    func clearArenaGap() {
        arenaGapStart = Int.max
        arenaGapLength = 0
    }
}
