import Foundation
import Spool
import Testing

/// Nested containers taken from an array that releases its elements (whole-document decoding):
/// a nested container is read after the array has moved past its element, so that element must
/// stay on the tape while the container lives (issue 21: the last element was released first).
@Suite("Compatibility: nested containers of a releasing array")
struct CompatibilityNestedContainerTests {
    /// Walks `[[a, b], ...]` with `nestedUnkeyedContainer()`, as hand-written models do.
    struct Pairs: Decodable, Equatable {
        var sums: [Int] = []

        init(sums: [Int]) { self.sums = sums }

        init(from decoder: any Decoder) throws {
            var outer = try decoder.unkeyedContainer()
            while !outer.isAtEnd {
                var inner = try outer.nestedUnkeyedContainer()
                sums.append(try inner.decode(Int.self) + inner.decode(Int.self))
            }
        }
    }

    /// Walks `[{"x": a}, ...]` with `nestedContainer(keyedBy:)`.
    struct Xs: Decodable, Equatable {
        enum Keys: String, CodingKey { case x }
        var xs: [Int] = []

        init(xs: [Int]) { self.xs = xs }

        init(from decoder: any Decoder) throws {
            var outer = try decoder.unkeyedContainer()
            while !outer.isAtEnd {
                let inner = try outer.nestedContainer(keyedBy: Keys.self)
                xs.append(try inner.decode(Int.self, forKey: .x))
            }
        }
    }

    /// Takes two nested containers before reading either: the first must survive the second
    /// step (and, in a long array, the release of a run of elements in between).
    struct TwoAtATime: Decodable, Equatable {
        var values: [Int] = []

        init(values: [Int]) { self.values = values }

        init(from decoder: any Decoder) throws {
            var outer = try decoder.unkeyedContainer()
            while !outer.isAtEnd {
                var first = try outer.nestedUnkeyedContainer()
                var second = try outer.nestedUnkeyedContainer()
                values.append(try second.decode(Int.self))
                values.append(try first.decode(Int.self))
            }
        }
    }

    static let rows: [CompatCase] = [
        .same(Pairs.self, "[[1,2],[3,4]]"), .same(Pairs.self, "[[1,2]]"), .same(Pairs.self, "[]"),
        .same(Pairs.self, "[[1,2],[3]]"), .same(Pairs.self, #"[[1,2],[3,"x"]]"#),
        .same(Xs.self, #"[{"x": 1}, {"x": 2}]"#), .same(Xs.self, #"[{"x": 1}, {"y": 2}]"#),
        .same(TwoAtATime.self, "[[1],[2],[3],[4]]"), .same(TwoAtATime.self, "[[1],[2],[3]]"),
    ]

    @Test(arguments: rows) func nestedContainers(_ row: CompatCase) { row.check() }

    @Test func indexSetRoundTrips() throws {
        let set = IndexSet([1, 5, 6, 7, 100, 101])
        let json = try JSONEncoder().encode(set)
        #expect(try StreamingJSONDecoder().decode(IndexSet.self, from: json) == set)
        let chunked = StreamingJSONDecoder()
        chunked.options.chunkSize = 3
        #expect(try chunked.decode(IndexSet.self, from: json) == set)
    }

    /// Long arrays, so that runs of elements are released while nested containers live, in
    /// small chunks (decoding while parsing) and whole.
    @Test(arguments: [7, 4096, 1 << 20])
    func longArraysKeepTheElementsTheirContainersRead(_ chunkSize: Int) throws {
        let count = 30_000
        let pairs = "[" + (0..<count).map { "[\($0),1]" }.joined(separator: ",") + "]"
        let objects = "[" + (0..<count).map { #"{"x":\#($0)}"# }.joined(separator: ",") + "]"
        let decoder = StreamingJSONDecoder()
        decoder.options.chunkSize = chunkSize
        #expect(try decoder.decode(Pairs.self, from: Data(pairs.utf8)) == Pairs(sums: (0..<count).map { $0 + 1 }))
        #expect(try decoder.decode(Xs.self, from: Data(objects.utf8)) == Xs(xs: Array(0..<count)))
        let two = try decoder.decode(TwoAtATime.self, from: Data(pairs.utf8))
        #expect(two.values.count == count)
        #expect(two.values.prefix(4) == [1, 0, 3, 2])
    }

    /// Containers and decoders made from a nested container of a releasing array hold its
    /// element too: they may outlive the container they came from (found in review).
    struct GrandchildrenHeld: Decodable, Equatable {
        var values: [Int] = []

        init(values: [Int]) { self.values = values }

        init(from decoder: any Decoder) throws {
            var outer = try decoder.unkeyedContainer()
            var held: [any UnkeyedDecodingContainer] = []
            while !outer.isAtEnd {
                var middle = try outer.nestedUnkeyedContainer()
                held.append(try middle.nestedUnkeyedContainer())
            }
            for index in held.indices { values.append(try held[index].decode(Int.self)) }
        }
    }

    struct KeyedChildrenHeld: Decodable, Equatable {
        enum Keys: String, CodingKey { case xs }
        var values: [Int] = []

        init(values: [Int]) { self.values = values }

        init(from decoder: any Decoder) throws {
            var outer = try decoder.unkeyedContainer()
            var held: [any UnkeyedDecodingContainer] = []
            var supers: [any Decoder] = []
            while !outer.isAtEnd {
                let keyed = try outer.nestedContainer(keyedBy: Keys.self)
                held.append(try keyed.nestedUnkeyedContainer(forKey: .xs))
                supers.append(try keyed.superDecoder(forKey: .xs))
            }
            for index in held.indices {
                values.append(try held[index].decode(Int.self))
                var fromSuper = try supers[index].unkeyedContainer()
                values.append(try fromSuper.decode(Int.self))
            }
        }
    }

    @Test(arguments: [7, 1 << 20])
    func grandchildrenKeepTheirElements(_ chunkSize: Int) throws {
        let count = 20_000
        let decoder = StreamingJSONDecoder()
        decoder.options.chunkSize = chunkSize
        let nested = "[" + (0..<count).map { "[[\($0)]]" }.joined(separator: ",") + "]"
        #expect(try decoder.decode(GrandchildrenHeld.self, from: Data(nested.utf8)) == GrandchildrenHeld(values: Array(0..<count)))
        let keyed = "[" + (0..<count).map { #"{"xs":[\#($0)]}"# }.joined(separator: ",") + "]"
        let expected = KeyedChildrenHeld(values: (0..<count).flatMap { [$0, $0] })
        #expect(try decoder.decode(KeyedChildrenHeld.self, from: Data(keyed.utf8)) == expected)
        #expect(try JSONDecoder().decode(KeyedChildrenHeld.self, from: Data(keyed.utf8)) == expected)
    }

    /// `count` is never nil: where the array cannot be read to its end (past `maxDepth`), it
    /// counts the elements before the failing one, and the decoding still throws the error.
    struct CountedNest: Decodable, Equatable {
        let depth: Int

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            var deepest = 0
            let count = try #require(container.count)  // what a force-unwrap would trap on
            for _ in 0..<count { deepest = max(deepest, try container.decode(CountedNest.self).depth) }
            depth = deepest + 1
        }
    }

    @Test(arguments: [3, 1 << 16])
    func countIsNeverNilOnInvalidInput(_ chunkSize: Int) throws {
        let decoder = StreamingJSONDecoder()
        decoder.options.chunkSize = chunkSize
        #expect(try decoder.decode(CountedNest.self, from: Data("[[[]],[]]".utf8)).depth == 3)
        let deep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        let error = #expect(throws: DecodingError.self) { try decoder.decode(CountedNest.self, from: Data(deep.utf8)) }
        #expect("\(String(describing: error))".contains("513") || "\(String(describing: error))".contains("deep"),
                "\(String(describing: error))")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(CountedNest.self, from: Data(deep.utf8)) }
        let truncated = "[[],[[]],[[]"
        #expect(throws: DecodingError.self) { try decoder.decode(CountedNest.self, from: Data(truncated.utf8)) }
    }
}
