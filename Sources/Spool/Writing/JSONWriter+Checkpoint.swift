extension JSONWriter {
    /// The writer's state between two values, to go back to when encoding a value fails.
    struct Checkpoint {
        var count: Int
        var bytesFlushed: Int
        var depth: Int
        var frame: Frame
        var members: Int
        var flushHolds: Int
    }

    /// Where the writer is now. A member that replaces an earlier one with its key is complete
    /// here, so the earlier one is taken out first: going back never has to put it back.
    @inline(__always)
    func checkpoint() -> Checkpoint {
        if current.replacedMember >= 0 && !current.awaitingValue { removeReplacedMember() }
        return Checkpoint(
            count: count, bytesFlushed: bytesFlushed, depth: outer.count, frame: current, members: members.count,
            flushHolds: flushHolds)
    }

    /// Goes back to `checkpoint`, dropping what was written since, if none of it has been
    /// flushed; otherwise blocks the writer, whose output now ends inside a value.
    /// - Returns: whether the writer went back.
    @discardableResult
    func rewind(to checkpoint: Checkpoint, reason: @autoclosure () -> String) -> Bool {
        guard blocked == nil, bytesFlushed == checkpoint.bytesFlushed, outer.count >= checkpoint.depth,
            members.count >= checkpoint.members
        else {
            if blocked == nil {
                blocked = WriteError(
                    code: .closed,
                    message: "the output ends inside a value that could not be written (\(reason())); nothing more can be written")
            }
            return false
        }
        count = checkpoint.count
        outer.removeSubrange(checkpoint.depth...)
        current = checkpoint.frame
        members.removeSubrange(checkpoint.members...)
        keysInBufferFrom = min(keysInBufferFrom, members.count)
        flushHolds = checkpoint.flushHolds
        // The index may hold members dropped just now.
        if current.indexed { rebuildKeyIndex() }
        return true
    }
}

extension JSONWriter {
    /// A short account of why a value failed, for the error of a writer blocked by it: an
    /// `EncodingError`'s description without the value (which may be a whole model).
    static func summary(of error: any Error) -> String {
        let text: String
        switch error {
        case EncodingError.invalidValue(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            text = path.isEmpty ? context.debugDescription : "\(context.debugDescription) at \(path)"
        default:
            text = "\(error)"
        }
        return text.count > 200 ? String(text.prefix(197)) + "..." : text
    }
}
