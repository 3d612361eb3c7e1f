/// The byte loop: the whole scan for ``ElementScanner/Implementation/bytes``, and for
/// ``ElementScanner/Implementation/blocks`` the path's own levels and what is left of a chunk
/// after its 64-byte blocks.
extension ElementScanner {
    /// Scans the chunk from index `start` one byte at a time, to its end or a doubt; with
    /// `blocks`, only until a fast phase begins with a whole block left (for the block loop).
    /// Returns the index of the first byte not scanned.
    mutating func scanBytes(_ chunk: Chunk, from start: Int, blocks: Bool, into boundaries: inout [Range<Int>]) -> Int {
        var index = start
        while index < chunk.count {
            if isFast {
                if blocks && chunk.count - index >= 64 { return index }
                index = fastBytes(chunk, from: index, into: &boundaries)
                continue
            }
            if case .stopped = phase { return chunk.count }
            if inString {
                index = stringBytes(chunk, from: index, into: &boundaries)
                continue
            }
            let byte = chunk.bytes[index]
            if step(byte, at: index, in: chunk, into: &boundaries) { index += 1 }
        }
        return index
    }

    /// Inside a string on the path's levels (a key, or a string value beside the path): to
    /// its end. Returns the index after the last byte scanned.
    private mutating func stringBytes(_ chunk: Chunk, from start: Int, into boundaries: inout [Range<Int>]) -> Int {
        var index = start
        if case .key(let level, var matched) = phase {
            defer { if case .key = phase { phase = .key(level: level, matched: matched) } }
            guard case .key(let key) = steps[level] else { return chunk.count }
            while index < chunk.count {
                let byte = chunk.bytes[index]
                index += 1
                if byte == UInt8(ascii: "\"") {
                    inString = false
                    phase = .colon(level: level, matches: matched == key.count)
                    return index
                }
                if byte == UInt8(ascii: "\\") {
                    stop(.escapedKey, at: chunk.base + index - 1)
                    return chunk.count
                }
                if matched >= 0 && matched < key.count && key[matched] == byte {
                    matched += 1
                } else {
                    matched = -1
                }
            }
            return index
        }
        while index < chunk.count {
            let byte = chunk.bytes[index]
            index += 1
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\"") {
                inString = false
                if case .topString = phase {
                    report(elementStart..<(chunk.base + index), into: &boundaries)
                    phase = .nextValue
                }
                return index
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            }
        }
        return index
    }

    /// The fast phases (``Phase/skipping``, ``Phase/elements``) one byte at a time: what the
    /// block loop does with masks. Returns the index after the last byte scanned: the chunk's
    /// end, or where the phase stopped being fast.
    private mutating func fastBytes(_ chunk: Chunk, from start: Int, into boundaries: inout [Range<Int>]) -> Int {
        var index = start
        while index < chunk.count {
            if inString {
                if escaped {
                    escaped = false
                    index += 1
                    continue
                }
                // To the next quote or backslash.
                var byte = chunk.bytes[index]
                while byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                    index += 1
                    guard index < chunk.count else { return index }
                    byte = chunk.bytes[index]
                }
                index += 1
                if byte == UInt8(ascii: "\"") {
                    inString = false
                } else {
                    escaped = true
                }
                continue
            }
            let byte = chunk.bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                guard open(isObject: byte == UInt8(ascii: "{"), at: index - 1, in: chunk) else { return chunk.count }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                guard close(isObject: byte == UInt8(ascii: "}"), at: index - 1, in: chunk, into: &boundaries) else { return index }
            case UInt8(ascii: ","):
                if kinds.depth == arrayDepth {
                    guard separator(at: index - 1, in: chunk, into: &boundaries) else { return chunk.count }
                }
            case UInt8(ascii: "\\"):
                stop(.strayBackslash, at: chunk.base + index - 1)
                return chunk.count
            default:
                break
            }
        }
        return index
    }

    /// One byte outside strings on the path's levels (or beside them). Returns false when the
    /// byte is to be read again in the new phase.
    private mutating func step(_ byte: UInt8, at index: Int, in chunk: Chunk, into boundaries: inout [Range<Int>]) -> Bool {
        let offset = chunk.base + index
        let whitespace = Self.isWhitespace(byte)
        switch phase {
        case .value(let level):
            if whitespace { return true }
            if level == 0 && offset == 0 && byte == 0xEF && allowsByteOrderMark {
                phase = .byteOrderMark(matched: 1)
                return true
            }
            return enterValue(byte, level: level, at: index, in: chunk)
        case .byteOrderMark(let matched):
            guard byte == (matched == 1 ? 0xBB : 0xBF) else { return stop(.unexpectedByte, at: offset) || true }
            phase = matched < 2 ? .byteOrderMark(matched: matched + 1) : multipleValues ? .nextValue : .value(level: 0)
        case .keyOrEnd(let level, let afterComma):
            if whitespace { return true }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                phase = .key(level: level, matched: 0)
            case UInt8(ascii: "}"):
                stop(afterComma ? .unexpectedByte : .notFound, at: offset)
            default:
                stop(.unexpectedByte, at: offset)
            }
        case .key:
            // (A key's bytes are read by `stringBytes`; its opening quote set `inString`.)
            stop(.unexpectedByte, at: offset)
        case .colon(let level, let matches):
            if whitespace { return true }
            guard byte == UInt8(ascii: ":") else { return stop(.unexpectedByte, at: offset) || true }
            if matches {
                phase = .value(level: level + 1)
            } else {
                resume = .afterMember(level: level)
                phase = .skipValue
            }
        case .afterMember(let level):
            if whitespace { return true }
            switch byte {
            case UInt8(ascii: ","): phase = .keyOrEnd(level: level, afterComma: true)
            case UInt8(ascii: "}"): stop(.notFound, at: offset)
            default: stop(.unexpectedByte, at: offset)
            }
        case .itemOrEnd(let level, let remaining, let afterComma):
            if whitespace { return true }
            if byte == UInt8(ascii: "]") {
                stop(afterComma ? .unexpectedByte : .notFound, at: offset)
                return true
            }
            if remaining == 0 {
                phase = .value(level: level + 1)
            } else {
                resume = .afterItem(level: level, remaining: remaining - 1)
                phase = .skipValue
            }
            return false
        case .afterItem(let level, let remaining):
            if whitespace { return true }
            switch byte {
            case UInt8(ascii: ","): phase = .itemOrEnd(level: level, remaining: remaining, afterComma: true)
            case UInt8(ascii: "]"): stop(.notFound, at: offset)
            default: stop(.unexpectedByte, at: offset)
            }
        case .skipValue:
            if whitespace { return true }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                phase = resume
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                skipDepth = kinds.depth
                guard open(isObject: byte == UInt8(ascii: "{"), at: index, in: chunk) else { return true }
                phase = .skipping
            case UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "\\"):
                stop(.unexpectedByte, at: offset)
            default:
                phase = .scalar
            }
        case .scalar:
            if whitespace {
                phase = resume
                return true
            }
            switch byte {
            case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"):
                phase = resume
                return false
            case UInt8(ascii: "\""), UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: ":"), UInt8(ascii: "\\"):
                stop(.unexpectedByte, at: offset)
            default:
                break
            }
        case .afterRoot:
            if !whitespace { stop(.trailingBytes, at: offset) }
        case .nextValue:
            if whitespace { return true }
            if offset == 0 && byte == 0xEF && allowsByteOrderMark {
                phase = .byteOrderMark(matched: 1)
                return true
            }
            elementStart = offset
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                phase = .topString
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                skipDepth = 0
                guard open(isObject: byte == UInt8(ascii: "{"), at: index, in: chunk) else { return true }
                resume = .nextValue
                phase = .skipping
            case UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "\\"):
                stop(.unexpectedByte, at: offset)
            default:
                phase = .topScalar
            }
        case .topScalar:
            switch byte {
            case 0x20, 0x0A, 0x0D, 0x09:
                report(elementStart..<offset, into: &boundaries)
                phase = .nextValue
                return true
            case UInt8(ascii: "\""), UInt8(ascii: "["), UInt8(ascii: "{"):
                // `1"a"`: the parser refuses a value that touches a number or literal before
                // it; a stream started at the second value would not.
                stop(.unexpectedByte, at: offset)
            case UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "\\"):
                stop(.unexpectedByte, at: offset)
            default:
                break
            }
        case .topString:
            // (A top-level string's bytes are read by `stringBytes`.)
            stop(.unexpectedByte, at: offset)
        case .skipping, .elements, .stopped:
            // (Handled by `fastBytes` and `scanBytes`.)
            break
        }
        return true
    }

    /// The first byte of the value at `path[..<level]`: the object or array the path goes
    /// through, or at its end the array whose elements are reported.
    private mutating func enterValue(_ byte: UInt8, level: Int, at index: Int, in chunk: Chunk) -> Bool {
        let offset = chunk.base + index
        let isObject = byte == UInt8(ascii: "{")
        guard isObject || byte == UInt8(ascii: "[") else {
            switch byte {
            case UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "\\"):
                return stop(.unexpectedByte, at: offset) || true
            default:
                return stop(.notFound, at: offset) || true
            }
        }
        guard level < steps.count else {
            guard isObject == members else { return stop(.notFound, at: offset) || true }
            guard open(isObject: members, at: index, in: chunk) else { return true }
            arrayDepth = kinds.depth
            phase = .elements
            sawComma = false
            findStart(after: index, in: chunk)
            return true
        }
        switch steps[level] {
        case .key:
            guard isObject else { return stop(.notFound, at: offset) || true }
            guard open(isObject: true, at: index, in: chunk) else { return true }
            phase = .keyOrEnd(level: level, afterComma: false)
        case .index(let wanted):
            guard !isObject else { return stop(.notFound, at: offset) || true }
            guard open(isObject: false, at: index, in: chunk) else { return true }
            phase = .itemOrEnd(level: level, remaining: wanted, afterComma: false)
        }
        return true
    }
}
