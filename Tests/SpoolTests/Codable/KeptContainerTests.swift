import Foundation
import Testing
@_spi(Testing) @testable import Spool

/// A model that keeps its decoder or a container past `init(from:)` (which Foundation allows)
/// and reads it after the stream has moved on, or has ended: the element is read if its tokens
/// are still there, and a `DecodingError` says they were released otherwise; never a crash
/// (a kept keyed container read released tokens: a bad pointer). With several workers, a batch
/// whose values keep their decoders is read again as the serial stream reads it, so they read
/// the same. (ThreadSanitizer runs this suite in CI: a kept container looks keys up in its
/// decoding session, which a worker must not be using for a later batch meanwhile.)
@Suite("Kept containers")
struct KeptContainerTests {
    enum Keys: String, CodingKey { case name, members }

    struct KeepsKeyed: Decodable {
        let container: KeyedDecodingContainer<Keys>
        init(from decoder: any Decoder) throws { container = try decoder.container(keyedBy: Keys.self) }
        var now: String {
            do { return try container.decode(String.self, forKey: .name) } catch { return "error" }
        }
        /// The keys and whether it has `members`, now.
        var keysNow: String { "\(container.allKeys.count) \(container.contains(.members))" }
    }

    struct KeepsUnkeyed: Decodable {
        let container: any UnkeyedDecodingContainer
        init(from decoder: any Decoder) throws {
            container = try decoder.container(keyedBy: Keys.self).nestedUnkeyedContainer(forKey: .members)
        }
        var now: String {
            var copy = container
            do { return "\(try copy.decode([String: String].self).count)" } catch { return "error" }
        }
    }

    struct KeepsDecoder: Decodable {
        let decoder: any Decoder
        init(from decoder: any Decoder) throws { self.decoder = decoder }
        var now: String {
            do { return try decoder.container(keyedBy: Keys.self).decode(String.self, forKey: .name) } catch { return "error" }
        }
    }

    static let text = (try? ParallelStreamTests.catalog(count: 300)) ?? ""

    /// Each element's `now` read right away, and again once every element has been read and
    /// the stream is gone.
    static func reads<T: Decodable>(_ type: T.Type, _ parallelism: Parallelism, _ now: (T) -> String) throws -> (right: [String], later: [String]) {
        var kept: [T] = []
        var right: [String] = []
        do {
            let stream = JSONStream(.string(text))
            stream.parallelBatchBytes = 1
            let decoder = StreamingJSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            let elements = stream.elements(of: type, at: "objects", decoder: decoder, parallelism: parallelism)
            while let element = try elements.next() {
                right.append(now(element))
                kept.append(element)
            }
        }
        return (right, kept.map(now))
    }

    /// What the serial stream gives, which `parallelism` gives too.
    static func expectSameAsSerial<T: Decodable>(
        _ type: T.Type, _ now: (T) -> String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> (right: [String], later: [String]) {
        let serial = try reads(type, .serial, now)
        #expect(serial.right.count == 300 && serial.later.count == 300, sourceLocation: sourceLocation)
        for workers in [2, 3] {
            let parallel = try reads(type, .workers(workers), now)
            #expect(parallel.right == serial.right && parallel.later == serial.later, sourceLocation: sourceLocation)
        }
        return serial
    }

    @Test func aKeptKeyedContainer() throws {
        let names = try Self.expectSameAsSerial(KeepsKeyed.self) { $0.now }
        #expect(names.right == (0..<300).map { "Band \($0)" })
        // Once the stream has moved on, its tokens are gone (except the last element's).
        #expect(names.later.filter { $0 == "error" }.count >= 250)
        let keys = try Self.expectSameAsSerial(KeepsKeyed.self) { $0.keysNow }
        #expect(keys.right.allSatisfy { $0 == "2 true" })
    }

    @Test func aKeptUnkeyedContainer() throws {
        let counts = try Self.expectSameAsSerial(KeepsUnkeyed.self) { $0.now }
        #expect(counts.right.allSatisfy { $0 != "error" })
    }

    @Test func aKeptDecoder() throws {
        let names = try Self.expectSameAsSerial(KeepsDecoder.self) { $0.now }
        #expect(names.right == (0..<300).map { "Band \($0)" })
    }

    /// A model that keeps nothing is decoded by the workers: no batch is read again.
    @Test func modelsThatKeepNothingStayInParallel() throws {
        let stream = JSONStream(.string(Self.text))
        stream.parallelBatchBytes = 1
        let decoder = StreamingJSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .pattern("yyyy-MM-dd")
        let bands = stream.elements(of: ParallelStreamTests.CodableBand.self, at: "objects", decoder: decoder, parallelism: .workers(2))
        var count = 0
        while try bands.next() != nil { count += 1 }
        #expect(count == 300 && bands.parallel?.engine.readSerially == false)
    }
}
