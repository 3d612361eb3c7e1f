#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Buffered standard output. When the reader of a pipe goes away (`spool items ... | head -1`),
/// the next write fails with EPIPE and the program ends at once, quietly, with status 0:
/// nothing more is read or written. (SIGPIPE is ignored at startup so that this is an error
/// to handle rather than a signal.)
final class StandardOutput {
    private var buffer: [UInt8] = []
    private let limit = 64 * 1024

    init() {
        buffer.reserveCapacity(limit)
    }

    /// Writes one line that `body` appends straight into the buffer, then its newline. If
    /// `body` throws, nothing of that line is written.
    func line(_ body: (inout [UInt8]) throws -> Void) rethrows {
        let start = buffer.count
        do {
            try body(&buffer)
        } catch {
            buffer.removeSubrange(start...)
            throw error
        }
        buffer.append(0x0A)
        if buffer.count >= limit { flush() }
    }

    func line(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        buffer.append(0x0A)
        if buffer.count >= limit { flush() }
    }

    func flush() {
        var offset = 0
        buffer.withUnsafeBytes { bytes in
            while offset < bytes.count, let base = bytes.baseAddress {
                let written = systemWrite(1, base + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    if errno == EPIPE { exit(0) }
                    printToStandardError("spool: cannot write to standard output: \(String(cString: strerror(errno)))")
                    exit(74)
                }
                offset += written
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    deinit { flush() }
}

/// Makes a closed pipe an EPIPE error instead of a fatal signal.
func ignoreBrokenPipeSignal() {
    signal(SIGPIPE, SIG_IGN)
}

@inline(__always)
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Darwin)
    return Darwin.write(fd, bytes, count)
    #elseif canImport(Musl)
    return Musl.write(fd, bytes, count)
    #else
    return Glibc.write(fd, bytes, count)
    #endif
}
