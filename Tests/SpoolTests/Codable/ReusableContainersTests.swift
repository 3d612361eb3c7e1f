import Foundation
import Testing
@testable import Spool

/// A keyed container no one holds any more is moved to the next object read with the same key
/// type (``ReusableContainers``); one that is still held never is, and nothing outlives the
/// decode because of the containers kept.
@Suite("Reusable keyed containers")
struct ReusableContainersTests {
    /// Keeps its container and reads from it again after its children, which use the same key
    /// type, have made and dropped theirs.
    struct Node: Decodable, Equatable {
        let name: String
        let children: [Node]
        let nameAgain: String

        enum CodingKeys: String, CodingKey { case name, children }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            children = try container.decodeIfPresent([Node].self, forKey: .children) ?? []
            name = try container.decode(String.self, forKey: .name)
            nameAgain = try container.decode(String.self, forKey: .name)
        }
    }

    @Test func aContainerInUseIsNeverMovedToAnotherObject() throws {
        let data = Data(#"{"name":"root","children":[{"name":"a","children":[{"name":"a1"}]},{"name":"b"}]}"#.utf8)
        let spool = try StreamingJSONDecoder().decode(Node.self, from: data)
        #expect(spool == (try JSONDecoder().decode(Node.self, from: data)))
        #expect(spool.nameAgain == "root")
        #expect(spool.children.map(\.nameAgain) == ["a", "b"])
        #expect(spool.children.first?.children.first?.name == "a1")
    }

    /// Keeps its container past the decode.
    final class Kept: Decodable {
        enum CodingKeys: String, CodingKey { case id }
        let container: KeyedDecodingContainer<CodingKeys>

        init(from decoder: any Decoder) throws {
            container = try decoder.container(keyedBy: CodingKeys.self)
        }
    }

    @Test func aContainerKeptPastTheDecodeStillReadsItsOwnObject() throws {
        let data = Data(#"[{"id":1},{"id":2},{"id":3}]"#.utf8)
        // (Elements kept to be read again must not be released once decoded.)
        let decoder = StreamingJSONDecoder()
        decoder.options.releasesDecodedElements = false
        let kept = try decoder.decode([Kept].self, from: data)
        #expect(try kept.map { try $0.container.decode(Int.self, forKey: .id) } == [1, 2, 3])
        #expect(try kept.map { try $0.container.decode(Int.self, forKey: .id) }
            == (try JSONDecoder().decode([Kept].self, from: data).map { try $0.container.decode(Int.self, forKey: .id) }))
    }

    @Test func aMovedContainerReportsItsNewObjectsPath() throws {
        struct Leaf: Decodable {
            let path: [String]
            enum CodingKeys: CodingKey { case x }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                path = container.codingPath.map(\.stringValue)
                _ = try container.decode(Int.self, forKey: .x)
            }
        }
        struct Pair: Decodable { let first: Leaf; let second: [Leaf] }
        let data = Data(#"{"first":{"x":1},"second":[{"x":2},{"x":3}]}"#.utf8)
        let pair = try StreamingJSONDecoder().decode(Pair.self, from: data)
        let foundation = try JSONDecoder().decode(Pair.self, from: data)
        #expect(pair.first.path == foundation.first.path)
        #expect(pair.second.map(\.path) == foundation.second.map(\.path))
        #expect(pair.second.map(\.path) == [["second", "Index 0"], ["second", "Index 1"]])
    }

    /// Keeps the container of a nested value, whose path runs through the node of the
    /// container around it: that node is made the next object's path only when nothing holds
    /// it (``KeyedContainerState/node``), so a path kept never changes.
    @Test func aPathKeptIsNotReusedForTheNextObject() throws {
        final class Inner: Decodable {
            enum CodingKeys: CodingKey { case x }
            let container: KeyedDecodingContainer<CodingKeys>
            init(from decoder: any Decoder) throws { container = try decoder.container(keyedBy: CodingKeys.self) }
        }
        struct Item: Decodable {
            let inner: Inner
            let id: Int
        }
        struct Plain: Decodable { let inner: [String: Int]; let id: Int }
        let data = Data(#"[{"inner":{"x":1},"id":0},{"inner":{"x":2},"id":1},{"inner":{"x":3},"id":2}]"#.utf8)
        let decoder = StreamingJSONDecoder()
        decoder.options.releasesDecodedElements = false
        let items = try decoder.decode([Item].self, from: data)
        let foundation = try JSONDecoder().decode([Item].self, from: data)
        let paths = items.map { $0.inner.container.codingPath.map(\.stringValue) }
        #expect(paths == foundation.map { $0.inner.container.codingPath.map(\.stringValue) })
        #expect(paths == [["Index 0", "inner"], ["Index 1", "inner"], ["Index 2", "inner"]])
        // Nodes nothing keeps are reused, and the paths in errors are still right.
        let bad = Data(#"[{"inner":{"x":1},"id":0},{"inner":{"x":"two"},"id":1}]"#.utf8)
        #expect {
            try StreamingJSONDecoder().decode([Plain].self, from: bad)
        } throws: { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["Index 1", "inner", "x"]
        }
    }

    /// Notes its decoder weakly: gone once the decode has returned.
    final class Watcher: Decodable {
        nonisolated(unsafe) static var decoders: [Weak] = []
        struct Weak { weak var object: AnyObject? }
        enum CodingKeys: CodingKey { case a }
        let a: Int

        init(from decoder: any Decoder) throws {
            Self.decoders.append(Weak(object: decoder as AnyObject))
            a = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .a)
        }
    }

    @Test func theContainersKeptDoNotKeepTheDecoderAlive() throws {
        Watcher.decoders = []
        let whole = try StreamingJSONDecoder().decode([Watcher].self, from: Data(#"[{"a":1},{"a":2}]"#.utf8))
        #expect(whole.map(\.a) == [1, 2])
        let elements = JSONStream(.data(Data(#"{"items":[{"a":3},{"a":4}]}"#.utf8)))
            .elements(of: Watcher.self, at: "items", decoder: StreamingJSONDecoder())
        var streamed: [Int] = []
        while let element = try elements.next() { streamed.append(element.a) }
        #expect(streamed == [3, 4])
        #expect(Watcher.decoders.count == 4)
        #expect(Watcher.decoders.allSatisfy { $0.object == nil })
    }

    struct Payload: Decodable, Equatable { let a: Int }

    /// Keeps a `superDecoder` to decode its payload later, once its kind is known.
    final class Envelope: Decodable {
        enum CodingKeys: String, CodingKey { case kind, payload }
        let kind: String
        let payload: any Decoder

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            kind = try container.decode(String.self, forKey: .kind)
            payload = try container.superDecoder(forKey: .payload)
        }
    }

    @Test func aDecoderKeptAndUsedAfterTheDecodeIsFreed() throws {
        let data = Data(#"{"kind":"p","payload":{"a":1}}"#.utf8)
        weak var kept: AnyObject?
        do {
            let envelope = try StreamingJSONDecoder().decode(Envelope.self, from: data)
            kept = envelope.payload as AnyObject
            #expect(try Payload(from: envelope.payload) == Payload(a: 1))
            #expect(try Payload(from: envelope.payload) == Payload(a: 1))
        }
        #expect(kept == nil, "the decoder (with its session and tape) was not freed")
    }

    @Test func aStreamedElementsDecoderUsedAfterTheStreamIsFreed() throws {
        weak var kept: AnyObject?
        do {
            let elements = JSONStream(.data(Data(#"{"items":[{"kind":"p","payload":{"a":1}},{"kind":"q","payload":{"a":2}}]}"#.utf8)))
                .elements(of: Envelope.self, at: "items", decoder: StreamingJSONDecoder())
            var envelopes: [Envelope] = []
            while let envelope = try elements.next() { envelopes.append(envelope) }
            kept = envelopes.last?.payload as AnyObject
            #expect(try envelopes.map { try Payload(from: $0.payload) } == [Payload(a: 1), Payload(a: 2)])
        }
        #expect(kept == nil, "the decoder (with its session and tape) was not freed")
    }
}
