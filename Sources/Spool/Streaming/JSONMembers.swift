/// The members of one huge object of a ``JSONStream`` (or a ``PushJSONStream``), each value
/// decoded as it arrives (like ijson's `kvitems`):
///
/// ```swift
/// let users = stream.members(of: User.self, at: "users_by_id")
/// while let (id, user) = try users.next() { print(id, user.name) }
/// ```
///
/// Memory is bounded by the largest value. Errors behave as for ``JSONElements``; a value's
/// path ends with its key (`users_by_id.u123.email`). Every member is handed out as it comes,
/// duplicate keys included.
public final class JSONMembers<Value> {
    private let request: StreamRequest<(key: String, value: Value)>
    /// The threads that decode the members instead of the request's stream, when the stream
    /// decodes them in parallel (``JSONStream/members(of:at:parallelism:)``). Internal for tests.
    let parallel: ParallelRequest<(key: String, value: Value)>?

    init(_ request: StreamRequest<(key: String, value: Value)>, parallel: ParallelRequest<(key: String, value: Value)>? = nil) {
        self.request = request
        self.parallel = parallel
    }

    /// Members handed out so far.
    public var count: Int { parallel?.count ?? request.count }

    /// Whether the last member has been handed out (or an error has ended the sequence); see
    /// ``JSONElements/isFinished``.
    public var isFinished: Bool { parallel?.isFinished ?? request.isFinished }

    /// The next member's key and decoded value; `nil` after the last one (for a
    /// ``PushJSONStream``, also while the next member waits for more input).
    /// - Throws: ``DecodeError``, ``ParseError``, or ``UsageError`` for a second request
    ///   on the stream (or, on a ``PushJSONStream``, a call while another call on it is running),
    ///   and from the first call for a decoder whose date pattern Spool does not read.
    public func next() throws -> (key: String, value: Value)? {
        if let parallel { return try parallel.next() }
        return try request.next()
    }

    /// Calls `body` with every remaining member.
    public func forEach(_ body: (String, Value) throws -> Void) throws {
        while let (key, value) = try next() { try body(key, value) }
    }
}
