/// The array types the decoder can read itself (``DecodableArray``), found without asking the
/// runtime whether they conform, for every session of the process.
///
/// `[Element]` conforms to ``DecodableArray`` when `Element` is `Decodable`, but `T.self as?
/// any DecodableArray.Type` on a type the process has not asked about before makes the runtime
/// scan every conformance record of every loaded image (about 300,000 instructions; seven
/// array types cost 2.3M of a first decode of twitter.json). Where an element type is at hand
/// with its conformance (a generic `Element: Decodable`), `[Element]`'s is known without a
/// scan. So each session notes `[T]` for every type `T` it meets, and hands its notes here
/// when it ends (one lock a session, not one a type); an array type met before its element
/// type is read by `Array`'s own `init(from:)` (the same values and errors), which meets the
/// element type; and one met again with its element type still unknown (its arrays were all
/// empty), or met when the table is full, is found by the cast.
enum KnownArrays {
    /// `.array` for an array type whose element type was met; `.model` for one met before
    /// its element type. Touched only under `lock`.
    nonisolated(unsafe) private static var table = TypeKinds()
    /// A pthread mutex, not `Synchronization.Mutex`: the Thread Sanitizer sees what it orders
    /// (the standard library's futex is not instrumented, so every access looked like a race).
    private static let lock = Monitor()

    /// The most types kept: a process meets a few hundred.
    static let capacity = 4096

    /// Notes that the array type `id` is met, and returns what is known of it: nil the first
    /// time, `.model` when met before with its element type unknown (or when there is no room
    /// to note it: cast it, then), else `.array`.
    static func meet(_ id: ObjectIdentifier) -> DecodingSession.ValueKind? {
        lock.withLock {
            if let kind = table.kind(of: id) { return kind }
            guard table.count < capacity else { return .model }
            table.set(id, .model)
            return nil
        }
    }

    /// Adds the array kinds a session found (``DecodingSession``): each `.array`, keyed by its
    /// own metatype.
    static func add(_ found: [(id: ObjectIdentifier, kind: DecodingSession.ValueKind)]) {
        guard !found.isEmpty else { return }
        lock.withLock {
            for (id, kind) in found {
                if case .array? = table.kind(of: id) { continue }
                if table.count < capacity || table.kind(of: id) != nil { table.set(id, kind) }
            }
        }
    }
}
