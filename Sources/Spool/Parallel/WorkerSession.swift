/// What one worker thread of ``ParallelJSONElements`` keeps from one batch to the next: the
/// ``DecodingSession`` of a `Decodable` request, made at the worker's first batch.
///
/// A session learns as it decodes: the kind of each type, each key's conversion (snake case),
/// each coding key's text, the dates' pattern, the URLs it met. With a session per batch, every
/// batch learnt it all again. A worker decodes one batch at a time, so its session serves one
/// stream at a time, as a session must.
///
/// A model may keep its decoder or a container (Foundation allows reading one after
/// `init(from:)` returns), and a container reads and writes its session when it looks a key
/// up. So a batch whose values (or skip reports) hold the session leaves it to them:
/// ``batchEnded()``, called before the batch is handed over, keeps the session for the next
/// batch only when nothing else holds it, and says when something did. (Such a batch is read
/// again on the consumer's thread, ``DecodedBatch/keepsDecoders``: its stream has released
/// the tokens its values' containers would read, where the serial stream still holds an
/// element's tokens when it hands the element out.)
final class WorkerSession {
    private var session: DecodingSession?

    /// The worker's session for `configuration` (the request's, the same for every batch).
    /// - Throws: ``UsageError`` for a `.pattern` date strategy Spool cannot read (which the
    ///   serial request refused already, before any worker started).
    func session(for configuration: StreamingJSONDecoder.Configuration) throws(UsageError) -> DecodingSession {
        if let session { return session }
        let made = try DecodingSession(configuration)
        session = made
        return made
    }

    /// After a batch is decoded and before it is handed over: lets go of the session when
    /// anything the batch made still holds it (a kept decoder or container), so that the next
    /// batch makes its own, and returns true then. (The batch's stream is gone by then;
    /// nothing the consumer has yet can hold this session, since a session held after an
    /// earlier batch was let go then.)
    @discardableResult
    func batchEnded() -> Bool {
        guard var kept = session else { return false }
        session = nil
        guard isKnownUniquelyReferenced(&kept) else { return true }
        session = kept
        return false
    }

    /// Whether the worker holds a session (for tests).
    var holdsSession: Bool { session != nil }
}
