/// The members of one huge object of a ``JSONStream`` (or a ``PushJSONStream``), each value
/// decoded as it arrives (like ijson's `kvitems`):
///
/// ```swift
/// let users = stream.members(of: User.self, at: "users_by_id")
/// while let (id, user) = try users.next() { ... }
/// ```
///
/// Memory is bounded by the largest value. Errors behave as for ``JSONElements``; a value's
/// path ends with its key (`users_by_id.u123.email`). Every member is handed out as it comes,
/// duplicate keys included.
public final class JSONMembers<Value> {
    private let core: StreamCore
    /// A second request on the stream: `next()` throws this once, then ends.
    private var refusal: StreamUsageError?
    private let isRefused: Bool

    private let decode: (_ start: Int, _ path: ElementPath) throws -> Value

    init(core: StreamCore, refusal: StreamUsageError?, decode: @escaping (_ start: Int, _ path: ElementPath) throws -> Value) {
        self.core = core
        self.decode = decode
        self.refusal = refusal
        isRefused = refusal != nil
    }

    /// Members handed out so far.
    public var count: Int { isRefused ? 0 : core.count }

    /// Whether the last member has been handed out (or an error has ended the sequence); see
    /// ``JSONElements/isFinished``.
    public var isFinished: Bool { isRefused ? refusal == nil : core.isFinished }

    /// The next member's key and decoded value; `nil` after the last one (for a
    /// ``PushJSONStream``, also while the next member waits for more input).
    /// - Throws: ``DecodeError``, ``ParseError``, or ``StreamUsageError`` for a second request
    ///   on the stream (or, on a ``PushJSONStream``, a call while another call on it is running).
    public func next() throws -> (key: String, value: Value)? {
        if isRefused {
            guard let refusal else { return nil }
            self.refusal = nil
            throw refusal
        }
        guard case .value(let member) = try core.exclusive("next()", { try core.nextMember(decode: decode) }) else { return nil }
        return member
    }

    /// Calls `body` with every remaining member.
    public func forEach(_ body: (String, Value) throws -> Void) throws {
        while let (key, value) = try next() { try body(key, value) }
    }
}
