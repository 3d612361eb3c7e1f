import Foundation
import Testing

#if os(Linux)
import Glibc

@Suite("Memory")
struct MemoryTests {
    static let time = "/usr/bin/time"

    /// Runs `spool` with `arguments`, its standard output thrown away and its standard input
    /// fed `stdin` through a pipe (else /dev/null), and returns its peak resident memory in
    /// bytes, as GNU time reports it. (Not this process's own `wait4`: a child spawned from a
    /// process as big as a test runner inherits its peak across `exec`.)
    static func peakMemory(_ arguments: [String], stdin: URL? = nil) throws -> Int {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("spool-memory-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: report) }
        var fds: [Int32] = [-1, -1]
        if stdin != nil { #expect(pipe(&fds) == 0) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        if stdin != nil {
            posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
            posix_spawn_file_actions_addclose(&actions, fds[0])
            posix_spawn_file_actions_addclose(&actions, fds[1])
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        let path = Spool.executable.path
        let argv = ([Self.time, "-f", "%M", "-o", report.path, path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, Self.time, &actions, nil, argv, environ)
        try #require(spawned == 0, "cannot run \(Self.time): \(String(cString: strerror(spawned)))")
        if let stdin {
            close(fds[0])
            let bytes = try Data(contentsOf: stdin)
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count, let base = raw.baseAddress {
                    let written = write(fds[1], base + offset, raw.count - offset)
                    if written < 0 && errno == EINTR { continue }
                    if written <= 0 { break }
                    offset += written
                }
            }
            close(fds[1])
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            try #require(errno == EINTR, "waitpid: \(String(cString: strerror(errno)))")
        }
        #expect(status == 0, "spool \(arguments) ended with status \(status)")
        let kilobytes = try String(contentsOf: report, encoding: .utf8).split(separator: "\n").last.flatMap { Int($0) }
        return try #require(kilobytes, "no report from \(Self.time)") * 1024
    }

    static func temporaryFile(_ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("spool-memory-\(UUID().uuidString).json")
        try Data(text.utf8).write(to: url)
        return url
    }

    /// A big element costs about twice its size, not seven times: yajl takes a long string
    /// whole from the input window rather than copying it into its own buffer, the tape takes
    /// the background batch's text rather than copying it, and the line is written in pieces.
    /// The baseline of the process (runtime, libraries) is measured on a tiny input and taken off.
    @Test(
        .enabled(if: FileManager.default.isExecutableFile(atPath: time)),
        .disabled(if: Sanitizers.address, "AddressSanitizer's quarantine keeps freed memory (up to 256 MiB): the peak is no longer the library's")
    )
    func aLongStringCostsAboutTwiceItsSize() throws {
        let size = 10_000_000
        let big = try Self.temporaryFile("[\"" + String(repeating: "x", count: size) + "\"]")
        let tiny = try Self.temporaryFile("[1]")
        defer {
            try? FileManager.default.removeItem(at: big)
            try? FileManager.default.removeItem(at: tiny)
        }
        let baseline = try Self.peakMemory(["items", ".", tiny.path])
        for (name, arguments, stdin) in [
            ("a file", ["items", ".", big.path], nil),
            ("small chunks", ["items", "--chunk-size", "4096", ".", big.path], nil),
            ("a pipe", ["items", "."], big),
        ] as [(String, [String], URL?)] {
            let peak = try Self.peakMemory(arguments, stdin: stdin)
            #expect(peak - baseline < 3 * size, "\(name): \(peak / 1_000_000) MB at peak, \(baseline / 1_000_000) MB baseline")
        }
    }
}
#endif
