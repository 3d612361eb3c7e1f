#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension JSONWriter {
    /// Where the bytes go: the writer's own memory, or a file descriptor.
    enum Output {
        /// Kept in the buffer, which grows; read with ``JSONWriter/bytes``.
        case memory
        /// `write(2)` to `descriptor`, closed by the writer when `closes` (a file it opened).
        case descriptor(Int32, name: String, closes: Bool)
    }

    /// Opens `path` for writing, created (mode 0644 before the umask) or truncated.
    static func openForWriting(_ path: String) throws(WriteError) -> Int32 {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw outputError(errno, operation: "open", name: path) }
        return descriptor
    }

    /// Writes all `count` bytes at `start` to `descriptor`: a partial write is continued, `EINTR`
    /// retried, and `EAGAIN` (a non-blocking descriptor that is full) waited out with `poll`.
    /// `offset` counts the bytes the descriptor took, also when a later `write(2)` fails.
    static func writeAll(
        _ start: UnsafePointer<UInt8>, count: Int, to descriptor: Int32, name: String, offset: inout Int
    ) throws(WriteError) {
        offset = 0
        while offset < count {
            #if canImport(Darwin)
            let written = Darwin.write(descriptor, start + offset, count - offset)
            #elseif canImport(Musl)
            let written = Musl.write(descriptor, start + offset, count - offset)
            #else
            let written = Glibc.write(descriptor, start + offset, count - offset)
            #endif
            if written > 0 {
                offset += written
                continue
            }
            let code = written == 0 ? EIO : errno
            switch code {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                var request = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                let ready = poll(&request, 1, -1)
                if ready < 0 && errno != EINTR { throw outputError(errno, operation: "write to", name: name) }
            default:
                throw outputError(code, operation: "write to", name: name)
            }
        }
    }

    /// `cannot write to 'out.json': No space left on device (ENOSPC)`.
    static func outputError(_ code: Int32, operation: String, name: String) -> WriteError {
        let reason = strerror(code).map { String(cString: $0) } ?? "error \(code)"
        let symbol = errnoNames[code].map { " (\($0))" } ?? ""
        return WriteError(code: .output, errno: code, message: "cannot \(operation) '\(name)': \(reason)\(symbol)")
    }

    /// The C names of the errors a writer is likely to meet, for messages.
    private static let errnoNames: [Int32: String] = [
        ENOSPC: "ENOSPC", EPIPE: "EPIPE", EBADF: "EBADF", EIO: "EIO", EACCES: "EACCES", ENOENT: "ENOENT",
        EISDIR: "EISDIR", EROFS: "EROFS", EDQUOT: "EDQUOT", EFBIG: "EFBIG", ENOMEM: "ENOMEM",
        ECONNRESET: "ECONNRESET", EINVAL: "EINVAL", ENOTDIR: "ENOTDIR", EPERM: "EPERM",
    ]
}
