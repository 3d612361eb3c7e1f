/// Member lookup: the value of a key in an object on the tape, for the operators
/// (``Extractor``) and for `Decodable` models (``KeyedContainer``) alike. It lives on the
/// context, which holds its state (the hint and ``KeysPassed``), so that a lookup made for a
/// model takes no reference to it.
extension DecodingContext {
    /// The index of the value of member `wanted` (UTF-8) in the object at `object`, comparing
    /// each member's key as `keys` sees it (converted by a key decoding strategy), or nil
    /// (see ``Extractor/member(_:ofObjectAt:)``).
    @inline(__always)
    func member<Keys: MemberKeys>(utf8 wanted: UnsafeBufferPointer<UInt8>, ofObjectAt object: Int, keys: Keys) throws -> Int? {
        try member(WantedKey(wanted), ofObjectAt: object, keys: keys, in: &lookups)
    }

    /// ``member(utf8:ofObjectAt:keys:)`` for `wanted`, going on from where `lookups` (a keyed
    /// container's own) has got to, and noting how far it went there.
    func member<Keys: MemberKeys>(
        _ wanted: WantedKey, ofObjectAt object: Int, keys: Keys, in lookups: inout MemberLookups
    ) throws -> Int? {
        // Where the previous lookup in this object ended, when the keys it passed are still
        // the ones noted (a lookup in another object, even one that found nothing, notes that
        // object's keys instead; keys seen another way are noted apart): else from the first
        // member.
        let continuing = lookups.hintObject == object && lookups.hintValue > object
            && lookups.keysPassed.object == object && lookups.keysPassed.converted == Keys.converts
        if !continuing {
            // The hint goes with the notes: a lookup that finds nothing forgets the members it
            // passed (``KeysPassed/restore(_:)``), so a hint kept from before the notes were
            // dropped would skip members no note covers.
            lookups.hintObject = -1
            lookups.keysPassed.reset(for: object, converted: Keys.converts)
        }
        if let span = tape.closedSpan(ofContainerAt: object) {
            switch try member(wanted, inClosedObject: object, span: span, continuing: continuing, keys: keys, lookups: &lookups) {
            case .found(let value): return value
            case .missing: return nil
            case .unsure: break
            }
        }
        return try memberWhileReading(wanted, ofObjectAt: object, continuing: continuing, keys: keys, lookups: &lookups)
    }

    /// The lookup in an object that is whole on the tape and held in one piece (most objects,
    /// since the parser runs ahead): its tokens are read straight from memory, with no check
    /// for tokens not parsed yet or released. `.unsure` when a token does not fit the
    /// object's shape, for the general lookup to answer.
    @inline(__always)
    private func member<Keys: MemberKeys>(
        _ wanted: WantedKey, inClosedObject object: Int, span: TokenTape.Span, continuing: Bool, keys: Keys,
        lookups: inout MemberLookups
    ) throws -> SpanLookup {
        let tape = self.tape
        let tokens = span.tokens  // tokens[0] is the object's start token
        let end = span.end &- object  // the object's end token, counted from its start
        // Where the member after `key` starts, or nil for a broken shape.
        @inline(__always) func next(after key: Int) -> Int? {
            let value = tokens[key &+ 1]
            guard value.isContainerStart else { return key &+ 2 }
            let last = value.payload &- object
            return last > key &+ 1 && last < end ? last &+ 1 : nil
        }
        var start = 1
        if continuing {
            let hint = lookups.hintValue &- object
            guard hint < end else { return .unsure }
            let token = tokens[hint]
            if token.isContainerStart {
                let last = token.payload &- object
                guard last > hint && last < end else { return .unsure }
                start = last &+ 1
            } else {
                start = hint &+ 1
            }
        }
        // The common case: the member at the start has the key, byte for byte, and no member
        // passed before it may have it (the first lookup in an object passed none).
        if start < end {
            let bytes = keys.key(tape.bytes(of: tokens[start]))
            if KeyComparison.equal(bytes, wanted.utf8) {
                // The member's key is `wanted`'s bytes: noted with `wanted`'s bits.
                let key = object &+ start
                let mayBeEarlier: Bool
                if start == 1 {
                    lookups.keysPassed.insert(wanted, at: key)
                    mayBeEarlier = false
                } else {
                    mayBeEarlier = lookups.keysPassed.noteFound(wanted, at: key)
                }
                if !mayBeEarlier {
                    lookups.hintObject = object
                    lookups.hintValue = key &+ 1
                    return .found(key &+ 1)
                }
            }
        }
        let mayBeEarlier = start > 1 && lookups.keysPassed.mayContain(wanted)
        let mark = lookups.keysPassed.mark
        var child = start
        while child < end {
            let bytes = keys.key(tape.bytes(of: tokens[child]))
            lookups.keysPassed.insert(bytes, at: object &+ child)
            if KeyComparison.matches(bytes, wanted.utf8) {
                let value = object &+ child &+ 1
                var found = value
                // A member found after the hint, when an earlier one may have the same key:
                // the earlier one counts.
                if mayBeEarlier, let earlier = try firstMember(wanted, ofObjectAt: object, before: object &+ start, keys: keys, lookups: &lookups) {
                    found = earlier
                }
                lookups.hintObject = object
                lookups.hintValue = max(found, value)
                return .found(found)
            }
            guard let following = next(after: child) else { return .unsure }
            child = following
        }
        // Wrapped around: the first member with the key among those before the hint, which
        // were all passed (``DecodingContext/KeysPassed``). The hint stays: the next lookup
        // goes on from there (lookups in reverse order stay linear), and the members after
        // it are noted again as the lookups find them.
        lookups.keysPassed.restore(mark)
        guard start > 1, let value = try firstMember(wanted, ofObjectAt: object, before: object &+ start, keys: keys, lookups: &lookups) else {
            return .missing
        }
        return .found(value)
    }

    /// The lookup in an object still arriving, or not held in one piece: every step checks
    /// that its token is on the tape, reading on as the document arrives.
    private func memberWhileReading<Keys: MemberKeys>(
        _ wanted: WantedKey, ofObjectAt object: Int, continuing: Bool, keys: Keys,
        lookups: inout MemberLookups
    ) throws -> Int? {
        let tape = self.tape
        var start = object + 1
        if continuing { start = try lastIndex(ofValueAt: lookups.hintValue) + 1 }
        let mayBeEarlier = start > object + 1 && lookups.keysPassed.mayContain(wanted)
        let mark = lookups.keysPassed.mark
        var child = start
        while true {
            try ensure(child)
            let keyToken = tape[child]
            if keyToken.kind == .objectEnd {
                // Wrapped around: the first member with the key among those before the hint,
                // which were all passed.
                lookups.keysPassed.restore(mark)
                guard start > object + 1, let value = try firstMember(wanted, ofObjectAt: object, before: start, keys: keys, lookups: &lookups) else {
                    return nil
                }
                return value
            }
            let value = child + 1
            let bytes = keys.key(tape.bytes(of: keyToken))
            lookups.keysPassed.insert(bytes, at: child)
            if KeyComparison.matches(bytes, wanted.utf8) {
                // A member found after the hint, when an earlier one may have the same key:
                // the earlier one counts.
                var found = value
                if mayBeEarlier, let earlier = try firstMember(wanted, ofObjectAt: object, before: start, keys: keys, lookups: &lookups) {
                    found = earlier
                }
                // The value is not read to its end here, so a large array can be decoded
                // while the rest of it is still being parsed.
                try ensure(found)
                lookups.hintObject = object
                lookups.hintValue = max(found, value)
                return found
            }
            child = try lastIndex(ofValueAt: value) + 1
        }
    }

    /// The value of the first member with key `wanted` among those the lookups in the object
    /// at `object` have passed before the tape index `limit`, or nil.
    @inline(never)
    private func firstMember<Keys: MemberKeys>(
        _ wanted: WantedKey, ofObjectAt object: Int, before limit: Int, keys: Keys,
        lookups: inout MemberLookups
    ) throws -> Int? {
        guard let key = try lookups.keysPassed.first(wanted, ofObjectAt: object, before: limit, in: self, keys: keys) else {
            return nil
        }
        return key + 1
    }
}

/// Where the lookups in one object have got to: the last value found there, and the keys
/// passed on the way.
struct MemberLookups {
    /// The object of the last value found, and that value: models usually ask for fields in
    /// document order, so the next lookup starts after it and most lookups succeed at the first
    /// comparison.
    var hintObject = -1
    var hintValue = -1
    /// The keys the lookups in `hintObject` have passed, so that a member found after the hint
    /// is known to be the first with its key without looking back.
    var keysPassed = DecodingContext.KeysPassed()
}

/// What a lookup in an object held in one piece found.
private enum SpanLookup {
    case found(Int)
    case missing
    /// The tokens do not have an object's shape: the general lookup decides.
    case unsure
}
