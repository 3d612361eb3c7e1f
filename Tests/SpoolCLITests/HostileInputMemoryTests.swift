import Foundation
import Testing

/// Hostile inputs generated at test time, streamed by the `spool` binary: memory stays bounded
/// by the largest element, never by the input. Peak memory is read with `/usr/bin/time`.
@Suite(
    "Hostile inputs: bounded memory",
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time")),
    .disabled(if: Sanitizers.address, "AddressSanitizer's quarantine keeps freed memory (up to 256 MiB): the peak is no longer the library's")
)
struct HostileInputMemoryTests {
    /// Runs spool under `/usr/bin/time` and returns its exit status and peak RSS in KiB.
    static func peak(_ arguments: [String]) throws -> (status: Int32, kilobytes: Int, stdout: String) {
        let run = try Spool.run(["-f", "%M", Spool.executable.path] + arguments, program: URL(fileURLWithPath: "/usr/bin/time"))
        let last = run.stderr.split(separator: "\n").last.map(String.init) ?? ""
        return (run.status, Int(last) ?? Int.max, run.stdout)
    }

    /// Writes `count` pieces made by `piece`, joined by `separator`, between `head` and `tail`.
    static func file(_ head: String, _ count: Int, _ separator: String, _ tail: String, piece: (Int) -> String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("spool-hostile-\(UUID()).json")
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        var buffer: [UInt8] = Array(head.utf8)
        buffer.reserveCapacity(1 << 21)
        for index in 0..<count {
            if index > 0 { buffer.append(contentsOf: separator.utf8) }
            buffer.append(contentsOf: piece(index).utf8)
            if buffer.count > 1 << 20 {
                try handle.write(contentsOf: buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        buffer.append(contentsOf: tail.utf8)
        try handle.write(contentsOf: buffer)
        try handle.close()
        return url
    }

    /// The baseline: what the binary takes for a tiny input.
    static let baseline: Int = (try? peak(["count", "objects", "Examples/bands.json"]).kilobytes) ?? 0

    @Test func aWideArrayIsCountedAndStreamedInBoundedMemory() throws {
        // About 25 MB: a million small objects.
        let url = try Self.file(#"{"objects": ["#, 1_000_000, ",", "]}") { #"{"id":\#($0),"v":"xxxx"}"# }
        defer { try? FileManager.default.removeItem(at: url) }
        let count = try Self.peak(["count", "objects", url.path])
        #expect(count.status == 0 && count.stdout == "1000000\n")
        #expect(count.kilobytes - Self.baseline < 16_384, "count peaked at \(count.kilobytes) KiB")
        let validate = try Self.peak(["validate", "-q", url.path])
        #expect(validate.status == 0)
        #expect(validate.kilobytes - Self.baseline < 16_384, "validate peaked at \(validate.kilobytes) KiB")
    }

    @Test func manyKeysAreStreamedInBoundedMemory() throws {
        // An object of 500,000 members (about 25 MB), streamed as members.
        let url = try Self.file("{", 500_000, ",", "}") { #""key\#($0)":"valuevaluevaluevalue\#($0)""# }
        defer { try? FileManager.default.removeItem(at: url) }
        let count = try Self.peak(["count", ".", url.path])
        #expect(count.status == 0 && count.stdout == "500000\n")
        #expect(count.kilobytes - Self.baseline < 16_384, "count peaked at \(count.kilobytes) KiB")
    }

    @Test func manyNDJSONValuesWithAPathKeepNoneOfTheOthers() throws {
        // 200,000 lines (about 20 MB), each with the streamed array and a value beside it.
        let url = try Self.file("", 200_000, "\n", "\n") { #"{"meta": {"line": \#($0), "pad": "xxxxxxxxxxxxxxxx"}, "objects": [\#($0)]}"# }
        defer { try? FileManager.default.removeItem(at: url) }
        let count = try Self.peak(["count", "objects", "--ndjson", url.path])
        #expect(count.status == 0 && count.stdout == "200000\n")
        #expect(count.kilobytes - Self.baseline < 16_384, "count peaked at \(count.kilobytes) KiB")
    }
}
