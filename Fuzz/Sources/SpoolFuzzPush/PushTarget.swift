import FuzzSupport
import Spool

#if canImport(Glibc)
import Glibc
#endif

/// Differential fuzzing of ``PushJSONStream`` against ``JSONStream`` (see Fuzz/README.md). The
/// first byte holds the options and the path to stream (bits 5-6), as for SpoolFuzzStream; a
/// ``ChunkPlan`` follows (how the text is cut, when elements are taken out, and with its spare
/// bit 0, whether the request is asked for only after the first chunk); the rest is JSON.
///
/// Three requests — `elements(of: JSONValue.self, at:)`, `members(of: JSONValue.self, at:)`
/// and `count(at:)` — each run on a push stream fed the text in the plan's chunks, and on a
/// pull stream given the whole text on one thread. Each is followed by `finish()` and
/// `remainder`. The two must agree (``agrees(_:_:)``): the values handed out, the error that
/// ended the request (its description: message, location, excerpt and the "N elements read
/// before it" note), the error after the request, and the remainder (its value, or its error),
/// with the differences PushJSONStream has by design.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPush(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let (input, plan) = FuzzInput.split(data, size) else { return 0 }
    let reference = RefDocument(bytes: input.bytes, options: input.oneThread)
    let path = chosenPath(input.selector, root: reference.first)
    let chunks = plan.chunks(of: input.bytes)
    for request in Request.allCases {
        let pulled = Outcome(pulling: input, request, at: path)
        let pushed = Outcome(pushing: input, chunks, plan, request, at: path)
        if !agrees(pushed, pulled) || (pushed.earlyError != nil && unnoted(pushed.earlyError) != unnoted(pulled.finishError)) {
            fail("PushJSONStream differs from JSONStream: \(request) at \(path)", input, "JSONStream:\n\(pulled)\nPushJSONStream:\n\(pushed)")
        }
    }
    return 0
}

/// Whether the push stream's outcome is the pull stream's. Exactly, but for what
/// PushJSONStream does by design (416c778, issue 22 item 10): an input error after the
/// request's container, which the pull stream's request never reaches (its `finish()` throws
/// it), the push stream's request throws at the end of its container instead of ending (or
/// `append`/`finishInput` throw it once the request has handed out everything), noted with
/// the request's progress ("N elements of PATH read before it", N what was handed out or
/// counted); and an error after the request has ended carries that note too.
func agrees(_ push: Outcome, _ pull: Outcome) -> Bool {
    guard (push.values, push.keys) == (pull.values, pull.keys),
        (push.remainder, push.remainderValue) == (pull.remainder, pull.remainderValue)
    else { return false }
    if push.requestError == pull.requestError {
        return push.count == pull.count && unnoted(push.finishError) == unnoted(pull.finishError)
    }
    guard pull.requestError == nil, let error = push.requestError, error.hasPrefix("ParseError: "), let finish = pull.finishError,
        unnoted(error) == unnoted(finish), push.finishError == nil || unnoted(push.finishError) == unnoted(finish)
    else { return false }
    // The note counts what the pull stream's request handed out, or its count.
    return noteCount(error) == (pull.count ?? pull.values.count) && push.count == nil
}

/// Where an error's description has the "(N elements of PATH read before it)" note a stream
/// adds to a parse error (the space before it included), and N.
func noteRange(_ description: String) -> (Range<Int>, Int)? {
    let bytes = Array(description.utf8)
    let tail = Array(" read before it)".utf8)
    guard let end = (0...max(0, bytes.count - tail.count)).first(where: { bytes[$0...].starts(with: tail) }) else { return nil }
    // The note begins at the last " (" followed by digits and a space before its end.
    var start = end
    while start >= 2 {
        start -= 1
        guard bytes[start - 1] == 0x20, bytes[start] == UInt8(ascii: "(") else { continue }
        let digits = bytes[(start + 1)...].prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        guard !digits.isEmpty, bytes[start + 1 + digits.count] == 0x20 else { continue }
        return ((start - 1)..<(end + tail.count), Int(String(decoding: digits, as: UTF8.self)) ?? -1)
    }
    return nil
}

/// An error's description without the stream's note.
func unnoted(_ description: String?) -> String? {
    guard let description, let (range, _) = noteRange(description) else { return description }
    let bytes = Array(description.utf8)
    return String(decoding: bytes[..<range.lowerBound] + bytes[range.upperBound...], as: UTF8.self)
}

/// The number in an error's note, if it has one.
func noteCount(_ description: String) -> Int? {
    noteRange(description)?.1
}

enum Request: String, CaseIterable {
    case elements, members, count
}

/// What one request gave, and what came after it.
struct Outcome: Equatable, CustomStringConvertible {
    /// The elements, or the members as `key: value` pairs, or the count.
    var values: [JSONValue] = []
    var keys: [String] = []
    var count: Int?
    /// The error that ended the request.
    var requestError: String?
    /// What `finish()` threw after the request.
    var finishError: String?
    /// The remainder's value, or the error reading it.
    var remainder: String = ""
    var remainderValue: JSONValue?
    /// A push stream's error thrown before the request was asked for (not compared: the pull
    /// stream has no such moment; checked against its `finish()` error).
    var earlyError: String?

    static func == (a: Outcome, b: Outcome) -> Bool {
        (a.values, a.keys, a.count) == (b.values, b.keys, b.count)
            && (a.requestError, a.finishError, a.remainder, a.remainderValue) == (b.requestError, b.finishError, b.remainder, b.remainderValue)
    }

    /// The request on a `JSONStream` of the whole input, on one thread.
    init(pulling input: FuzzInput, _ request: Request, at path: JSONKeyPath) {
        let stream = JSONStream(.bytes(input.bytes), options: input.oneThread)
        do {
            switch request {
            case .elements:
                let elements = stream.elements(of: JSONValue.self, at: path)
                defer { checkEnded(elements.next, input) }
                while let element = try elements.next() { values.append(element) }
                if !elements.isFinished { fail("JSONStream's elements ended without isFinished", input) }
            case .members:
                let members = stream.members(of: JSONValue.self, at: path)
                defer { checkEnded(members.next, input) }
                while let (key, value) = try members.next() {
                    keys.append(key)
                    values.append(value)
                }
                if !members.isFinished { fail("JSONStream's members ended without isFinished", input) }
            case .count:
                count = try stream.count(at: path)
            }
        } catch {
            requestError = describe(error, input)
        }
        do {
            try stream.finish()
        } catch {
            finishError = describe(error, input)
        }
        readRemainder { try stream.remainder() }
    }

    /// The request on a `PushJSONStream` fed `chunks`, taking elements out as `plan` says.
    init(pushing input: FuzzInput, _ chunks: [ArraySlice<UInt8>], _ plan: ChunkPlan, _ request: Request, at path: JSONKeyPath) {
        let stream = PushJSONStream(options: input.oneThread)
        var done = false
        var elements: JSONElements<JSONValue>?
        var members: JSONMembers<JSONValue>?
        var begun = false
        /// Asks for the request: before any input, or (the plan's spare bit 0) after the first
        /// chunk, which may have failed already.
        func begin() {
            guard !begun else { return }
            begun = true
            switch request {
            case .elements: elements = stream.elements(of: JSONValue.self, at: path)
            case .members: members = stream.members(of: JSONValue.self, at: path)
            case .count: drainIfGoing()  // the count's request begins at its first call
            }
        }
        let late = plan.spare & 1 == 1

        /// Takes out what the input so far completes; notes when the request has ended.
        func drain() throws {
            if let elements {
                while let element = try elements.next() { values.append(element) }
                if elements.count != values.count { fail("JSONElements.count is \(elements.count) after \(values.count) elements", input) }
                done = elements.isFinished
            } else if let members {
                while let (key, value) = try members.next() {
                    keys.append(key)
                    values.append(value)
                }
                if members.count != values.count { fail("JSONMembers.count is \(members.count) after \(values.count) members", input) }
                done = members.isFinished
            } else if let count = try stream.count(at: path) {
                self.count = count
                done = true
            }
        }

        /// The first error ends the request unless it has ended already; a later one belongs
        /// to finish(), as in the pull stream, where nothing reads past the request's
        /// container before finish(). Every chunk is appended, whatever was thrown before it,
        /// so the error's excerpt has the same input to show.
        func note(_ error: any Error) {
            if !begun {
                // Before the request: the error of the input alone, without a request's note.
                earlyError = earlyError ?? describe(error, input)
            } else if !done && requestError == nil {
                requestError = describe(error, input)
            } else if finishError == nil {
                finishError = describe(error, input)
            }
        }
        func drainIfGoing() {
            guard !done && requestError == nil else { return }
            do { try drain() } catch { note(error) }
        }

        if !late { begin() }
        var appended = 0
        for (index, chunk) in chunks.enumerated() {
            do {
                try stream.append(chunk)
            } catch {
                note(error)
            }
            appended += chunk.count
            begin()
            if plan.drains(after: index, length: chunk.count) { drainIfGoing() }
        }
        begin()
        do {
            try stream.finishInput()
        } catch {
            note(error)
        }
        drainIfGoing()
        if !done && requestError == nil {
            fail("PushJSONStream: after finishInput, the \(request) neither end nor throw", input, "\(self)")
        }
        if let elements { checkEnded(elements.next, input) }
        if let members { checkEnded(members.next, input) }
        do {
            try stream.finish()
        } catch {
            note(error)
        }
        readRemainder { try stream.remainder() }
        if stream.bytesRead > appended { fail("PushJSONStream read \(stream.bytesRead) bytes of \(appended) appended", input) }
    }

    mutating func readRemainder(_ read: () throws -> Extractor) {
        do {
            remainderValue = try read().decode(as: JSONValue.self)
            remainder = "a value"  // compared as remainderValue (a dictionary's description has no fixed order)
        } catch {
            remainder = "error: \(error)"
        }
    }

    var description: String {
        """
        values: \(keys.isEmpty ? values.map { "\($0)" } : zip(keys, values).map { "\($0): \($1)" })
        count: \(count.map(String.init) ?? "-")
        error before the request: \(earlyError ?? "none")
        request error: \(requestError ?? "none")
        finish error: \(finishError ?? "none")
        remainder: \(remainder) \(remainderValue.map { "\($0)" } ?? "")
        """
    }
}

/// After a request ended (its last element, or an error), `next()` gives nil.
private func checkEnded<T>(_ next: () throws -> T?, _ input: FuzzInput) {
    do {
        if let value = try next() { fail("a stream handed out \(value) after it ended", input) }
    } catch {
        fail("a stream threw again after it ended: \(error)", input)
    }
}

/// An error's description, prefixed by its type; only Spool's errors are expected.
private func describe(_ error: any Error, _ input: FuzzInput) -> String {
    switch error {
    case let error as ParseError: return "ParseError: \(error)"
    case let error as DecodeError: return "DecodeError: \(error)"
    case let error as UsageError: return "UsageError: \(error)"
    default: fail("a stream threw something else than Spool's errors", input, "\(type(of: error)): \(error)")
    }
}
