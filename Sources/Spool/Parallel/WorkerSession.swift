/// What one worker thread of ``ParallelJSONElements`` keeps from one batch to the next: the
/// ``DecodingSession`` of a `Decodable` request, made at the worker's first batch.
///
/// A session learns as it decodes: the kind of each type, each key's conversion (snake case),
/// each coding key's text, the dates' pattern, the URLs it met. With a session per batch, every
/// batch learnt it all again. A worker decodes one batch at a time, so its session serves one
/// stream at a time, as a session must; the consumer's thread never uses it.
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
}
