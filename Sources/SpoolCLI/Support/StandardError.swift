#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a line to standard error, unbuffered.
func printToStandardError(_ line: String) {
    var text = line
    text += "\n"
    text.withUTF8 { buffer in
        var offset = 0
        while offset < buffer.count, let base = buffer.baseAddress {
            let written = write(2, base + offset, buffer.count - offset)
            if written <= 0 { return }
            offset += written
        }
    }
}
