import Foundation
import Testing
@_spi(Testing) @testable import Spool

/// Issue 25: the members of one object decoded on several threads
/// (`members(of:at:parallelism:)`): the serial stream's keys, values, first error, count,
/// `finish()` and remainder for every number of workers and batch size, for `JSONDecodable`
/// and `Decodable` values.
@Suite("Parallel members")
struct ParallelMembersTests {
    /// What a members stream gave.
    struct Run: Equatable, CustomStringConvertible {
        var members: [String] = []
        /// The values of a `JSONValue` stream (the keys are in ``members``).
        var values: [JSONValue] = []
        var error: String?
        var count = 0
        var finish = "ok"
        var remainder = ""

        var description: String {
            "\(members.count) members (last: \(members.suffix(2))), count \(count), error \(error ?? "none"), finish \(finish), remainder \(remainder)"
        }
    }

    static func run(
        _ input: JSONInput, at path: JSONKeyPath, codable: Bool, _ parallelism: Parallelism, batchBytes: Int? = nil
    ) -> (run: Run, inParallel: Bool) {
        let stream = JSONStream(input)
        stream.parallelBatchBytes = batchBytes
        var run = Run()
        var inParallel = false
        do {
            if codable {
                let members = stream.members(of: ParallelInputs.Item.self, at: path, parallelism: parallelism)
                inParallel = members.parallel != nil
                defer { run.count = members.count }
                while let (key, item) = try members.next() { run.members.append("\(key)=\(item.id):\(item.name)") }
            } else {
                let members = stream.members(of: JSONValue.self, at: path, parallelism: parallelism)
                inParallel = members.parallel != nil
                defer { run.count = members.count }
                while let (key, value) = try members.next() {
                    run.members.append(key)
                    run.values.append(value)
                }
            }
        } catch {
            run.error = "\(error)"
        }
        do { try stream.finish() } catch { run.finish = "\(error)" }
        do { run.remainder = try stream.remainder().compactJSON() } catch { run.remainder = "\(error)" }
        return (run, inParallel)
    }

    static func expectSame(
        _ text: String, at path: JSONKeyPath = "by_id", inParallel: Bool = true, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> Run {
        let serial = run(.string(text), at: path, codable: true, .serial).run
        let serialValues = run(.string(text), at: path, codable: false, .serial).run
        for input in [JSONInput.string(text), .data(Data(text.utf8))] {
            for workers in [2, 3] {
                for batchBytes in [1, 700, 1 << 20] {
                    let comment: Comment = "\(workers) workers, batches of \(batchBytes)"
                    let codable = run(input, at: path, codable: true, .workers(workers), batchBytes: batchBytes)
                    #expect(codable.run == serial, comment, sourceLocation: sourceLocation)
                    #expect(codable.inParallel == inParallel, comment, sourceLocation: sourceLocation)
                    let values = run(input, at: path, codable: false, .workers(workers), batchBytes: batchBytes)
                    #expect(values.run == serialValues, comment, sourceLocation: sourceLocation)
                }
            }
        }
        return serial
    }

    /// An object of `count` generated items keyed `k<index>` (keys with escapes and brackets
    /// now and then), at `by_id`, with members before and after it.
    static func document(count: Int, replacing: [Int: String] = [:]) -> String {
        var members: [String] = []
        for index in 0..<count {
            let key = index % 9 == 4 ? #"k\#(index) \"]},\\"# : "k\(index)"
            let separator = index % 7 == 3 ? " :\n   " : ": "
            members.append("\"\(key)\"\(separator)" + (replacing[index] ?? ParallelInputs.element(index)))
        }
        return #"{"source": {"a": [1, "}"]}, "by_id": {"# + "\n  " + members.joined(separator: ",\n  ") + "\n}, \"last\": 12}\n"
    }

    @Test func generatedMembersAreTheSameOnEveryNumberOfWorkers() {
        let serial = Self.expectSame(Self.document(count: 400))
        #expect(serial.members.count == 400 && serial.error == nil && serial.finish == "ok")
        #expect(serial.members[5].hasPrefix("k5=5:") && serial.members[4].hasPrefix(#"k4 "]},\=4:"#), "\(serial.members[4...5])")
        #expect(serial.remainder == #"{"source":{"a":[1,"}"]},"by_id":{},"last":12}"#, "\(serial.remainder)")
        // The workers decoded every batch, and the rest was read after the object's `}` only.
        let stream = JSONStream(.string(Self.document(count: 400)))
        stream.parallelBatchBytes = 2048
        let members = stream.members(of: ParallelInputs.Item.self, at: "by_id", parallelism: .workers(2))
        var keys: [String] = []
        while let (key, _) = try? members.next() { keys.append(key) }
        #expect(keys.count == 400 && members.parallel?.engine.readSerially == false)
        #expect((members.parallel?.engine.batchesTaken ?? 0) > 10)
        #expect((try? stream.finish()) != nil && stream.parallelRest?.wasReadQuickly == true)
    }

    @Test func rootObjectsEmptyObjectsAndNestedPaths() {
        _ = Self.expectSame("{" + (0..<50).map { "\"m\($0)\": \(ParallelInputs.element($0))" }.joined(separator: ", ") + "}", at: .root)
        for text in [#"{"by_id": {}}"#, "{\"by_id\": {\n}\n}", #"{"by_id": {"only": {"id": 1, "name": "x", "tags": []}}}"#] {
            _ = Self.expectSame(text)
        }
        let nested = #"[0, {"x": {"by_id": {"# + (0..<40).map { "\"m\($0)\": \(ParallelInputs.element($0))" }.joined(separator: ",") + "}}}]"
        _ = Self.expectSame(nested, at: [1, "x", "by_id"])
    }

    @Test func errorsAreTheSerialStreams() {
        for broken in [
            #"{"id": "one", "name": "x", "tags": []}"#, #"{"id": 1, "name": "x" "tags": []}"#, #"{"id": 1, "name": "x", "tags": [}"#,
            #"{"id": tru}"#, "]", "\"unterminated",
        ] {
            let serial = Self.expectSame(Self.document(count: 300, replacing: [170: broken]))
            #expect(serial.error != nil && serial.members.count == 170, "\(broken): \(serial)")
        }
        // A key without its value, a missing colon, a comma too many, an array for the object.
        let text = Self.document(count: 200)
        for (from, to) in [(#""k100": "#, #""k100" "#), (#""k101": "#, ""), (#""k102": "#, #""k102": , "#)] {
            _ = Self.expectSame(text.replacingOccurrences(of: from, with: to))
        }
        _ = Self.expectSame(#"{"by_id": [1, 2]}"#, inParallel: true)
        // Truncated, and a depth bomb in a value.
        for cut in [text.count / 2, text.count - 4] { _ = Self.expectSame(String(text.prefix(cut))) }
        let bomb = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        _ = Self.expectSame(Self.document(count: 100, replacing: [50: bomb]))
    }

    /// Found by review: an error in a member's key, before the key is read, has no key in a
    /// resumed stream's path, where the serial stream's names the key before it.
    @Test func anErrorInAKeyNamesTheKeyBefore() {
        let long = String(repeating: "k", count: 40)
        let texts = [
            #"{"a": 1, "\#(long)\q": 2}"#, "{\"a\": 1,\n\"b\\q\": 2}", "{\"a\": 1, \"b\": 2, \"c\u{01}\": 3}", #"{"a": 1, 7: 2}"#,
        ]
        for text in texts {
            for workers in [2, 3] {
                for batchBytes in [1, 5] {
                    let serial = Self.run(.string(text), at: .root, codable: false, .serial).run
                    let parallel = Self.run(.string(text), at: .root, codable: false, .workers(workers), batchBytes: batchBytes).run
                    #expect(parallel == serial, "\(text): \(workers) workers, batches of \(batchBytes)")
                    #expect(serial.error != nil)
                }
            }
        }
    }

    @Test func ndjsonAndWildcardsReadSerially() {
        let text = Self.document(count: 20)
        let stream = JSONStream(.string(text + text), options: JSONParsingOptions(allowsMultipleValues: true))
        #expect(stream.members(of: JSONValue.self, at: "by_id", parallelism: .workers(2)).parallel == nil)
        #expect(JSONStream(.string(text)).members(of: JSONValue.self, at: ["by_id", .wildcard], parallelism: .workers(2)).parallel == nil)
    }
}
