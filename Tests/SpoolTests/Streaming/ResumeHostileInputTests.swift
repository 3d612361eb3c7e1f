import Foundation
import Testing
@testable import Spool

/// Hostile resume points and wildcard paths, found by an adversarial review: each failed before
/// its fix. The ones whose input trapped run in an exit test, so that a trap fails only them.
@Suite("Resumed streams and wildcards: hostile input")
struct ResumeHostileInputTests {
    typealias Loc = Spool.SourceLocation

    // MARK: - Traps (high)

    /// An element index of `Int.max` is accepted, and the index's `+= 1` after the first
    /// element overflows: the process traps instead of refusing the point.
    @Test func resumingAtIndexIntMaxDoesNotTrap() async {
        await #expect(processExitsWith: .success) {
            let stream = JSONStream(.string("[1]"), resumingAt: Spool.SourceLocation(byteOffset: 1, line: 1, column: 2), element: [.index(Int.max)])
            _ = try? stream.count()
        }
        await #expect(processExitsWith: .success) {
            let stream = JSONStream(.string("[1]"), resumingAt: Spool.SourceLocation(byteOffset: 1, line: 1, column: 2), element: [.index(Int.max)])
            _ = try? stream.elements(of: Int.self).map { try $0.get() }
        }
    }

    /// A point past the most input a reader takes (`YajlFeed.maxInputLength`, about 2^40):
    /// the "input is longer than" error is rendered at offset 0, below the window's base, and
    /// `ErrorContext.excerpt` reads outside the window (a bad pointer dereference from 2^45 on;
    /// at 2^40 the error says 1:1).
    @Test func resumingFarPastTheEndDoesNotReadOutsideTheWindow() async {
        await #expect(processExitsWith: .success) {
            let stream = JSONStream(.string("[1]"), resumingAt: Spool.SourceLocation(byteOffset: 1 << 45, line: 1, column: 2), element: [0])
            _ = try? stream.elements(of: Int.self).map { try $0.get() }
        }
        await #expect(processExitsWith: .success) {
            let stream = JSONStream(.string("[1]"), resumingAt: Spool.SourceLocation(byteOffset: Int.max, line: 1, column: Int.max), element: [0])
            _ = try? stream.count()
        }
    }

    /// A line of `Int.max` (no line can be further than `byteOffset + 1`) is accepted; the next
    /// newline wraps the line count (`&+=`) to `Int.min`: `TokenTape`'s "lines out of order"
    /// assertion traps (a debug build); a release build gives negative line numbers.
    @Test func resumingAtLineIntMaxDoesNotTrap() async {
        await #expect(processExitsWith: .success) {
            let stream = JSONStream(.string("[1,\n2]"), resumingAt: Spool.SourceLocation(byteOffset: 1, line: Int.max, column: 2), element: [0])
            let located = (try? stream.elements(of: Located<Int>.self).map { try $0.get() }) ?? []
            if located.contains(where: { $0.start.line < 1 }) { exit(1) }
        }
    }

    // MARK: - Wrong errors (medium)

    /// Input that ends inside the array: the whole stream's error names the array's `[` (1:1);
    /// the resumed stream never read it, and names the array by its path and the point resumed
    /// at, never the `[` that stands in for it before the point (1:4).
    @Test func aResumedTruncatedArrayIsNamedByThePointResumedAt() throws {
        let json = "[1, 2"
        let whole = try #require(throws: ParseError.self) { _ = try JSONStream(.string(json)).count() }
        let resumed = try #require(throws: ParseError.self) {
            _ = try JSONStream(.string(json), resumingAt: Loc(byteOffset: 4, line: 1, column: 5), element: [1]).count()
        }
        #expect(whole.summary.contains("the array opened at 1:1 is not closed"))
        #expect(resumed.summary.contains("the array at the root, resumed in at 1:5, is not closed"), "\(resumed.summary)")
        #expect(resumed.location == whole.location)
        let nested = #"{"objects": [1,"# + "\n" + "2, 3"
        let inObjects = try #require(throws: ParseError.self) {
            _ = try JSONStream(.string(nested), resumingAt: Loc(byteOffset: 16, line: 2, column: 1), element: ["objects", 1]).count(at: "objects")
        }
        #expect(inObjects.summary.contains("the array at objects, resumed in at 2:1, is not closed"), "\(inObjects.summary)")
    }

    /// `maxDepth` is counted from the stand-in `[` (depth 1), not from the array's real depth:
    /// the whole stream stops at `a[1][0]` (too deep), the resumed one hands `a[1]` out.
    @Test func aResumedStreamCountsDepthFromTheDocumentRoot() throws {
        var options = JSONParsingOptions()
        options.maxDepth = 3
        let json = #"{"a": [1, [[2]]]}"#
        let whole = try #require(throws: ParseError.self) {
            _ = try JSONStream(.string(json), options: options).elements(of: JSONValue.self, at: "a").map { try $0.get() }
        }
        #expect(whole.summary.contains("maximum depth"))
        let resumed = JSONStream(.string(json), options: options, resumingAt: Loc(byteOffset: 7, line: 1, column: 8), element: ["a", 0])
        let error = try #require(throws: ParseError.self) {
            _ = try resumed.elements(of: JSONValue.self, at: "a").map { try $0.get() }
        }
        #expect(error.summary == whole.summary)
    }

    // MARK: - Silent wrong values, refusals that depend on the input (low)

    /// A point inside a number (a saved offset one byte off) read element [0] as 345: the byte
    /// before a point must be the `[` or `,` before an element.
    @Test func aPointInsideANumberIsNotAnElement() throws {
        let stream = JSONStream(.string("[12345]"), resumingAt: Loc(byteOffset: 3, line: 1, column: 4), element: [0])
        let error = try #require(throws: InputError.self) { _ = try stream.elements(of: Int.self).map { try $0.get() } }
        #expect(error.reason.contains("'2' comes before it"), "\(error)")
        // Whitespace before the element is passed over.
        let spaced = JSONStream(.string("[1,   2]"), resumingAt: Loc(byteOffset: 6, line: 1, column: 7), element: [1])
        #expect(try spaced.elements(of: Int.self).map { try $0.get() } == [2])
    }

    /// `[*]` in a path to one value is refused only when the input gets that far: with the key
    /// missing, `<||?` gives nil and `rootKeyPath` a keyNotFound, not the path's SyntaxError.
    @Test func aWildcardInAPathToOneValueIsRefusedWhateverTheInput() throws {
        struct Numbers: JSONDecodable {
            let values: [Int]?
            static func decode(_ e: Extractor) throws -> Numbers { try Numbers(values: e <||? ["a", .wildcard]) }
        }
        #expect(throws: (any Error).self) { _ = try Numbers.decodeValue(from: .string("{}")) }
        #expect(throws: JSONKeyPath.SyntaxError.self) {
            _ = try StreamingJSONDecoder().decode([Int]?.self, from: Data("{}".utf8), rootKeyPath: ["a", .wildcard])
        }
    }
}
