#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension DecodingContext {
    /// The error for the value at `target` where a `T` was expected: code `.null` for `null`,
    /// else `.typeMismatch`; `reason` says why a value of the right kind was refused.
    func mismatchError<T>(at target: Int, expected: T.Type, reason: String? = nil) -> DecodeError {
        mismatchError(at: target, expected: TypeName.of(T.self), reason: reason)
    }

    func mismatchError(at target: Int, expected: String, reason: String?) -> DecodeError {
        let token = tape[target]
        let path = path(of: target)
        let kind = kindName(at: target)
        let clipped = excerpt(at: target)
        // "expected Int at items[3], found string "x" (reason)" (a `try?` fallback pays for
        // this message on every value it refuses).
        var message = MessageText()
        message.append("expected ")
        message.append(expected)
        if !path.isEmpty {
            message.append(" at ")
            path.appendClippedDescription(to: &message)
        }
        message.append(", found ")
        message.append(kind)
        if let clipped {
            message.append(" ")
            message.append(clipped)
        }
        if let reason {
            message.append(" (")
            message.append(reason)
            message.append(")")
        }
        return DecodeError(
            code: token.kind == .null ? .null : .typeMismatch, keyPath: path, location: tape.location(of: token),
            expected: expected, actual: kind, excerpt: clipped, message: message.text)
    }

    /// What the value at `target` is, for messages: `number`, `string`, `object`, ...
    func kindName(at target: Int) -> String {
        tape[target].kind.valueKindName
    }

    /// The value's text for messages: numbers as written, strings quoted, clipped to 40 characters.
    func excerpt(at target: Int) -> String? {
        let token = tape[target]
        switch token.kind {
        case .number:
            return clip(tape.text(of: token))
        case .string:
            // Most excerpts are short and need no escape: quoted straight from the tape's bytes.
            let bytes = tape.bytes(of: token)
            if bytes.count <= 40, !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                return String(unsafeUninitializedCapacity: bytes.count &+ 2) { buffer in
                    buffer[0] = UInt8(ascii: "\"")
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[1...]).initialize(fromContentsOf: bytes)
                    buffer[bytes.count &+ 1] = UInt8(ascii: "\"")
                    return bytes.count &+ 2
                }
            }
            return JSONKeyPath.quoted(clip(tape.text(of: token)))
        default:
            return nil
        }
    }

    private func clip(_ text: String) -> String {
        text.utf8.count <= 40 || text.count <= 40 ? text : String(text.prefix(37)) + "..."
    }
}
