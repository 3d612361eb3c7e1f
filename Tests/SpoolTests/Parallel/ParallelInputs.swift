import Foundation
import Testing
@testable import Spool

/// Inputs and serial outcomes for the tests of ``ParallelJSONElements``: generated arrays of
/// varied elements, and what the serial ``JSONStream`` gives for them.
enum ParallelInputs {
    /// An element of the generated arrays, as a `Decodable` model.
    struct Item: Codable, Hashable {
        let id: Int
        let name: String
        let tags: [String]
        let nested: [String: [[Int]]]?
    }

    /// Names with what a pre-scan must not take for structure: escaped quotes, brackets,
    /// braces, commas and backslashes in strings, and multi-byte UTF-8.
    static let names = [
        #"plain"#, #"say \"hi\", then ]"#, #"back\\slash\\"#, #"[not, an, array]"#, #"{\"not\": \"an object\"}"#,
        "ünïcødé 🎸 ギター", #"tab\tand\nnewline \u00e9 \ud83c\udfb8"#, #"\\\"]},"#, "",
    ]

    /// The text of element `index`: a varied object, written on one line or over several.
    static func element(_ index: Int) -> String {
        let name = names[index % names.count]
        let tags = (0..<(index % 4)).map { #""\#(names[($0 + index) % names.count])""# }.joined(separator: ", ")
        let nested = index % 3 == 0 ? #""nested": {"a": [[1, 2], [\#(index)]], "b": [], "c\"]": [[]]}, "# : ""
        let body = #"{"id": \#(index), "name": "\#(name)", \#(nested)"tags": [\#(tags)], "extra": [{"x": [1, {"y": "]"}]}, null, true]}"#
        guard index % 5 == 2 else { return body }
        // Spread over lines, with the array's commas and whitespace on lines of their own.
        return body.replacingOccurrences(of: ", \"", with: ",\n      \"") + "\n  "
    }

    /// A document with an array of `count` generated elements at `objects`, the elements
    /// replaced where `replacing` says.
    static func document(count: Int, replacing: [Int: String] = [:], prefix: String = "", suffix: String = "") -> String {
        var text = #"{"source": "generated", "# + prefix + #""objects": ["# + "\n"
        for index in 0..<count {
            if index > 0 { text += index % 7 == 0 ? "\n  ,  " : ", " }
            text += replacing[index] ?? element(index)
        }
        return text + "\n], \"last_updated\": \"2026-11-28\"" + suffix + "}\n"
    }

    /// The repository's band catalog.
    static var bandsPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/bands.json").path
    }

    /// What a stream of elements gave: the values, then the error that ended it, if any.
    struct Outcome<Value: Equatable>: Equatable, CustomStringConvertible {
        var values: [Value] = []
        var error: String?
        var codingPath: String?

        var description: String {
            "\(values.count) values, error: \(error ?? "none") \(codingPath.map { "at \($0)" } ?? "")"
        }

        /// Records the error that ended the stream.
        mutating func fail(_ error: any Error) {
            self.error = String(describing: error)
            if let error = error as? DecodingError {
                switch error {
                case .keyNotFound(_, let context), .valueNotFound(_, let context), .typeMismatch(_, let context),
                    .dataCorrupted(let context):
                    codingPath = context.codingPath.map(\.stringValue).joined(separator: ".")
                @unknown default:
                    codingPath = "?"
                }
            }
        }
    }

    /// The serial stream's elements of the array at `path`, decoded as the `Decodable` `Value`.
    static func serial<Value: Decodable & Equatable>(
        _ type: Value.Type, _ input: JSONInput, at path: JSONKeyPath, options: JSONParsingOptions = .init()
    ) -> Outcome<Value> {
        drain(JSONStream(input, options: options).elements(of: type, at: path, decoder: StreamingJSONDecoder()))
    }

    /// The serial stream's elements of the array at `path`, decoded as the ``JSONDecodable`` `Value`.
    static func serialJSONDecodable<Value: JSONDecodable & Equatable>(
        _ type: Value.Type, _ input: JSONInput, at path: JSONKeyPath, options: JSONParsingOptions = .init()
    ) -> Outcome<Value> {
        drain(JSONStream(input, options: options).elements(of: type, at: path))
    }

    /// `elements` read to the end or the first error.
    private static func drain<Value: Equatable>(_ elements: JSONElements<Value>) -> Outcome<Value> {
        var outcome = Outcome<Value>()
        do {
            while let value = try elements.next() { outcome.values.append(value) }
        } catch {
            outcome.fail(error)
        }
        return outcome
    }

    /// The parallel engine's elements, read to the end or the first error.
    static func parallel<Value: Equatable>(_ elements: ParallelJSONElements<Value>) -> Outcome<Value> {
        var outcome = Outcome<Value>()
        do {
            while let value = try elements.next() { outcome.values.append(value) }
            // Nothing after the end (or the error).
            if try elements.next() != nil { outcome.error = "an element after the end" }
        } catch {
            outcome.fail(error)
            if (try? elements.next()) != nil { outcome.error = "an element after the error" }
        }
        return outcome
    }

    /// Writes `text` to a temporary file; returns its path.
    static func temporaryFile(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("spool-parallel-\(UUID().uuidString).json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Waits up to `seconds` for `condition`.
    static func eventually(within seconds: Double = 5, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(2_000)
        }
        return condition()
    }
}
