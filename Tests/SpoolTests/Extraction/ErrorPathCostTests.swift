import Foundation
import Testing
@testable import Spool

/// An error's key path is found by walking the tape from the root. Errors asked for element
/// after element of one array (the `try?` fallback idiom: an `Int` tried first, then a
/// `String`) resume that walk where the previous one found its way, so each costs O(1) in the
/// element's index, not O(index): 80,000 refused elements took 2.9 s, against 0.047 s for
/// `JSONDecoder` (`Benchmarks/bench.py --fallback` measures it now).
@Suite("The cost and the truth of error paths")
struct ErrorPathCostTests {
    static func strings(_ count: Int) -> String {
        "[" + (0..<count).map { "\"s\($0)\"" }.joined(separator: ",") + "]"
    }

    /// One element, tried as an `Int` first.
    enum Element: JSONDecodable, Equatable {
        case int(Int)
        case string(String)

        static func decode(_ e: Extractor) throws -> Element {
            if let int = try? Int.decode(e) { return .int(int) }
            return .string(try String.decode(e))
        }
    }

    @Test func refusedElementsInOrderCostStepsLinearInTheirNumber() throws {
        let count = 20_000
        let root = try Extractor.decodeValue(from: .string(Self.strings(count)))
        var refused = 0
        let elements: [Extractor] = try root.array(.root)
        for (index, element) in elements.enumerated() {
            do {
                _ = try Int.decode(element)
            } catch let error as DecodeError {
                #expect(error.keyPath == [.index(index)])
                refused += 1
            }
        }
        #expect(refused == count)
        // Walking from the array's start for each would be count² / 2 = 200,000,000 steps.
        #expect(root.context.pathSteps < 3 * count, "\(root.context.pathSteps) steps")
    }

    @Test func pathsAreRightInAnyOrderAndAcrossLevels() throws {
        let text = #"{"a":[{"b":[1,"x",2]},{"b":["y",3,"z"]}],"c":{"d":"w","e":[4,"v"]}}"#
        let root = try Extractor.decodeValue(from: .string(text))
        let asked: [JSONKeyPath] = [
            ["a", 1, "b", 2], ["a", 0, "b", 1], ["a", 1, "b", 0], ["c", "e", 1], ["c", "d"], ["a", 1, "b", 2],
            ["a", 0, "b", 1],
        ]
        for path in asked {
            let value: Extractor = try root.value(path)
            let error = try #require(throws: DecodeError.self) { try Int.decode(value) }
            #expect(error.keyPath == path)
            #expect(error.message.hasPrefix("expected Int at \(path), found string"))
        }
    }

    @Test func theFallbackIdiomDecodesAndLocatesWithBothDecoders() throws {
        let text = #"[1,"two",3,"four",null]"#
        let values = try [Element?].decodeValue(from: .string(text))
        #expect(values == [.int(1), .string("two"), .int(3), .string("four"), nil])

        struct Mixed: Decodable {
            var values: [String] = []
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                while !container.isAtEnd {
                    if let int = try? container.decode(Int.self) {
                        values.append(String(int))
                    } else {
                        values.append(try container.decode(String.self))
                    }
                }
            }
        }
        #expect(try StreamingJSONDecoder().decode(Mixed.self, from: Data(#"[1,"two",3]"#.utf8)).values == ["1", "two", "3"])
        // The last refusal is thrown, at its own index and place.
        let error = try #require(throws: DecodingError.self) {
            try StreamingJSONDecoder().decode(Mixed.self, from: Data(#"[1,"two",true]"#.utf8))
        }
        guard case .typeMismatch(_, let context) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(context.codingPath.map(\.intValue) == [2])
        #expect(context.debugDescription == "1:10: expected String at [2], found true")
    }
}
