extension DecodingContext {
    /// For a wide object: the first key token with each hash, for its members before `end`
    /// (``KeysPassed/first(_:ofObjectAt:before:in:keys:)``). It belongs to the object, not to
    /// a lookup's progress, so the notes of every container reading that object share it.
    struct KeyIndex {
        /// The object indexed (its start token), or -1.
        private(set) var object = -1
        /// Whether its keys are indexed as converted by a key decoding strategy.
        private(set) var converted = false
        /// The key token of the first member not indexed yet.
        var end = -1
        private var firstByHash: [Int: Int] = [:]

        /// Starts over, for the object at `object`.
        mutating func reset(for object: Int, converted: Bool) {
            self.object = object
            self.converted = converted
            end = object &+ 1
            if !firstByHash.isEmpty { firstByHash.removeAll(keepingCapacity: true) }
        }

        /// Notes the member whose key token, with hash `hash`, is at `index`, unless an earlier
        /// one has that hash.
        mutating func note(_ hash: Int, at index: Int) {
            if firstByHash[hash] == nil { firstByHash[hash] = index }
        }

        /// The first key token indexed with hash `hash`.
        func first(withHash hash: Int) -> Int? { firstByHash[hash] }
    }
}
