extension JSONWriter {
    /// Learns again what the container on top holds, reopened after it had ended: its bytes,
    /// this writer's own output, run from `contentStart` (an offset in the output, after the
    /// opening bracket) to the end of the buffer. Counts its elements or members and, for an
    /// object, records its members, so that commas, indentation, sorting and keys written
    /// again work as if it had never ended.
    func rescanContainer(from contentStart: Int) {
        let end = count
        var position = contentStart - bytesFlushed
        var found = 0
        let isObject = current.kind == .object
        while true {
            while position < end && isSeparator(buffer[position]) { position += 1 }
            guard position < end else { break }
            found += 1
            guard isObject else {
                position = skipValue(at: position)
                continue
            }
            let keyStart = position
            var escaped = false
            position += 1
            while position < end && buffer[position] != UInt8(ascii: "\"") {
                if buffer[position] == UInt8(ascii: "\\") {
                    escaped = true
                    position += 1
                }
                position += 1
            }
            let keyLength = position - keyStart - 1
            position += 1
            while position < end && (buffer[position] == 0x20 || buffer[position] == UInt8(ascii: ":")) { position += 1 }
            position = skipValue(at: position)
            let offset = bytesFlushed + keyStart
            members.push(
                MemberRecord(start: offset, end: bytesFlushed + position, keyOffset: offset + 1, keyLength: keyLength, keyEscaped: escaped))
            current.keyBloom |= Self.keyBit(buffer + keyStart + 1, count: keyLength)
        }
        current.count = found
        if isObject && found > Self.indexThreshold { rebuildKeyIndex() }
    }

    private func isSeparator(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == UInt8(ascii: ",")
    }

    /// The buffer position after the value that begins at `position`.
    private func skipValue(at start: Int) -> Int {
        let end = count
        var position = start
        var depth = 0
        repeat {
            switch buffer[position] {
            case UInt8(ascii: "\""):
                position += 1
                while position < end && buffer[position] != UInt8(ascii: "\"") {
                    position += buffer[position] == UInt8(ascii: "\\") ? 2 : 1
                }
                position += 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                position += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                position += 1
            case 0x20, 0x0A, UInt8(ascii: ","), UInt8(ascii: ":"):
                position += 1
            default:
                // A number, true, false or null: up to what ends it.
                while position < end && !isSeparator(buffer[position]) && buffer[position] != UInt8(ascii: "}")
                    && buffer[position] != UInt8(ascii: "]")
                {
                    position += 1
                }
            }
        } while depth > 0 && position < end
        return position
    }
}
