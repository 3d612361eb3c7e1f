#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file or any file descriptor (a pipe, standard input) with `read(2)`, straight into
/// the feed's window: no intermediate buffer, nothing kept after it is parsed.
final class FileByteSource: ByteSource {
    let name: String
    let totalSize: Int?
    private var descriptor: Int32
    private let closesDescriptor: Bool
    /// Where reading started, for a regular file (which can be read again from there).
    private let startOffset: off_t?

    /// Opens the file at `path` for reading.
    init(path: String) throws(InputError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            throw InputError(source: path, operation: "open", errno: code, reason: FileByteSource.describe(code))
        }
        var info = stat()
        if fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw InputError(source: path, operation: "read", errno: EISDIR, reason: FileByteSource.describe(EISDIR))
        }
        name = path
        descriptor = fd
        closesDescriptor = true
        totalSize = FileByteSource.regularFileSize(fd)
        startOffset = FileByteSource.startOffset(fd, isRegularFile: totalSize != nil)
    }

    /// Reads from an open descriptor, which the caller keeps owning unless `closeWhenDone`.
    init(fileDescriptor: Int32, name: String, closeWhenDone: Bool) {
        self.name = name
        descriptor = fileDescriptor
        closesDescriptor = closeWhenDone
        totalSize = FileByteSource.regularFileSize(fileDescriptor)
        startOffset = FileByteSource.startOffset(fileDescriptor, isRegularFile: totalSize != nil)
    }

    deinit {
        if closesDescriptor && descriptor >= 0 { close(descriptor) }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            #if canImport(Darwin)
            let count = Darwin.read(descriptor, base, buffer.count)
            #elseif canImport(Musl)
            let count = Musl.read(descriptor, base, buffer.count)
            #else
            let count = Glibc.read(descriptor, base, buffer.count)
            #endif
            if count >= 0 { return count }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK {
                // A non-blocking descriptor (inherited as standard input, say) with nothing to
                // read yet: wait until it has, as a blocking one would.
                var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&waiting, 1, -1)
                continue
            }
            throw InputError(source: name, operation: "read", errno: code, reason: FileByteSource.describe(code))
        }
    }

    /// A regular file seeks (up to its size); anything else is read and dropped.
    func skip(_ count: Int) throws(InputError) -> Int {
        guard startOffset != nil, let totalSize else {
            let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: min(count, 1 << 16), alignment: 1)
            defer { scratch.deallocate() }
            return try read(into: scratch)
        }
        let here = lseek(descriptor, 0, SEEK_CUR)
        guard here >= 0 else { return 0 }
        let skipped = max(0, min(count, totalSize - Int(here)))
        return lseek(descriptor, off_t(here) + off_t(skipped), SEEK_SET) >= 0 ? skipped : 0
    }

    func rewind() -> Bool {
        guard let startOffset else { return false }
        return lseek(descriptor, startOffset, SEEK_SET) == startOffset
    }

    /// Where reading starts in a regular file, for ``rewind()``; nil for anything else.
    private static func startOffset(_ fd: Int32, isRegularFile: Bool) -> off_t? {
        guard isRegularFile else { return nil }
        let offset = lseek(fd, 0, SEEK_CUR)
        return offset >= 0 ? offset : nil
    }

    private static func regularFileSize(_ fd: Int32) -> Int? {
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(exactly: info.st_size)
    }

    static func describe(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
