extension DecodingContext {
    /// A walk over the children of one container that its caller steps itself (Codable's
    /// unkeyed containers), releasing the children it has passed as ``forEachChild(of:releasing:_:)``
    /// does, when it may.
    ///
    /// A child can outlive the step past it: a nested container handed out for it is read
    /// after the walk has moved on. Such a child is held by a ``Lease`` (``lease()``); while
    /// a lease lives, the walk releases nothing from its child on.
    final class ChildWalk {
        let container: Int
        /// The next child's first token.
        var child: Int
        private let releases: Bool
        /// The children passed and not released yet.
        private var run: ReleaseRun
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

        init(context: DecodingContext, container: Int, releasing: Bool) {
            self.context = context
            self.container = container
            child = container + 1
            run = ReleaseRun(container: container, from: child)
            releases = releasing && context.startsReleasing(container)
        }

        /// Whether the next token is the container's end.
        func isAtEnd() throws -> Bool {
            try context.ensure(child)
            return context.tape[child].isContainerEnd
        }

        /// A lease on the next child, for a container that reads it after the walk has moved
        /// past it; nil when the walk releases nothing.
        func lease() -> Lease? {
            guard releases, !ended else { return nil }
            let lease = Lease(start: child, ordinal: passed)
            leases.append(lease)
            return lease
        }

        /// Moves past the child at ``child``, releasing a run of passed children when it is long
        /// enough.
        func advance() throws {
            child = try context.lastIndex(ofValueAt: child) + 1
            guard releases else { return }
            passed += 1
            if run.pass(to: child) { releasePassed() }
            if try isAtEnd() { end() }
        }

        /// Releases the children passed, up to the first one a live lease holds.
        private func releasePassed() {
            var stop = child
            var count = run.children
            var i = 0
            while i < leases.count {
                if isKnownUniquelyReferenced(&leases[i]) {
                    leases.remove(at: i)  // (its container is gone)
                    continue
                }
                if leases[i].start < stop {
                    stop = leases[i].start
                    count = leases[i].ordinal - (passed - run.children)
                }
                i += 1
            }
            guard count > 0 else { return }
            run.release(upTo: stop, children: count, in: context.tape)
        }

        /// Releases what is left to release and lets another loop release.
        func end() {
            guard releases, !ended else { return }
            ended = true
            if run.children > 0 { releasePassed() }
            context.isReleasing = false
        }

        deinit { end() }
    }
}
