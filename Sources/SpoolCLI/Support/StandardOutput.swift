import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output could not be written: a full disk, a closed descriptor, an I/O error.
struct OutputError: Error, CustomStringConvertible {
    /// The `errno` of the failed `write(2)`.
    var code: Int32

    /// `cannot write to standard output: No space left on device`.
    var description: String {
        "cannot write to standard output: " + (strerror(code).map { String(cString: $0) } ?? "error \(code)")
    }
}

/// Buffered standard output. Writes are retried when partial, and wait when the descriptor is
/// non-blocking and full. When the reader of a pipe goes away (`spool items ... | head -1`),
/// the next write fails with EPIPE and the program ends at once, quietly, with status 0:
/// nothing more is read or written. (SIGPIPE is ignored at startup so that this is an error
/// to handle rather than a signal.) Any other failure throws an ``OutputError``.
final class StandardOutput {
    private var buffer: [UInt8] = []
    private let limit = 64 * 1024

    init() {
        buffer.reserveCapacity(limit)
    }

    /// Writes one line that `body` appends straight into the buffer, then its newline. If
    /// `body` throws, nothing of that line is written.
    func line(_ body: (inout [UInt8]) throws -> Void) throws {
        let start = buffer.count
        do {
            try body(&buffer)
        } catch {
            buffer.removeSubrange(start...)
            throw error
        }
        buffer.append(0x0A)
        if buffer.count >= limit { try flush() }
    }

    /// Writes one line that may be far longer than the buffer (an element of many megabytes):
    /// `body` appends to the buffer and calls the `flush` it is given, with the threshold it is
    /// given, whenever the buffer has grown past it, so the line goes out in pieces and is never
    /// held whole. If `body` throws, what it had not flushed of the line is not written.
    func longLine(_ body: (inout [UInt8], _ threshold: Int, _ flush: (inout [UInt8]) throws -> Void) throws -> Void) throws {
        let lineStart = buffer.count
        let flushes = self.flushes
        do {
            try body(&buffer, limit, flushLine)
        } catch {
            // What was flushed of the line is out; the rest of it goes.
            buffer.removeSubrange(min(self.flushes == flushes ? lineStart : 0, buffer.count)...)
            throw error
        }
        buffer.append(0x0A)
        if buffer.count >= limit { try flush() }
    }

    /// How many times ``longLine(_:)`` has flushed part of a line.
    private var flushes = 0

    /// The `flush` that ``longLine(_:)`` hands its body: writes out the buffer (passed in, since
    /// the body holds it).
    private func flushLine(_ bytes: inout [UInt8]) throws {
        flushes += 1
        try StandardOutput.write(&bytes)
    }

    /// Writes `text` and a newline.
    func line(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        buffer.append(0x0A)
        if buffer.count >= limit { try flush() }
    }

    /// Writes out what is buffered.
    func flush() throws(OutputError) {
        try StandardOutput.write(&buffer)
    }

    /// Writes `bytes` to standard output and empties them (also when the write fails).
    private static func write(_ bytes: inout [UInt8]) throws(OutputError) {
        var offset = 0
        defer { bytes.removeAll(keepingCapacity: true) }
        let failure: Int32? = bytes.withUnsafeBytes { bytes in
            while offset < bytes.count, let base = bytes.baseAddress {
                let written = systemWrite(1, base + offset, bytes.count - offset)
                if written >= 0 {
                    offset += written
                    continue
                }
                switch errno {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK: waitUntilWritable(1)
                case EPIPE: exit(0)
                case let code: return code
                }
            }
            return nil
        }
        if let failure { throw OutputError(code: failure) }
    }

    /// After `error` ended a command: writes out what was buffered before it (whole lines),
    /// then reports it, and after it a failure to write, if any. Returns the exit code for
    /// `error`.
    func finish(after error: any Error, file: String, command: Command = .other) -> ExitCode {
        do {
            try flush()
        } catch let writeError {
            let code = report(error, file: file, command: command)
            _ = report(writeError, file: file)
            return code
        }
        return report(error, file: file, command: command)
    }
}

/// Makes a closed pipe an EPIPE error instead of a fatal signal.
func ignoreBrokenPipeSignal() {
    signal(SIGPIPE, SIG_IGN)
}

/// Checks, as the program exits, that what went through `print` (help, `--version`) reached
/// standard output: if not, says so and exits 74 instead of 0.
func checkStandardOutputAtExit() {
    atexit {
        if fflush(nil) != 0 {
            let code = errno
            if code == EPIPE { return }
            printToStandardError("spool: \(OutputError(code: code))")
            _exit(SpoolExit.outputFailed.rawValue)
        }
    }
}

/// Waits until `descriptor` can be written (it is non-blocking and its buffer is full).
func waitUntilWritable(_ descriptor: Int32) {
    var waiting = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
    _ = poll(&waiting, 1, -1)
}

@inline(__always)
func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Darwin)
    return Darwin.write(fd, bytes, count)
    #elseif canImport(Musl)
    return Musl.write(fd, bytes, count)
    #else
    return Glibc.write(fd, bytes, count)
    #endif
}
