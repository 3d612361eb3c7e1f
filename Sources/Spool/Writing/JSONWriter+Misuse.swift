// The errors for calls out of order, built only when thrown.

extension JSONWriter {
    /// Where the writer is, for messages: `in an object, after 2 members`, `at the top level`.
    var position: String {
        switch current.kind {
        case .root:
            return "at the top level"
        case .object:
            // (A key whose value is due begins a member that is not complete yet.)
            let members = current.awaitingValue ? current.count - 1 : current.count
            let complete = "after \(members) member\(members == 1 ? "" : "s")"
            return "in an object, \(complete)\(current.awaitingValue ? " and a key" : "")"
        case .array:
            return "in an array, after \(current.count) element\(current.count == 1 ? "" : "s")"
        }
    }

    func misuse(_ message: String) -> WriteError {
        WriteError(code: .misuse, message: message)
    }

    @inline(never)
    func valueWhereKeyIsDue() -> WriteError {
        misuse("a value where a key is due: write key(_:) first (\(position))")
    }

    @inline(never)
    func keyNotDue() -> WriteError {
        switch current.kind {
        case .object: return misuse("a key where a value is due: the key before it has no value yet (\(position))")
        case .array: return misuse("a key in an array: keys belong in objects (\(position))")
        case .root: return misuse("a key at the top level: begin an object first")
        }
    }

    @inline(never)
    func secondTopLevelValue() -> WriteError {
        misuse("a second top-level value: JSON text holds one (use Format.lines for one value per line)")
    }

    @inline(never)
    func unbalancedEnd(_ kind: Frame.Kind) -> WriteError {
        let call = kind == .object ? "endObject()" : "endArray()"
        switch current.kind {
        case .root: return misuse("\(call) with no container open")
        case .object: return misuse("\(call) inside an object: end it with endObject()")
        case .array: return misuse("\(call) inside an array: end it with endArray()")
        }
    }

    @inline(never)
    static func invalidValue(_ message: String) -> WriteError {
        WriteError(code: .invalidValue, message: message)
    }
}
