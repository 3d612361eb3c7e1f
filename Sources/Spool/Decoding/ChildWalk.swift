extension DecodingContext {
    /// A walk over the children of one container that its caller steps itself (Codable's
    /// unkeyed containers), on the same ``ChildSteps`` as ``forEachChild(of:releasing:_:)``,
    /// releasing the children it has passed when it may.
    ///
    /// A child can outlive the step past it: a nested container handed out for it is read
    /// after the walk has moved on. Such a child is held by a ``Lease`` (``lease()``); while
    /// a lease lives, the walk releases nothing from its child on.
    final class ChildWalk {
        /// The steps: where the walk is, and the children passed not released yet.
        private var steps: ChildSteps
        var container: Int { steps.container }
        /// The next child's first token.
        var child: Int { steps.child }
        /// Children passed so far, over the whole walk.
        private var passed = 0
        private var ended = false
        /// The leases handed out that may still be alive (one held only here is dead).
        private var leases: [Lease] = []
        private let context: DecodingContext

        /// Holds a child of a releasing walk (and those after it) on the tape while it lives.
        final class Lease {
            /// The child's first token, and how many children the walk had passed before it.
            let start: Int
            let ordinal: Int

            init(start: Int, ordinal: Int) {
                self.start = start
                self.ordinal = ordinal
            }
        }

        /// A walk over the children of `container` from its child at `child` (its first, by
        /// default).
        init(context: DecodingContext, container: Int, from child: Int? = nil, releasing: Bool) {
            self.context = context
            steps = ChildSteps(container: container, from: child ?? container + 1, releasing: releasing, in: context)
        }

        /// Whether the next token is the container's end.
        func isAtEnd() throws -> Bool {
            try steps.isAtEnd(in: context)
        }

        /// A lease on the next child, for a container that reads it after the walk has moved
        /// past it; nil when the walk releases nothing.
        func lease() -> Lease? {
            guard steps.releases, !ended else { return nil }
            let lease = Lease(start: child, ordinal: passed)
            leases.append(lease)
            return lease
        }

        /// Moves past the child at ``child``, releasing a run of passed children when it is long
        /// enough.
        func advance() throws {
            let due = try steps.advance(pastValueAt: steps.child, in: context)
            guard steps.releases else { return }
            passed += 1
            if due { releasePassed() }
            if try isAtEnd() { end() }
        }

        /// Releases the children passed, up to the first one a live lease holds.
        private func releasePassed() {
            var stop = child
            var count = steps.run.children
            var i = 0
            while i < leases.count {
                if isKnownUniquelyReferenced(&leases[i]) {
                    leases.remove(at: i)  // (its container is gone)
                    continue
                }
                if leases[i].start < stop {
                    stop = leases[i].start
                    count = leases[i].ordinal - (passed - steps.run.children)
                }
                i += 1
            }
            guard count > 0 else { return }
            steps.release(upTo: stop, children: count, in: context)
        }

        /// Releases what is left to release and lets another loop release.
        func end() {
            guard steps.releases, !ended else { return }
            ended = true
            if steps.run.children > 0 { releasePassed() }
            steps.end(in: context)
        }

        deinit { end() }
    }
}

extension DecodingContext {
    /// The steps of one walk over the children of a container: the one place that moves past a
    /// child (a key and its value, in an object) and counts the children passed for release
    /// (``ReleaseRun``). ``forEachChild(of:releasing:_:)`` steps it in a loop; a ``ChildWalk``
    /// is stepped by its caller and holds children back for leases.
    struct ChildSteps {
        let container: Int
        /// The next child's first token (a key, in an object).
        private(set) var child: Int
        /// Whether this walk releases the children it passes: it is the context's one releasing
        /// loop (``startsReleasing(_:)``) until ``end(in:)``.
        let releases: Bool
        /// The children passed and not released yet.
        private(set) var run: ReleaseRun

        @inline(__always)
        init(container: Int, from child: Int, releasing: Bool, in context: DecodingContext) {
            self.container = container
            self.child = child
            run = ReleaseRun(container: container, from: child)
            releases = releasing && context.startsReleasing(container)
        }

        /// Whether the next token is the container's end, reading on until it is there.
        @inline(__always)
        func isAtEnd(in context: DecodingContext) throws -> Bool {
            try context.ensure(child)
            return context.tape[child].isContainerEnd
        }

        /// Moves past the child whose value starts at `value` (``child``, or its key's value);
        /// true when the children passed make a run long enough to release.
        @inline(__always)
        mutating func advance(pastValueAt value: Int, in context: DecodingContext) throws -> Bool {
            child = try context.lastIndex(ofValueAt: value) &+ 1
            return releases && run.pass(to: child)
        }

        /// Releases the first `count` children passed, up to `stop`.
        @inline(__always)
        mutating func release(upTo stop: Int, children count: Int, in context: DecodingContext) {
            run.release(upTo: stop, children: count, in: context.tape)
        }

        /// Ends the walk's releasing: another loop may release.
        @inline(__always)
        func end(in context: DecodingContext) {
            if releases { context.isReleasing = false }
        }
    }
}
