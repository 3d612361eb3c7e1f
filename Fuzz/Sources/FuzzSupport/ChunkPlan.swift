/// How a split target cuts its input into chunks, read from the bytes after the flags byte:
///
/// - byte 1: bits 0-2 the number `n` of length bytes that follow (0: the whole input in one
///   chunk); bits 3-4 when to take elements out (``Drain``); bits 5-7 ``spare``;
/// - bytes 2..<2+n: chunk lengths, used in turn and again from the first until the input is
///   used up. A length of 0 is an empty chunk (an `append` of nothing); when every length is
///   0, the rest of the input follows in one chunk after one round of empty ones.
///
/// Bits 5-7 of byte 1 are ``spare``, for the target to use.
///
/// The JSON text is what follows.
public struct ChunkPlan: CustomStringConvertible {
    /// When a push target takes elements out of its stream.
    public enum Drain: Int, CustomStringConvertible {
        /// After every chunk.
        case everyChunk
        /// Only after the input has ended.
        case atTheEnd
        /// After every second chunk.
        case everySecondChunk
        /// After chunks of an odd length.
        case afterOddChunks

        public var description: String {
            switch self {
            case .everyChunk: return "every chunk"
            case .atTheEnd: return "at the end"
            case .everySecondChunk: return "every second chunk"
            case .afterOddChunks: return "after odd chunks"
            }
        }
    }

    /// The chunk lengths, used in turn; empty for one chunk.
    public let lengths: [Int]
    public let drain: Drain
    /// Bits 5-7 of the plan's first byte (0...7), which the plan does not use.
    public let spare: Int

    public init(lengths: [Int], drain: Drain = .everyChunk, spare: Int = 0) {
        self.lengths = lengths
        self.drain = drain
        self.spare = spare
    }

    /// Reads a plan from the front of `bytes` and removes it from them.
    public init(taking bytes: inout ArraySlice<UInt8>) {
        guard let first = bytes.popFirst() else {
            self.init(lengths: [])
            return
        }
        let count = min(Int(first & 7), bytes.count)
        let lengths = bytes.prefix(count).map(Int.init)
        bytes = bytes.dropFirst(count)
        self.init(lengths: lengths, drain: Drain(rawValue: Int(first >> 3) & 3) ?? .everyChunk, spare: Int(first >> 5))
    }

    /// `bytes` cut as the plan says.
    public func chunks(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        guard !lengths.isEmpty else { return [bytes[...]] }
        var chunks: [ArraySlice<UInt8>] = []
        var offset = 0
        var turn = 0
        while offset < bytes.count {
            let length = lengths[turn % lengths.count]
            turn += 1
            if turn % lengths.count == 0 && lengths.allSatisfy({ $0 == 0 }) {
                chunks.append(bytes[offset...])
                break
            }
            let end = min(bytes.count, offset + length)
            chunks.append(bytes[offset..<end])
            offset = end
        }
        return chunks
    }

    /// Whether to take elements out after chunk number `index` (from 0) of `length` bytes.
    public func drains(after index: Int, length: Int) -> Bool {
        switch drain {
        case .everyChunk: return true
        case .atTheEnd: return false
        case .everySecondChunk: return index % 2 == 1
        case .afterOddChunks: return length % 2 == 1
        }
    }

    public var description: String {
        lengths.isEmpty ? "one chunk" : "chunks of \(lengths.map(String.init).joined(separator: ", ")), draining \(drain)"
    }

    /// The bytes that encode this plan, to put between the flags byte and the text of a seed.
    public var encoded: [UInt8] {
        [UInt8(min(lengths.count, 7)) | UInt8(drain.rawValue << 3) | UInt8((spare & 7) << 5)] + lengths.prefix(7).map { UInt8(clamping: $0) }
    }
}

extension FuzzInput {
    /// A split target's input: the flags byte, a ``ChunkPlan``, then the JSON text.
    public static func split(_ data: UnsafePointer<UInt8>, _ size: Int) -> (FuzzInput, ChunkPlan)? {
        guard size > 0 else { return nil }
        var rest = ArraySlice(UnsafeBufferPointer(start: data + 1, count: size - 1))
        let plan = ChunkPlan(taking: &rest)
        var input = FuzzInput(flags: data[0], bytes: Array(rest))
        input.context = "\(plan)"
        return (input, plan)
    }
}
