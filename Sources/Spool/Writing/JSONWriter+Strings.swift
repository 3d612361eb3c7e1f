extension JSONWriter {
    /// Writes a string value.
    public func string(_ value: String) throws(WriteError) {
        try beginValue()
        try writeQuoted(value)
        try endValue()
    }

    /// Writes a string value given as UTF-8 bytes, which must be valid UTF-8 (RFC 3629: no
    /// overlong forms, no surrogates, nothing above U+10FFFF).
    /// - Throws: ``WriteError/Code-swift.struct/invalidValue`` for invalid UTF-8, before
    ///   anything is written.
    public func string<Bytes: Collection>(utf8 bytes: Bytes) throws(WriteError) where Bytes.Element == UInt8 {
        try withContiguousBytes(bytes) { (text) throws(WriteError) in
            try Self.validateUTF8(text, what: "string")
            try writeString(text)
        }
    }

    /// Writes a string value whose UTF-8 is known to be valid.
    func writeString(_ text: UnsafeBufferPointer<UInt8>) throws(WriteError) {
        try beginValue()
        try writeQuoted(text)
        try endValue()
    }

    /// Writes `value` in quotes, escaped.
    @inline(__always)
    func writeQuoted(_ value: String) throws(WriteError) {
        var value = value
        let failure: WriteError? = value.withUTF8 { text in
            do throws(WriteError) {
                try writeQuoted(text)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// Writes `text` (valid UTF-8) in quotes, escaped as `JSONEncoder` escapes: `"` `\` and,
    /// unless disabled, `/` with a backslash; `\b \f \n \r \t`; other control characters as
    /// `\u00xx` (in jq's layout, U+007F too, as jq escapes it). Runs of plain bytes are found
    /// 8 at a time and copied whole.
    func writeQuoted(_ text: UnsafeBufferPointer<UInt8>) throws(WriteError) {
        try reserve(text.count &+ 2)
        append(UInt8(ascii: "\""))
        try appendEscaped(text, keepingRoom: 1)
        append(UInt8(ascii: "\""))
    }

    /// Appends `text` escaped (see ``writeQuoted(_:)-(UnsafeBufferPointer<UInt8>)``), where the
    /// buffer has room for `text` as it is plus `trailing` bytes, and keeps room for `trailing`
    /// bytes after it. Escaping needs no state across bytes, so text may come in slices.
    @inline(__always)
    func appendEscaped(_ text: UnsafeBufferPointer<UInt8>, keepingRoom trailing: Int) throws(WriteError) {
        // (jq's escapes in a loop of their own, out of line: checked for in this one, they
        // took writeQuoted 13 % more instructions on twitter.json in every layout.)
        if jqStyle {
            try appendEscapedForJQ(text, keepingRoom: trailing)
        } else {
            try appendEscaped(text, keepingRoom: trailing, deletes: false)
        }
    }

    /// ``appendEscaped(_:keepingRoom:)`` in jq's layout: U+007F escaped too.
    @inline(never)
    private func appendEscapedForJQ(_ text: UnsafeBufferPointer<UInt8>, keepingRoom trailing: Int) throws(WriteError) {
        try appendEscaped(text, keepingRoom: trailing, deletes: true)
    }

    @inline(__always)
    private func appendEscaped(_ text: UnsafeBufferPointer<UInt8>, keepingRoom trailing: Int, deletes: Bool) throws(WriteError) {
        let length = text.count
        guard let source = text.baseAddress, length > 0 else { return }
        let slashes = escapesSlashes
        var index = 0
        var runStart = 0
        while index < length {
            if index &+ 8 <= length {
                let word = UnsafeRawPointer(source + index).loadUnaligned(as: UInt64.self)
                if !Self.mayNeedEscape(word, slashes: slashes, deletes: deletes) {
                    index &+= 8
                    continue
                }
            }
            let byte = source[index]
            guard Self.needsEscape(byte, slashes: slashes, deletes: deletes) else {
                index &+= 1
                continue
            }
            // The run before the escape fits: reserved with the bytes still to come.
            (buffer + count).update(from: source + runStart, count: index &- runStart)
            count &+= index &- runStart
            try reserve(6 &+ (length &- index &- 1) &+ trailing)
            appendEscape(byte)
            index &+= 1
            runStart = index
        }
        (buffer + count).update(from: source + runStart, count: length &- runStart)
        count &+= length &- runStart
    }

    @inline(__always)
    static func needsEscape(_ byte: UInt8, slashes: Bool, deletes: Bool = false) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || (slashes && byte == UInt8(ascii: "/"))
            || (deletes && byte == 0x7F)
    }

    /// Whether any of 8 bytes may need an escape (exact: no false negatives, no false positives).
    @inline(__always)
    static func mayNeedEscape(_ word: UInt64, slashes: Bool, deletes: Bool = false) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let control = (word &- ones &* 0x20) & ~word & highs
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        var found = control | ((quote &- ones) & ~quote & highs) | ((backslash &- ones) & ~backslash & highs)
        if slashes {
            let slash = word ^ (ones &* 0x2F)
            found |= (slash &- ones) & ~slash & highs
        }
        if deletes {
            let delete = word ^ (ones &* 0x7F)
            found |= (delete &- ones) & ~delete & highs
        }
        return found != 0
    }

    /// Writes the escape for `byte`; 6 bytes are reserved.
    @inline(__always)
    func appendEscape(_ byte: UInt8) {
        append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): append(byte)
        case 0x08: append(UInt8(ascii: "b"))
        case 0x0C: append(UInt8(ascii: "f"))
        case 0x0A: append(UInt8(ascii: "n"))
        case 0x0D: append(UInt8(ascii: "r"))
        case 0x09: append(UInt8(ascii: "t"))
        default:
            append(UInt8(ascii: "u"))
            append(UInt8(ascii: "0"))
            append(UInt8(ascii: "0"))
            append(Self.hexDigit(byte >> 4))
            append(Self.hexDigit(byte & 0x0F))
        }
    }

    @inline(__always)
    static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") &+ value : UInt8(ascii: "a") &+ value &- 10
    }

    /// Throws unless `text` is strict UTF-8 (RFC 3629).
    static func validateUTF8(_ text: UnsafeBufferPointer<UInt8>, what: String) throws(WriteError) {
        guard !StringChecks.isASCII(text), let start = text.baseAddress else { return }
        var index = 0
        while index < text.count {
            if start[index] < 0x80 {
                index &+= 1
                continue
            }
            if let failure = StringChecks.checkUTF8Sequence(start, text.count, &index) {
                let detail = failure.message.replacingFirstOccurrence(of: "invalid UTF-8 in string: ", with: "")
                throw invalidValue("invalid UTF-8 in \(what) at byte \(failure.index): \(detail)")
            }
        }
    }
}

extension String {
    /// `self` with the first `target` replaced, or `self` when there is none.
    fileprivate func replacingFirstOccurrence(of target: String, with replacement: String) -> String {
        guard hasPrefix(target) else { return self }
        return replacement + dropFirst(target.count)
    }
}

