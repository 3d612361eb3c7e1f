/// The members of one huge object of a ``JSONStream``, each value decoded as it arrives (like
/// ijson's `kvitems`):
///
/// ```swift
/// let users = stream.members(of: User.self, at: "users_by_id")
/// while let (id, user) = try users.next() { ... }
/// ```
///
/// Memory is bounded by the largest value. Errors behave as for ``JSONElements``; a value's
/// path ends with its key (`users_by_id.u123.email`).
public final class JSONMembers<Value: JSONDecodable> {
    private let stream: JSONStream
    private let path: JSONKeyPath
    private var started = false
    private var done = false
    /// A second request on the stream: `next()` throws this once.
    private var refusal: StreamUsageError?
    /// Members handed out so far.
    public private(set) var count = 0

    init(stream: JSONStream, path: JSONKeyPath, refusal: StreamUsageError?) {
        self.stream = stream
        self.path = path
        self.refusal = refusal
    }

    /// The next member's key and decoded value, or nil after the last one.
    /// - Throws: ``StreamUsageError`` when the stream had already handed out something else.
    public func next() throws -> (key: String, value: Value)? {
        if let refusal {
            self.refusal = nil
            done = true
            throw refusal
        }
        guard !done else { return nil }
        let reader = stream.reader
        do {
            if !started {
                started = true
                _ = try stream.navigate(to: path, container: .objectStart)
            }
            var token = try reader.next()
            while token == .objectEnd {
                stream.recorder.recordStreamedEnd(from: reader)
                guard try stream.advanceToNextValue(path: path, container: .objectStart) else {
                    done = true
                    return nil
                }
                token = try reader.next()
            }
            guard token != nil else {
                done = true
                return nil
            }
            let key = reader.text ?? ""
            let start = reader.position
            reader.pinnedFrom = start
            defer { reader.pinnedFrom = nil }
            try reader.readWholeValue(at: start)
            let context = DecodingContext(tape: reader.tape, rootIndex: start, basePath: stream.elementPath(path, .key(key)))
            count += 1
            return (key, try Extractor(context: context, index: start).decode(as: Value.self))
        } catch let error as ParseError {
            done = true
            throw error.noting(count, "member", of: path)
        } catch {
            done = true
            throw error
        }
    }

    /// Calls `body` with every remaining member.
    public func forEach(_ body: (String, Value) throws -> Void) throws {
        while let (key, value) = try next() { try body(key, value) }
    }
}
