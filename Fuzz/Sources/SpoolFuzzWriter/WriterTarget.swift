#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FuzzSupport
import Spool

/// Fuzzing of ``JSONWriter`` and ``StreamingJSONEncoder`` (see Fuzz/README.md). The first byte
/// holds the parsing options (bits 0, 1, 7, as for SpoolFuzzStream) and the pretty indent
/// (bits 2-4: 0 to 6 spaces); the rest is read twice:
///
/// - as JSON (``checkRoundTrip(_:)``): the tokens the reader gives are written again, through
///   `copy(from:)`, through the writer's `String` calls and through its UTF-8 calls, compact,
///   compact without escaping slashes, pretty and as JSON Lines; each output must be,
///   byte for byte, what a reference serializer written here makes of the tokens (the same
///   error where reading fails, a misuse error at a second top-level value outside JSON
///   Lines), and read again must give the same tokens (strings and number texts byte for
///   byte). A valid document is also written from an ``Extractor`` (`value(_:)`), and each
///   number is written as `Double`, `Float`, `Int64`, `UInt64` and `Decimal` and must read
///   back as the same value;
/// - as a recipe for an `Encodable` tree (EncoderTarget.swift), encoded by
///   ``StreamingJSONEncoder`` and compared with `JSONEncoder`, `JSONSerialization` and a
///   decode back through ``StreamingJSONDecoder``.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWriter(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let input = FuzzInput(data, size) else { return 0 }
    checkRoundTrip(input)
    checkEncoder(input)
    return 0
}

// MARK: - Tokens

/// One token as the reader gave it: its kind and, for keys, strings and numbers, its bytes.
struct Token: Equatable, CustomStringConvertible {
    enum Kind: Equatable { case objectStart, objectEnd, arrayStart, arrayEnd, key, string, number, bool(Bool), null }
    var kind: Kind
    var bytes: [UInt8] = []

    var description: String {
        switch kind {
        case .key, .string, .number: return "\(kind)(\(FuzzInput.show(bytes)))"
        default: return "\(kind)"
        }
    }

    /// Whether a value begins with this token.
    var beginsValue: Bool { kind != .objectEnd && kind != .arrayEnd && kind != .key }
}

/// The tokens of `bytes` and the reader's error.
func readTokens(_ bytes: [UInt8], _ options: JSONParsingOptions) -> (tokens: [Token], error: (any Error)?) {
    let reader = JSONReader(.bytes(bytes), options: options)
    var tokens: [Token] = []
    do {
        while let token = try reader.next() {
            switch token {
            case .objectStart: tokens.append(Token(kind: .objectStart))
            case .objectEnd: tokens.append(Token(kind: .objectEnd))
            case .arrayStart: tokens.append(Token(kind: .arrayStart))
            case .arrayEnd: tokens.append(Token(kind: .arrayEnd))
            case .key: tokens.append(Token(kind: .key, bytes: Array((reader.text ?? "").utf8)))
            case .string: tokens.append(Token(kind: .string, bytes: Array((reader.text ?? "").utf8)))
            case .number: tokens.append(Token(kind: .number, bytes: Array((reader.text ?? "").utf8)))
            case .bool(let value): tokens.append(Token(kind: .bool(value)))
            case .null: tokens.append(Token(kind: .null))
            }
        }
    } catch {
        return (tokens, error)
    }
    return (tokens, nil)
}

// MARK: - The reference serializer

/// What ``JSONWriter`` must write for `tokens` in `format`, as its documentation and
/// `JSONEncoder` lay JSON out: compact without whitespace; pretty with each member and element
/// on its own line, `indent` spaces per level, `"key" : value`, an empty container as its two
/// brackets around an empty line; JSON Lines as compact values each followed by a line feed.
/// Strings escape `"` `\` (and `/` unless told not to), `\b \f \n \r \t`, other control
/// characters as `\u00xx` in lowercase hex, and nothing else. Stops before a second top-level
/// value outside JSON Lines (`stoppedAtSecondValue`).
struct ReferenceSerializer {
    enum Layout: Equatable { case compact, pretty(Int), lines }
    var layout: Layout
    var escapesSlashes: Bool

    func serialize(_ tokens: [Token]) -> (bytes: [UInt8], stoppedAtSecondValue: Bool) {
        var out: [UInt8] = []
        var counts: [Int] = [0]  // values or members begun, per open container (0: the top level)
        var afterKey = false
        func indent(_ level: Int) {
            if case .pretty(let width) = layout { out += Array(repeating: 0x20, count: level * width) }
        }
        func separator() {
            let level = counts.count - 1
            if case .pretty = layout {
                if counts[level] > 0 { out += Array(",\n".utf8) }
                indent(level)
            } else if counts[level] > 0 {
                out.append(UInt8(ascii: ","))
            }
        }
        for token in tokens {
            if token.beginsValue {
                if counts.count == 1 {
                    if counts[0] > 0 && layout != .lines { return (out, true) }
                    counts[0] += 1
                } else if afterKey {
                    afterKey = false
                } else {
                    separator()
                    counts[counts.count - 1] += 1
                }
            }
            switch token.kind {
            case .objectStart, .arrayStart:
                out.append(token.kind == .objectStart ? UInt8(ascii: "{") : UInt8(ascii: "["))
                if case .pretty = layout { out.append(0x0A) }
                counts.append(0)
                continue
            case .objectEnd, .arrayEnd:
                counts.removeLast()
                if case .pretty = layout {
                    out.append(0x0A)
                    indent(counts.count - 1)
                }
                out.append(token.kind == .objectEnd ? UInt8(ascii: "}") : UInt8(ascii: "]"))
            case .key:
                separator()
                counts[counts.count - 1] += 1
                quote(token.bytes, into: &out)
                if case .pretty = layout { out += Array(" : ".utf8) } else { out.append(UInt8(ascii: ":")) }
                afterKey = true
                continue
            case .string: quote(token.bytes, into: &out)
            case .number: out += token.bytes
            case .bool(let value): out += Array((value ? "true" : "false").utf8)
            case .null: out += Array("null".utf8)
            }
            if counts.count == 1 && layout == .lines { out.append(0x0A) }
        }
        return (out, false)
    }

    func quote(_ bytes: [UInt8], into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), byte]
            case UInt8(ascii: "/") where escapesSlashes: out += [UInt8(ascii: "\\"), byte]
            case 0x08: out += Array("\\b".utf8)
            case 0x0C: out += Array("\\f".utf8)
            case 0x0A: out += Array("\\n".utf8)
            case 0x0D: out += Array("\\r".utf8)
            case 0x09: out += Array("\\t".utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    var format: JSONWriter.Format {
        switch layout {
        case .compact: return JSONWriter.Format(.compact, escapesSlashes: escapesSlashes)
        case .pretty(let indent): return JSONWriter.Format(.pretty(indent: indent), escapesSlashes: escapesSlashes)
        case .lines: return JSONWriter.Format(.lines, escapesSlashes: escapesSlashes)
        }
    }
}

// MARK: - Round trip

/// How a writer is driven over the tokens.
enum Driver: CaseIterable {
    /// `copy(from:)` a reader of the input.
    case copy
    /// `key(_: String)`, `string(_: String)`, `number(text:)`.
    case strings
    /// `key(utf8:)`, `string(utf8:)`, `number(utf8:)`, with arrays and slices in turn.
    case utf8
}

func checkRoundTrip(_ input: FuzzInput) {
    let options = input.oneThread
    let (tokens, readError) = readTokens(input.bytes, options)
    if let readError, !(readError is ParseError) { fail("the reader threw \(type(of: readError))", input, "\(readError)") }
    let indent = input.smallChunk - 1
    let layouts: [(ReferenceSerializer.Layout, Bool)] = [(.compact, true), (.compact, false), (.pretty(indent), true), (.lines, true)]
    for (layout, escapesSlashes) in layouts {
        let reference = ReferenceSerializer(layout: layout, escapesSlashes: escapesSlashes)
        let (expected, stopped) = reference.serialize(tokens)
        for driver in Driver.allCases {
            let writer = JSONWriter(format: reference.format)
            var thrown: (any Error)?
            do {
                try write(tokens, input, options, to: writer, driver)
            } catch {
                thrown = error
            }
            let what = "\(driver) in \(reference.format)"
            if writer.bytes != expected {
                fail("JSONWriter (\(what)) wrote other bytes than the reference", input,
                     "expected: \(FuzzInput.show(expected, limit: 600))\nwritten:  \(FuzzInput.show(writer.bytes, limit: 600))\ntokens: \(tokens)")
            }
            // What must have ended the writing: a second top-level value outside JSON Lines
            // (a misuse), else the reader's error (for copy), else nothing.
            let expectedError: String?
            if stopped {
                expectedError = "misuse"
            } else if driver == .copy, let readError {
                expectedError = "\(readError)"
            } else {
                expectedError = nil
            }
            let actualError = thrown.map { ($0 as? WriteError).map { "\($0.code)" } ?? "\($0)" }
            if actualError != expectedError {
                fail("JSONWriter (\(what)) ended with another error", input, "expected: \(expectedError ?? "none")\nthrown: \(actualError ?? "none")")
            }
            checkFinish(writer, tokens: tokens, stopped: stopped, input, what)
            // Read back, the output gives the same tokens.
            if readError == nil && !stopped && !tokens.isEmpty {
                var strict = JSONParsingOptions()
                strict.allowsMultipleValues = layout == .lines
                strict.parsesInBackground = false
                let (again, error) = readTokens(writer.bytes, strict)
                if error != nil || again != tokens {
                    fail("JSONWriter's output (\(what)) does not read back as the input's tokens", input,
                         "output: \(FuzzInput.show(writer.bytes, limit: 600))\nerror: \(error.map { "\($0)" } ?? "none")\nread: \(again)\nwritten: \(tokens)")
                }
            }
        }
    }
    if readError == nil, !tokens.isEmpty {
        checkExtractorValue(input, options, tokens)
    }
    checkNumbers(tokens, input)
}

/// Writes `tokens` the way `driver` says.
func write(_ tokens: [Token], _ input: FuzzInput, _ options: JSONParsingOptions, to writer: JSONWriter, _ driver: Driver) throws {
    if driver == .copy {
        try writer.copy(from: JSONReader(.bytes(input.bytes), options: options))
        return
    }
    for (index, token) in tokens.enumerated() {
        switch token.kind {
        case .objectStart: try writer.beginObject()
        case .objectEnd: try writer.endObject()
        case .arrayStart: try writer.beginArray()
        case .arrayEnd: try writer.endArray()
        case .bool(let value): try writer.bool(value)
        case .null: try writer.null()
        case .key, .string, .number:
            if driver == .strings {
                let text = String(decoding: token.bytes, as: UTF8.self)
                switch token.kind {
                case .key: try writer.key(text)
                case .string: try writer.string(text)
                default: try writer.number(text: text)
                }
            } else if index % 2 == 0 {
                switch token.kind {
                case .key: try writer.key(utf8: token.bytes)
                case .string: try writer.string(utf8: token.bytes)
                default: try writer.number(utf8: token.bytes)
                }
            } else {
                // A slice whose storage starts elsewhere, and a lazy collection without
                // contiguous storage.
                let padded = [0x20] + token.bytes + [0x20]
                let slice = padded[1..<(padded.count - 1)]
                switch token.kind {
                case .key: try writer.key(utf8: slice.lazy.map { $0 })
                case .string: try writer.string(utf8: slice)
                default: try writer.number(utf8: slice.lazy.map { $0 })
                }
            }
        }
    }
}

/// `finish()`: succeeds for a complete document (any number of values in JSON Lines, else one),
/// and otherwise throws a misuse and changes nothing; after it, every call throws `closed`.
func checkFinish(_ writer: JSONWriter, tokens: [Token], stopped: Bool, _ input: FuzzInput, _ what: String) {
    let before = writer.bytes
    let openContainers = tokens.reduce(0) { open, token in
        switch token.kind {
        case .objectStart, .arrayStart: return open + 1
        case .objectEnd, .arrayEnd: return open - 1
        default: return open
        }
    }
    if !stopped && writer.depth != openContainers {
        fail("JSONWriter (\(what)).depth is \(writer.depth) with \(openContainers) containers open", input)
    }
    let complete = writer.depth == 0 && (writer.format.layout == .lines || tokens.contains(where: \.beginsValue))
    do {
        try writer.finish()
        if !complete { fail("JSONWriter (\(what)).finish() succeeded on an incomplete document", input, FuzzInput.show(before)) }
    } catch {
        if complete || error.code != .misuse {
            fail("JSONWriter (\(what)).finish() threw \(error.code)", input, "\(error)\n\(FuzzInput.show(before))")
        }
        if writer.bytes != before { fail("JSONWriter (\(what)).finish() that threw changed the output", input) }
        return
    }
    if writer.bytes != before || !writer.isFinished { fail("JSONWriter (\(what)).finish() changed the output or is not finished", input) }
    do {
        try writer.null()
        fail("JSONWriter (\(what)) wrote after finish()", input)
    } catch {
        if error.code != .closed { fail("JSONWriter (\(what)) after finish() threw \(error), not closed", input) }
    }
}

/// `value(_:)` of the document's ``Extractor``: the compact document; and of each of the first
/// few children of a root container: that child, compact.
func checkExtractorValue(_ input: FuzzInput, _ options: JSONParsingOptions, _ tokens: [Token]) {
    var options = options
    options.releasesDecodedElements = false
    let extractor: Extractor
    do {
        extractor = try Extractor.decodeValue(from: .bytes(input.bytes), options: options)
    } catch {
        fail("Extractor.decodeValue failed on a document the reader reads", input, "\(error)")
    }
    let reference = ReferenceSerializer(layout: .compact, escapesSlashes: true)
    let firstValue = Array(tokens.prefix(through: lastIndexOfValue(tokens, at: 0)))
    let writer = JSONWriter()
    do {
        try writer.value(extractor)
    } catch {
        fail("JSONWriter.value(_:) failed", input, "\(error)")
    }
    if writer.bytes != reference.serialize(firstValue).bytes {
        fail("JSONWriter.value(_:) wrote other bytes than the reference", input,
             "expected: \(FuzzInput.show(reference.serialize(firstValue).bytes))\nwritten:  \(FuzzInput.show(writer.bytes))")
    }
    // The children, each into an array: values after values, through extractors of the tape.
    guard firstValue.count > 2, firstValue[0].kind == .arrayStart || firstValue[0].kind == .objectStart else { return }
    let children = JSONWriter()
    var expected: [Token] = [Token(kind: .arrayStart)]
    do {
        try children.beginArray()
        var index = 1
        var position = 0
        var keys: Set<String> = []
        while index < firstValue.count - 1 && position < 4 {
            let component: JSONKeyPath.Component
            if firstValue[index].kind == .key {
                component = .key(String(decoding: firstValue[index].bytes, as: UTF8.self))
                index += 1
            } else {
                component = .index(position)
            }
            let end = lastIndexOfValue(firstValue, at: index)
            defer {
                index = end + 1
                position += 1
            }
            // A lookup finds the first of equal keys: a later one is not written.
            if case .key(let key) = component, !keys.insert(key).inserted { continue }
            try children.value(extractor.value(JSONKeyPath([component])))
            expected += firstValue[index...end]
        }
        try children.endArray()
        expected.append(Token(kind: .arrayEnd))
    } catch {
        fail("JSONWriter.value(_:) of a child failed", input, "\(error)")
    }
    if children.bytes != reference.serialize(expected).bytes {
        fail("JSONWriter.value(_:) of children wrote other bytes than the reference", input,
             "expected: \(FuzzInput.show(reference.serialize(expected).bytes))\nwritten:  \(FuzzInput.show(children.bytes))")
    }
}

/// The index of the last token of the value starting at `start`.
func lastIndexOfValue(_ tokens: [Token], at start: Int) -> Int {
    var depth = 0
    var index = start
    while index < tokens.count {
        switch tokens[index].kind {
        case .objectStart, .arrayStart: depth += 1
        case .objectEnd, .arrayEnd: depth -= 1
        default: break
        }
        if depth == 0 { return index }
        index += 1
    }
    return tokens.count - 1
}

/// Each number (the first 16) written as `Double`, `Float`, `Int64`, `UInt64` and `Decimal`:
/// a JSON number that reads back as the same value.
func checkNumbers(_ tokens: [Token], _ input: FuzzInput) {
    for token in tokens.lazy.filter({ $0.kind == .number }).prefix(16) {
        let text = String(decoding: token.bytes, as: UTF8.self)
        func written(_ write: (JSONWriter) throws -> Void) -> String {
            let writer = JSONWriter()
            do {
                try write(writer)
                try writer.finish()
            } catch {
                fail("JSONWriter refused a number from \(text)", input, "\(error)")
            }
            let output = String(decoding: writer.bytes, as: UTF8.self)
            var strict = JSONParsingOptions()
            strict.parsesInBackground = false
            let (tokens, error) = readTokens(writer.bytes, strict)
            guard error == nil, tokens.count == 1, tokens[0].kind == .number else {
                fail("JSONWriter wrote \(output) for a number from \(text): not a JSON number", input)
            }
            return output
        }
        if let double = Double(text), double.isFinite {
            let output = written { try $0.number(double) }
            guard let back = Double(output), back.bitPattern == double.bitPattern else {
                fail("JSONWriter wrote the Double \(double) (from \(text)) as \(output), which reads back as \(Double(output).map { "\($0)" } ?? "nothing")", input)
            }
        }
        if let float = Float(text), float.isFinite {
            let output = written { try $0.number(float) }
            guard let back = Float(output), back.bitPattern == float.bitPattern else {
                fail("JSONWriter wrote the Float \(float) (from \(text)) as \(output)", input)
            }
        }
        if let integer = Int64(text) {
            let output = written { try $0.number(integer) }
            if output != String(integer) { fail("JSONWriter wrote the Int64 \(integer) as \(output)", input) }
        }
        if let integer = UInt64(text) {
            let output = written { try $0.number(integer) }
            if output != String(integer) { fail("JSONWriter wrote the UInt64 \(integer) as \(output)", input) }
        }
        if token.bytes.count <= 40, let decimal = Decimal(string: text), !decimal.isNaN {
            let output = written { try $0.number(decimal) }
            guard let back = Decimal(string: output), back == decimal else {
                fail("JSONWriter wrote the Decimal \(decimal) (from \(text)) as \(output)", input)
            }
        }
    }
}
