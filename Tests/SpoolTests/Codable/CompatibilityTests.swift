import Foundation
import Spool
import Testing

// The compatibility suite: the same inputs decoded by Foundation's `JSONDecoder` and by
// `StreamingJSONDecoder`, which must agree on the value, or on the `DecodingError` case, its
// coding path (string and int values) and, for `keyNotFound`, the key. Debug descriptions are
// never compared (Foundation writes English sentences, Spool `line:column: ...`); Spool's own
// errors must start with a `line:column:` location.
//
// Tables are lists of `CompatCase`s run by parameterized tests, one test per theme file:
// +Scalars, +Containers, +Models, +Strategies, +Errors. Where Spool differs on purpose, a
// separate test named `spool...` asserts what each decoder does.

/// A coding key as both decoders are compared on: its string and its int value.
struct KeyRecord: Hashable, CustomStringConvertible {
    let string: String
    let int: Int?

    init(_ key: any CodingKey) {
        string = key.stringValue
        int = key.intValue
    }

    init(_ string: String, _ int: Int? = nil) {
        self.string = string
        self.int = int
    }

    var description: String { int.map { "\(string)#\($0)" } ?? string }

    /// `Index N` with `N` as its int value, as `JSONDecoder` writes array positions.
    static func index(_ n: Int) -> KeyRecord { KeyRecord("Index \(n)", n) }
}

/// An error as both decoders are compared on.
struct ErrorRecord: Equatable, CustomStringConvertible {
    enum Kind: String { case keyNotFound, valueNotFound, typeMismatch, dataCorrupted, other }

    let kind: Kind
    let path: [KeyRecord]
    /// The missing key of `keyNotFound`.
    let key: KeyRecord?
    /// Not compared: the decoders word their errors differently.
    let debugDescription: String
    /// A thrown error that is not a `DecodingError` (a model's own), described.
    let other: String?

    init(_ error: any Error) {
        guard let error = error as? DecodingError else {
            (kind, path, key, debugDescription, other) = (.other, [], nil, "", String(reflecting: error))
            return
        }
        switch error {
        case .keyNotFound(let missing, let context):
            (kind, key) = (.keyNotFound, KeyRecord(missing))
            (path, debugDescription) = (context.codingPath.map(KeyRecord.init), context.debugDescription)
        case .valueNotFound(_, let context):
            (kind, key) = (.valueNotFound, nil)
            (path, debugDescription) = (context.codingPath.map(KeyRecord.init), context.debugDescription)
        case .typeMismatch(_, let context):
            (kind, key) = (.typeMismatch, nil)
            (path, debugDescription) = (context.codingPath.map(KeyRecord.init), context.debugDescription)
        case .dataCorrupted(let context):
            (kind, key) = (.dataCorrupted, nil)
            (path, debugDescription) = (context.codingPath.map(KeyRecord.init), context.debugDescription)
        @unknown default:
            (kind, path, key, debugDescription) = (.other, [], nil, "\(error)")
        }
        other = nil
    }

    init(_ kind: Kind, _ path: [KeyRecord], key: KeyRecord? = nil) {
        (self.kind, self.path, self.key, debugDescription, other) = (kind, path, key, "", nil)
    }

    static func == (lhs: ErrorRecord, rhs: ErrorRecord) -> Bool {
        lhs.kind == rhs.kind && lhs.path == rhs.path && lhs.key == rhs.key && lhs.other == rhs.other
    }

    var description: String {
        if let other { return "thrown \(other)" }
        let location = key.map { " key \($0)" } ?? ""
        return "\(kind) at [\(path.map(\.description).joined(separator: ", "))]\(location)"
    }

    /// Spool's description of its own errors starts with `LINE:COLUMN: `.
    var isLocated: Bool {
        debugDescription.prefixMatch(of: #/\d+:\d+: /#) != nil
    }
}

/// What one decode ended with.
enum Outcome<T>: CustomStringConvertible {
    case value(T)
    case error(ErrorRecord)

    init(_ body: () throws -> T) {
        do {
            self = .value(try body())
        } catch {
            self = .error(ErrorRecord(error))
        }
    }

    var error: ErrorRecord? {
        if case .error(let error) = self { return error }
        return nil
    }

    var value: T? {
        if case .value(let value) = self { return value }
        return nil
    }

    var description: String {
        switch self {
        case .value(let value): "value \(String(reflecting: value))"
        case .error(let error): "error \(error)"
        }
    }
}

extension Outcome: Sendable where T: Sendable {}

extension Outcome where T: Equatable {
    static func same(_ lhs: Outcome, _ rhs: Outcome) -> Bool {
        switch (lhs, rhs) {
        case (.value(let a), .value(let b)): a == b
        case (.error(let a), .error(let b)): a == b
        default: false
        }
    }
}

/// The strategies and user info of one comparison, given to both decoders under the names
/// they share.
struct CompatSettings: Sendable {
    enum Keys: Sendable {
        case useDefaultKeys, convertFromSnakeCase
        case custom(@Sendable ([any CodingKey]) -> any CodingKey)
    }

    enum Dates: Sendable {
        case deferredToDate, secondsSince1970, millisecondsSince1970, iso8601
        case formatted(DateFormatter)
        case custom(@Sendable (any Decoder) throws -> Date)
    }

    enum Bytes: Sendable {
        case deferredToData, base64
        case custom(@Sendable (any Decoder) throws -> Data)
    }

    enum Floats: Sendable {
        case `throw`
        case convertFromString(positiveInfinity: String, negativeInfinity: String, nan: String)
    }

    var keys = Keys.useDefaultKeys
    var dates = Dates.deferredToDate
    var data = Bytes.base64
    var floats = Floats.throw
    var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    static let defaults = CompatSettings()
    static let snakeCase = CompatSettings(keys: .convertFromSnakeCase)

    var foundation: JSONDecoder {
        let decoder = JSONDecoder()
        switch keys {
        case .useDefaultKeys: decoder.keyDecodingStrategy = .useDefaultKeys
        case .convertFromSnakeCase: decoder.keyDecodingStrategy = .convertFromSnakeCase
        case .custom(let convert): decoder.keyDecodingStrategy = .custom(convert)
        }
        switch dates {
        case .deferredToDate: decoder.dateDecodingStrategy = .deferredToDate
        case .secondsSince1970: decoder.dateDecodingStrategy = .secondsSince1970
        case .millisecondsSince1970: decoder.dateDecodingStrategy = .millisecondsSince1970
        case .iso8601: decoder.dateDecodingStrategy = .iso8601
        case .formatted(let formatter): decoder.dateDecodingStrategy = .formatted(formatter)
        case .custom(let read): decoder.dateDecodingStrategy = .custom(read)
        }
        switch data {
        case .deferredToData: decoder.dataDecodingStrategy = .deferredToData
        case .base64: decoder.dataDecodingStrategy = .base64
        case .custom(let read): decoder.dataDecodingStrategy = .custom(read)
        }
        switch floats {
        case .throw: decoder.nonConformingFloatDecodingStrategy = .throw
        case .convertFromString(let positive, let negative, let nan):
            decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: positive, negativeInfinity: negative, nan: nan)
        }
        decoder.userInfo = userInfo
        return decoder
    }

    var spool: StreamingJSONDecoder {
        let decoder = StreamingJSONDecoder()
        switch keys {
        case .useDefaultKeys: decoder.keyDecodingStrategy = .useDefaultKeys
        case .convertFromSnakeCase: decoder.keyDecodingStrategy = .convertFromSnakeCase
        case .custom(let convert): decoder.keyDecodingStrategy = .custom(convert)
        }
        switch dates {
        case .deferredToDate: decoder.dateDecodingStrategy = .deferredToDate
        case .secondsSince1970: decoder.dateDecodingStrategy = .secondsSince1970
        case .millisecondsSince1970: decoder.dateDecodingStrategy = .millisecondsSince1970
        case .iso8601: decoder.dateDecodingStrategy = .iso8601
        case .formatted(let formatter): decoder.dateDecodingStrategy = .formatted(formatter)
        case .custom(let read): decoder.dateDecodingStrategy = .custom(read)
        }
        switch data {
        case .deferredToData: decoder.dataDecodingStrategy = .deferredToData
        case .base64: decoder.dataDecodingStrategy = .base64
        case .custom(let read): decoder.dataDecodingStrategy = .custom(read)
        }
        switch floats {
        case .throw: decoder.nonConformingFloatDecodingStrategy = .throw
        case .convertFromString(let positive, let negative, let nan):
            decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: positive, negativeInfinity: negative, nan: nan)
        }
        decoder.userInfo = userInfo
        return decoder
    }
}

/// The comparisons.
enum Compat {
    static func foundation<T: Decodable>(_ type: T.Type, _ json: [UInt8], _ settings: CompatSettings = .defaults) -> Outcome<T> {
        Outcome { try settings.foundation.decode(T.self, from: Data(json)) }
    }

    static func spool<T: Decodable>(_ type: T.Type, _ json: [UInt8], _ settings: CompatSettings = .defaults) -> Outcome<T> {
        Outcome { try settings.spool.decode(T.self, from: Data(json)) }
    }

    static func foundation<T: Decodable>(_ type: T.Type, _ json: String, _ settings: CompatSettings = .defaults) -> Outcome<T> {
        foundation(T.self, Array(json.utf8), settings)
    }

    static func spool<T: Decodable>(_ type: T.Type, _ json: String, _ settings: CompatSettings = .defaults) -> Outcome<T> {
        spool(T.self, Array(json.utf8), settings)
    }

    /// Decodes `json` with both decoders (Spool from `Data`, `[UInt8]` and, when it is UTF-8,
    /// `String`, which must agree) and expects the same outcome. Spool's own errors must be
    /// located: those whose description differs from JSONDecoder's (an error both describe
    /// alike comes from code they share: the standard library's or the model's), unless
    /// `located` is false.
    @discardableResult
    static func expectSame<T: Decodable & Equatable>(
        _ type: T.Type, _ json: [UInt8], _ settings: CompatSettings = .defaults, located: Bool = true,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> Outcome<T> {
        let expected = foundation(T.self, json, settings)
        let decoder = settings.spool
        let fromData = Outcome { try decoder.decode(T.self, from: Data(json)) }
        let fromBytes = Outcome { try decoder.decode(T.self, from: .bytes(json)) }
        #expect(Outcome.same(fromData, expected), "JSONDecoder: \(expected)\nSpool:       \(fromData)", sourceLocation: sourceLocation)
        #expect(Outcome.same(fromBytes, fromData), "[UInt8] and Data differ", sourceLocation: sourceLocation)
        if let text = String(validating: json, as: UTF8.self) {
            let fromString = Outcome { try decoder.decode(T.self, from: .string(text)) }
            #expect(Outcome.same(fromString, fromData), "String and Data differ", sourceLocation: sourceLocation)
        }
        // Three bytes at a time: containers are still arriving when their decoding starts (an
        // array's elements are appended one by one, not counted first) and the outermost array
        // releases what it has decoded, as with a large input.
        let chunked = settings.spool
        chunked.options.chunkSize = 3
        let fromChunks = Outcome { try chunked.decode(T.self, from: Data(json)) }
        #expect(Outcome.same(fromChunks, fromData), "3-byte chunks and whole differ: \(fromChunks)", sourceLocation: sourceLocation)
        if located, let error = fromData.error, error.kind != .other, !error.path.isEmpty || error.kind != .dataCorrupted,
            error.debugDescription != expected.error?.debugDescription
        {
            #expect(error.isLocated, "not located: \(error.debugDescription)", sourceLocation: sourceLocation)
        }
        return fromData
    }

    @discardableResult
    static func expectSame<T: Decodable & Equatable>(
        _ type: T.Type, _ json: String, _ settings: CompatSettings = .defaults, located: Bool = true,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> Outcome<T> {
        expectSame(T.self, Array(json.utf8), settings, located: located, sourceLocation: sourceLocation)
    }
}

/// One row of a table: a named comparison.
struct CompatCase: Sendable, CustomTestStringConvertible {
    let name: String
    let check: @Sendable () -> Void

    var testDescription: String { name }

    /// `json` as `T` agrees between the decoders.
    static func same<T: Decodable & Equatable & SendableMetatype>(
        _ type: T.Type, _ json: String, _ settings: CompatSettings = .defaults, label: String = "", located: Bool = true,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> CompatCase {
        CompatCase(name: "\(label.isEmpty ? "" : "\(label): ")\(T.self) ← \(json.prefix(80))") {
            Compat.expectSame(T.self, json, settings, located: located, sourceLocation: sourceLocation)
        }
    }

    /// `bytes` as `T` agrees between the decoders.
    static func same<T: Decodable & Equatable & SendableMetatype>(
        _ type: T.Type, bytes: [UInt8], _ settings: CompatSettings = .defaults, label: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> CompatCase {
        CompatCase(name: "\(label): \(T.self) ← \(bytes.prefix(40).map { String($0, radix: 16) }.joined(separator: " "))") {
            Compat.expectSame(T.self, bytes, settings, sourceLocation: sourceLocation)
        }
    }

    /// `json` as `T` agrees, and is the error `expected` (an anchor, so that a table cannot
    /// silently pass with both decoders wrong in the same way).
    static func fails<T: Decodable & Equatable & SendableMetatype>(
        _ type: T.Type, _ json: String, _ expected: ErrorRecord, _ settings: CompatSettings = .defaults, located: Bool = true,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> CompatCase {
        CompatCase(name: "\(T.self) ← \(json.prefix(80)) fails: \(expected)") {
            let outcome = Compat.expectSame(T.self, json, settings, located: located, sourceLocation: sourceLocation)
            #expect(outcome.error == expected, "\(outcome)", sourceLocation: sourceLocation)
        }
    }

    /// The same JSON value as `T` at the root, as the value of a key and as an array element.
    static func everywhere<T: Decodable & Equatable & SendableMetatype>(
        _ type: T.Type, _ json: String, _ settings: CompatSettings = .defaults, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> [CompatCase] {
        [
            same(T.self, json, settings, sourceLocation: sourceLocation),
            same(Box<T>.self, #"{"value": \#(json)}"#, settings, sourceLocation: sourceLocation),
            same([T].self, "[\(json)]", settings, sourceLocation: sourceLocation),
            same([T].self, "[\(json), \(json)]", settings, sourceLocation: sourceLocation),
        ]
    }
}

/// A value under the key `value`, decoded with the generic `decode(_:forKey:)`.
struct Box<T: Decodable & Equatable>: Decodable, Equatable {
    let value: T
}

extension Box: Sendable where T: Sendable {}

/// An optional value under the key `value`, decoded with `decodeIfPresent(_:forKey:)`.
struct OptionalBox<T: Decodable & Equatable>: Decodable, Equatable {
    let value: T?
}

// MARK: - Probes

/// A model that runs a script against its decoder and keeps a log of what it saw (values,
/// coding paths, counts, errors caught), so that two decoders are compared step by step. The
/// script travels in `userInfo`, which also checks that user info reaches nested decoders.
struct Probe: Decodable, Equatable, CustomStringConvertible {
    typealias Script = @Sendable (any Decoder, inout ProbeLog) throws -> Void
    static let scriptKey = CodingUserInfoKey(rawValue: "spool.compat.probe")!

    let log: [String]

    init(from decoder: any Decoder) throws {
        guard let script = decoder.userInfo[Self.scriptKey] as? Script else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "no script in userInfo"))
        }
        var log = ProbeLog()
        try script(decoder, &log)
        self.log = log.lines
    }

    var description: String { log.joined(separator: "\n") }
}

/// The log of a ``Probe``.
struct ProbeLog {
    var lines: [String] = []

    /// `label = value`.
    mutating func note(_ label: String, _ value: Any) {
        lines.append("\(label) = \(String(reflecting: value))")
    }

    /// A coding path, as string and int values.
    mutating func path(_ label: String, _ path: [any CodingKey]) {
        lines.append("\(label).codingPath = [\(path.map { KeyRecord($0).description }.joined(separator: ", "))]")
    }

    /// `body`'s value, or the error it threw, in the log; the value is returned.
    @discardableResult
    mutating func attempt<T>(_ label: String, show: Bool = true, _ body: () throws -> T) -> T? {
        do {
            let value = try body()
            lines.append(show ? "\(label) = \(String(reflecting: value))" : "\(label) ok")
            return value
        } catch {
            lines.append("\(label) threw \(ErrorRecord(error))")
            return nil
        }
    }
}

extension CompatCase {
    /// `json` run through `script` by both decoders, which must write the same log; with
    /// `key`, the script runs on that member of the root object.
    static func probe(
        _ name: String, _ json: String, _ settings: CompatSettings = .defaults, under key: String? = nil,
        sourceLocation: Testing.SourceLocation = #_sourceLocation, script: @escaping Probe.Script
    ) -> CompatCase {
        var settings = settings
        settings.userInfo[Probe.scriptKey] = script
        guard let key else {
            return CompatCase(name: "\(name) ← \(json.prefix(60))") { [settings] in
                Compat.expectSame(Probe.self, json, settings, located: false, sourceLocation: sourceLocation)
            }
        }
        settings.userInfo[Member.keyKey] = key
        return CompatCase(name: "\(name) under \(key) ← \(json.prefix(60))") { [settings] in
            Compat.expectSame(Member.self, json, settings, located: false, sourceLocation: sourceLocation)
        }
    }
}

/// The ``Probe`` of one member of an object, named in `userInfo`.
struct Member: Decodable, Equatable {
    static let keyKey = CodingUserInfoKey(rawValue: "spool.compat.member")!

    let probe: Probe

    init(from decoder: any Decoder) throws {
        let key = decoder.userInfo[Self.keyKey] as? String ?? ""
        probe = try decoder.container(keyedBy: AnyKey.self).decode(Probe.self, forKey: AnyKey(key))
    }
}

/// A coding key for any name or index.
struct AnyKey: CodingKey, Hashable {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        stringValue = "\(intValue)"
        self.intValue = intValue
    }

    init(_ name: String) { self.init(stringValue: name) }
}
