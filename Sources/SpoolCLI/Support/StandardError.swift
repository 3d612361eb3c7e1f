#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a line to standard error, unbuffered.
func printToStandardError(_ line: String) {
    writeToStandardError(line + "\n")
}

/// Writes text to standard error, unbuffered, retrying partial writes and waiting when the
/// descriptor is non-blocking and full. A failure is ignored: there is nowhere left to say it.
func writeToStandardError(_ text: String) {
    var text = text
    text.withUTF8 { buffer in
        var offset = 0
        while offset < buffer.count, let base = buffer.baseAddress {
            let written = systemWrite(2, base + offset, buffer.count - offset)
            if written >= 0 {
                offset += written
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                waitUntilWritable(2)
            } else if errno != EINTR {
                return
            }
        }
    }
}
