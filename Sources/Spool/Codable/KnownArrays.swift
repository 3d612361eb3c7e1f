import Synchronization

/// The array types the decoder can read itself (``DecodableArray``), found without asking the
/// runtime whether they conform, for every session of the process.
///
/// `[Element]` conforms to ``DecodableArray`` when `Element` is `Decodable`, but `T.self as?
/// any DecodableArray.Type` on a type the process has not asked about before makes the runtime
/// scan every conformance record of every loaded image: about 320,000 instructions an array
/// type, 2.3M of a first decode of twitter.json (49M). Where an element type is at hand with
/// its conformance (a generic `Element: Decodable`), `[Element]`'s is known without a scan.
/// So every type the decoder meets adds its array type here; an array type met before its
/// element type is read by `Array`'s own `init(from:)` (the same values and errors), which
/// meets the element type; and one met again with its element type still unknown (its
/// arrays were all empty) is found by the cast, once.
enum KnownArrays {
    /// `.array` for an array type whose element type was met; `.model` for one met before
    /// its element type.
    private static let kinds = Mutex(TypeKinds())

    /// Notes that the array type `id` is met, and returns what is known of it: nil the first
    /// time, `.model` when met before with its element type unknown, else `.array`.
    static func meet(_ id: ObjectIdentifier) -> DecodingSession.ValueKind? {
        kinds.withLock { kinds in
            if let kind = kinds.kind(of: id) { return kind }
            if kinds.count < 4096 { kinds.set(id, .model) }  // (bounded: a process meets a few hundred types)
            return nil
        }
    }

    /// Adds `[Element]`, and returns its type and kind.
    static func add<Element: Decodable>(
        arrayOf element: Element.Type
    ) -> (id: ObjectIdentifier, kind: DecodingSession.ValueKind) {
        let id = ObjectIdentifier([Element].self)
        let kind = kinds.withLock { kinds in
            if let known = kinds.kind(of: id), case .array = known { return known }
            let kind = DecodingSession.ValueKind.array([Element].self)
            if kinds.count < 4096 { kinds.set(id, kind) }
            return kind
        }
        return (id, kind)
    }

    /// Records that the array type `id` is `array`, found by a cast.
    static func add(_ id: ObjectIdentifier, _ array: any DecodableArray.Type) {
        let kind = DecodingSession.ValueKind.array(array)
        kinds.withLock { kinds in
            if kinds.count < 4096 || kinds.kind(of: id) != nil { kinds.set(id, kind) }
        }
    }
}
