#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import FuzzSupport
import Spool

/// Differential fuzzing of the Codable stream path (see Fuzz/README.md). The first byte holds
/// the options, a small chunk size and the path to stream (bits 5-6), as for SpoolFuzzStream;
/// a ``ChunkPlan`` follows (the async stream's chunks; its spare bits 5-6 choose the
/// ``AnyJSON/Style``); the rest is JSON.
///
/// - `JSONStream.elements(of: AnyJSON.self, at:, decoder:, onError: .skip)` on one thread must
///   hand out, element for element, what `elements(of: JSONValue.self, at:)` hands out,
///   converted by the reference number rules; an element with a number no type takes is
///   skipped, with a `typeMismatch` whose key path leads to such a number. Both end with the
///   same error (description), or none.
/// - With `.stop`, the same elements up to the first that does not decode, which throws a
///   `DecodingError` whose located error is the one `.skip` reported.
/// - `members(of: AnyJSON.self, at:, decoder:)` against `members(of: JSONValue.self, at:)`.
/// - The same `.skip` stream parsed in the background in small chunks, and an
///   ``AsyncJSONStream`` over the plan's chunks, give exactly what the one-thread run gives;
///   so do the async stream's JSONValue members and count, and
///   `StreamingJSONDecoder.decode(_:fromChunks:)` against `decode(_:from:)`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCodableStream(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let (input, plan) = FuzzInput.split(data, size) else { return 0 }
    let reference = RefDocument(bytes: input.bytes, options: input.oneThread)
    let path = chosenPath(input.selector, root: reference.first)
    let style = AnyJSON.Style(rawValue: plan.spare & 3) ?? .plain
    let oracle = NumberOracle(input: input)
    let setup = Setup(bytes: input.bytes, path: path, style: style, chunks: plan.chunks(of: input.bytes).map(Array.init))

    let values = Events(jsonValuesOf: setup, input.oneThread, input)
    let skipping = Events(codableOf: setup, input.oneThread, policy: .skip)
    check(skipping, against: values, setup, oracle, input)
    check(stopping: Events(codableOf: setup, input.oneThread, policy: .stop), skipping, input)
    checkMembers(setup, oracle, input)

    let background = Events(codableOf: setup, input.options(chunkSize: input.smallChunk, inBackground: true), policy: .skip)
    if background != skipping {
        fail("Codable elements in the background in \(input.smallChunk)-byte chunks differ from one thread", input,
             "one thread:\n\(skipping)\nbackground:\n\(background)")
    }
    checkAsync(setup, input, skipping: skipping)
    return 0
}

/// What one run streams, shared with the async runs.
struct Setup: Sendable {
    var bytes: [UInt8]
    var path: JSONKeyPath
    var style: AnyJSON.Style
    var chunks: [[UInt8]]

    func decoder(_ options: JSONParsingOptions) -> StreamingJSONDecoder {
        let decoder = StreamingJSONDecoder()
        decoder.options = options
        decoder.userInfo = [AnyJSON.styleKey: style]
        return decoder
    }
}

/// What a stream of elements handed out, in order: elements, skipped elements, then the error
/// that ended it.
struct Events: Equatable, Sendable, CustomStringConvertible {
    enum Event: Equatable, Sendable {
        case value(AnyJSON)
        case json(JSONValue)
        /// A skipped element: its index and location, its error's key path, code and description.
        case skipped(index: Int, location: String, keyPath: JSONKeyPath, code: String, error: String)
    }

    enum Policy { case skip, stop }

    var events: [Event] = []
    var error: String?
    /// For `.stop`: the located error under the `DecodingError` that ended it.
    var decodingError: String?

    init() {}

    init(jsonValuesOf setup: Setup, _ options: JSONParsingOptions, _ input: FuzzInput) {
        let stream = JSONStream(.bytes(setup.bytes), options: options)
        do {
            try stream.elements(of: JSONValue.self, at: setup.path).forEach { events.append(.json($0)) }
        } catch {
            self.error = Events.describe(error)
        }
    }

    init(codableOf setup: Setup, _ options: JSONParsingOptions, policy: Policy) {
        let stream = JSONStream(.bytes(setup.bytes), options: options)
        nonisolated(unsafe) var reports: [Event] = []
        let elements = stream.elements(
            of: AnyJSON.self, at: setup.path, decoder: setup.decoder(options),
            onError: policy == .skip ? .skip { reports.append(Events.skipped($0)) } : .stop)
        do {
            while let element = try elements.next() {
                events += reports
                reports = []
                events.append(.value(element))
            }
        } catch let error as DecodingError {
            self.error = "DecodingError"
            decodingError = DecodeError(underneath: error).map { "\($0)" } ?? "none: \(error)"
        } catch {
            self.error = Events.describe(error)
        }
        events += reports
    }

    static func skipped(_ report: SkippedElement) -> Event {
        .skipped(
            index: report.index, location: report.location.map { "\($0)" } ?? "-", keyPath: report.error.keyPath,
            code: "\(report.error.code)", error: "\(report.error)")
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as ParseError: return "ParseError: \(error)"
        case let error as DecodeError: return "DecodeError: \(error)"
        default: return "\(type(of: error)): \(error)"
        }
    }

    var description: String {
        events.map { event -> String in
            switch event {
            case .value(let value): return "  \(value)"
            case .json(let value): return "  \(value)"
            case .skipped(let index, let location, _, _, let error): return "  skipped \(index) at \(location): \(error)"
            }
        }.joined(separator: "\n") + "\n  error: \(error ?? "none")" + (decodingError.map { "\n  located: \($0)" } ?? "")
    }
}

extension DecodeError {
    /// Spool's located error under a `DecodingError`.
    init?(underneath error: DecodingError) {
        let context: DecodingError.Context
        switch error {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c): context = c
        @unknown default: return nil
        }
        guard let located = context.underlyingError as? DecodeError else { return nil }
        self = located
    }
}

/// How many leading components of an element's key path name the element itself.
func elementPathLength(_ path: JSONKeyPath, _ options: JSONParsingOptions) -> Int {
    path.components.count + 1 + (options.allowsMultipleValues && !path.isEmpty ? 1 : 0)
}

/// The `.skip` run of `AnyJSON` against the `JSONValue` run.
func check(_ codable: Events, against values: Events, _ setup: Setup, _ oracle: NumberOracle, _ input: FuzzInput) {
    func disagree(_ what: String) -> Never {
        fail("Codable elements at \(setup.path) (style \(setup.style)): \(what)", input, "JSONValue:\n\(values)\nCodable:\n\(codable)")
    }
    if codable.events.count != values.events.count { disagree("not as many elements as JSONValue's") }
    let leading = elementPathLength(setup.path, input.oneThread)
    for (event, valueEvent) in zip(codable.events, values.events) {
        guard case .json(let value) = valueEvent else { disagree("a JSONValue element skipped") }
        let expected = AnyJSON.expected(from: value, oracle)
        switch (event, expected) {
        case (.value(let decoded), let expected?):
            if decoded != expected { disagree("element \(decoded), expected \(expected)") }
        case (.skipped(_, _, let keyPath, let code, _), nil):
            // The error is at a number that no type takes.
            guard code == "type mismatch", keyPath.components.count >= leading,
                case .number(let text)? = value.at(keyPath.components.dropFirst(leading)), AnyJSON.number(text, oracle) == nil
            else { disagree("a skipped element's error is not at a number no type takes") }
        case (.value, nil):
            disagree("an element with a number no type takes decoded")
        default:
            disagree("an element skipped whose numbers all decode")
        }
    }
    if codable.error != values.error { disagree("a different error") }
}

/// `.stop`: the same elements up to the first skipped one, which ends it with its error.
func check(stopping: Events, _ skipping: Events, _ input: FuzzInput) {
    var expected = Events()
    if let firstSkip = skipping.events.firstIndex(where: { if case .skipped = $0 { return true } else { return false } }) {
        expected.events = Array(skipping.events[..<firstSkip])
        expected.error = "DecodingError"
        if case .skipped(_, _, _, _, let error) = skipping.events[firstSkip] { expected.decodingError = error }
    } else {
        expected = skipping
    }
    if stopping != expected {
        fail("Codable elements with .stop differ from .skip up to its first skip", input, ".skip:\n\(skipping)\n.stop:\n\(stopping)")
    }
}

/// `members(of: AnyJSON.self)` against `members(of: JSONValue.self)`: the same keys, the values
/// converted, up to a member with a number no type takes, which ends the members with a
/// `DecodingError` at such a number.
func checkMembers(_ setup: Setup, _ oracle: NumberOracle, _ input: FuzzInput) {
    var keys: [String] = []
    var values: [JSONValue] = []
    var valuesError: String?
    let plain = JSONStream(.bytes(setup.bytes), options: input.oneThread)
    do {
        try plain.members(of: JSONValue.self, at: setup.path).forEach { keys.append($0); values.append($1) }
    } catch {
        valuesError = Events.describe(error)
    }
    var codableKeys: [String] = []
    var decoded: [AnyJSON] = []
    var codableError: String?
    var located: DecodeError?
    let stream = JSONStream(.bytes(setup.bytes), options: input.oneThread)
    do {
        try stream.members(of: AnyJSON.self, at: setup.path, decoder: setup.decoder(input.oneThread)).forEach {
            codableKeys.append($0)
            decoded.append($1)
        }
    } catch let error as DecodingError {
        codableError = "DecodingError"
        located = DecodeError(underneath: error)
    } catch {
        codableError = Events.describe(error)
    }
    func disagree(_ what: String) -> Never {
        fail("Codable members at \(setup.path) (style \(setup.style)): \(what)", input,
             "JSONValue: \(zip(keys, values).map { "\($0): \($1)" }) error: \(valuesError ?? "none")\n"
                + "Codable: \(zip(codableKeys, decoded).map { "\($0): \($1)" }) error: \(codableError ?? "none") \(located.map { "\($0)" } ?? "")")
    }
    if codableKeys != Array(keys.prefix(codableKeys.count)) { disagree("other keys") }
    for (value, member) in zip(values, decoded) where AnyJSON.expected(from: value, oracle) != member {
        disagree("a member decoded as \(member)")
    }
    if codableError == "DecodingError" {
        guard codableKeys.count < keys.count, AnyJSON.expected(from: values[codableKeys.count], oracle) == nil else {
            disagree("a DecodingError for a member that decodes")
        }
        // A member's path: the value's index with several top-level values (members at the
        // root stream every value's), the path, the key.
        let leading = setup.path.components.count + (input.oneThread.allowsMultipleValues ? 1 : 0)
        guard let located, located.code == .typeMismatch, located.keyPath.components.count > leading,
            case .key(let key) = located.keyPath.components[leading], key == keys[codableKeys.count],
            case .number(let text)? = values[codableKeys.count].at(located.keyPath.components.dropFirst(leading + 1)),
            AnyJSON.number(text, oracle) == nil
        else { disagree("a member's DecodingError is not at a number no type takes") }
    } else {
        if codableKeys.count != keys.count || codableError != valuesError { disagree("members end elsewhere") }
        if let bad = values.firstIndex(where: { AnyJSON.expected(from: $0, oracle) == nil }) {
            disagree("member \(keys[bad]), which holds a number no type takes, decoded")
        }
    }
}

// MARK: - Async

/// What the async stream and decoder gave, to compare with their one-thread counterparts.
struct AsyncOutcome: Sendable {
    var skipping = Events()
    var members: [String] = []
    var memberValues: [JSONValue] = []
    var membersError: String?
    var count: Int?
    var countError: String?
    var remainder: String = ""
    var document: String = ""
}

/// Runs `body` in a detached task and waits for it: the fuzz entry point is synchronous.
func runDetached<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        box.value = await body()
        done.signal()
    }
    done.wait()
    return box.value!
}

/// The result of a detached task, handed to the waiting thread (the semaphore orders the accesses).
final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}

func chunkStream(_ chunks: [[UInt8]]) -> AsyncStream<[UInt8]> {
    AsyncStream { continuation in
        for chunk in chunks { continuation.yield(chunk) }
        continuation.finish()
    }
}

/// An `AsyncJSONStream` fed the plan's chunks: the Codable elements with `.skip`, the JSONValue
/// members and the count, each followed by the remainder, and a whole-document async decode.
func checkAsync(_ setup: Setup, _ input: FuzzInput, skipping: Events) {
    let options = input.oneThread
    let outcome = runDetached { () async -> AsyncOutcome in
        var outcome = AsyncOutcome()
        let stream = AsyncJSONStream(.chunks(chunkStream(setup.chunks)), options: options)
        nonisolated(unsafe) var reports: [Events.Event] = []
        let elements = stream.elements(
            of: AnyJSON.self, at: setup.path, decoder: setup.decoder(options), onError: .skip { reports.append(Events.skipped($0)) })
        do {
            for try await element in elements {
                outcome.skipping.events += reports
                reports = []
                outcome.skipping.events.append(.value(element))
            }
        } catch {
            outcome.skipping.error = Events.describe(error)
        }
        outcome.skipping.events += reports
        outcome.remainder = await remainder { try await stream.remainder() }

        let members = AsyncJSONStream(.chunks(chunkStream(setup.chunks)), options: options)
        do {
            for try await (key, value) in members.members(of: JSONValue.self, at: setup.path) {
                outcome.members.append(key)
                outcome.memberValues.append(value)
            }
        } catch {
            outcome.membersError = Events.describe(error)
        }
        outcome.remainder += " / " + (await remainder { try await members.remainder() })

        let counted = AsyncJSONStream(.chunks(chunkStream(setup.chunks)), options: options)
        do {
            outcome.count = try await counted.count(at: setup.path)
        } catch {
            outcome.countError = Events.describe(error)
        }
        outcome.remainder += " / " + (await remainder { try await counted.remainder() })

        do {
            let value = try await setup.decoder(options).decode(AnyJSON.self, from: .chunks(chunkStream(setup.chunks)), rootKeyPath: setup.path)
            outcome.document = "\(value)"
        } catch {
            outcome.document = "\(type(of: error)): \(error)"
        }
        return outcome
    }

    // The same on one thread.
    var expected = AsyncOutcome()
    expected.skipping = skipping
    let stream = JSONStream(.bytes(setup.bytes), options: options)
    do {
        try stream.elements(of: AnyJSON.self, at: setup.path, decoder: setup.decoder(options), onError: .skip { _ in }).forEach { _ in }
    } catch {}
    expected.remainder = syncRemainder { try stream.remainder() }
    let members = JSONStream(.bytes(setup.bytes), options: options)
    do {
        try members.members(of: JSONValue.self, at: setup.path).forEach {
            expected.members.append($0)
            expected.memberValues.append($1)
        }
    } catch {
        expected.membersError = Events.describe(error)
    }
    expected.remainder += " / " + syncRemainder { try members.remainder() }
    let counted = JSONStream(.bytes(setup.bytes), options: options)
    do {
        expected.count = try counted.count(at: setup.path)
    } catch {
        expected.countError = Events.describe(error)
    }
    expected.remainder += " / " + syncRemainder { try counted.remainder() }
    do {
        expected.document = "\(try setup.decoder(options).decode(AnyJSON.self, from: .bytes(setup.bytes), rootKeyPath: setup.path))"
    } catch {
        expected.document = "\(type(of: error)): \(error)"
    }

    func disagree(_ what: String, _ async: String, _ sync: String) -> Never {
        fail("AsyncJSONStream differs from JSONStream: \(what) at \(setup.path)", input, "JSONStream:\n\(sync)\nAsyncJSONStream:\n\(async)")
    }
    if outcome.skipping != expected.skipping { disagree("Codable elements", "\(outcome.skipping)", "\(expected.skipping)") }
    if outcome.members != expected.members || outcome.memberValues != expected.memberValues || outcome.membersError != expected.membersError {
        disagree("members", "\(outcome.members) \(outcome.memberValues) \(outcome.membersError ?? "")",
                 "\(expected.members) \(expected.memberValues) \(expected.membersError ?? "")")
    }
    if outcome.count != expected.count || outcome.countError != expected.countError {
        disagree("count", "\(outcome.count.map(String.init) ?? "-") \(outcome.countError ?? "")", "\(expected.count.map(String.init) ?? "-") \(expected.countError ?? "")")
    }
    if outcome.remainder != expected.remainder { disagree("remainders", outcome.remainder, expected.remainder) }
    if outcome.document != expected.document { disagree("decode(_:fromChunks:)", outcome.document, expected.document) }
}

/// The remainder, decoded: its value (printed in a fixed order) or its error.
func remainder(_ read: () async throws -> Extractor) async -> String {
    do {
        return canonical(try await read().decode(as: JSONValue.self))
    } catch {
        return Events.describe(error)
    }
}

func syncRemainder(_ read: () throws -> Extractor) -> String {
    do {
        return canonical(try read().decode(as: JSONValue.self))
    } catch {
        return Events.describe(error)
    }
}

/// A value's text with object members in key order, to compare values as text.
func canonical(_ value: JSONValue) -> String {
    switch value {
    case .null: return "null"
    case .bool(let value): return "\(value)"
    case .number(let text): return text
    case .string(let text): return "\"\(text.debugDescription)\""
    case .array(let elements): return "[" + elements.map(canonical).joined(separator: ",") + "]"
    case .object(let members):
        return "{" + members.sorted { Array($0.key.utf8).lexicographicallyPrecedes($1.key.utf8) }
            .map { "\($0.key.debugDescription):\(canonical($0.value))" }.joined(separator: ",") + "}"
    }
}
