import Spool

/// One fuzz input of the stream and decode targets: the first byte holds the options, a small
/// chunk size and a selector; the rest is the JSON text.
///
/// - bit 0: ``JSONParsingOptions/allowsComments``
/// - bit 1: ``JSONParsingOptions/allowsMultipleValues``
/// - bits 2-4: the small chunk size, 1 to 7 bytes (`value % 7 + 1`)
/// - bits 5-6: a selector (which path to stream, or which root key path to decode)
/// - bit 7: ``JSONParsingOptions/allowsTrailingGarbage``
public struct FuzzInput {
    public let flags: UInt8
    public let bytes: [UInt8]
    /// The parsing options with the fuzzing limits, before chunk size and threading are chosen.
    public let base: JSONParsingOptions
    public let smallChunk: Int
    public let selector: Int
    /// More of the input than the flags and the text (a chunk plan), shown in reports.
    public var context = ""

    public init?(_ data: UnsafePointer<UInt8>, _ size: Int) {
        guard size > 0 else { return nil }
        self.init(flags: data[0], bytes: Array(UnsafeBufferPointer(start: data + 1, count: size - 1)))
    }

    /// The input with this flags byte and JSON text (for targets whose inputs hold more than
    /// these two, such as a chunk plan).
    public init(flags: UInt8, bytes: [UInt8]) {
        self.flags = flags
        self.bytes = bytes
        var options = JSONParsingOptions()
        options.allowsComments = flags & 1 != 0
        options.allowsMultipleValues = flags & 2 != 0
        options.allowsTrailingGarbage = flags & 0x80 != 0
        options.maxDepth = 64
        options.maxStringLength = 300
        options.maxNumberLength = 100
        base = options
        smallChunk = Int((flags >> 2) & 7) % 7 + 1
        selector = Int((flags >> 5) & 3)
    }

    /// The options with the given chunk size, threading and releasing.
    public func options(chunkSize: Int, inBackground: Bool, releasing: Bool = true) -> JSONParsingOptions {
        var options = base
        options.chunkSize = chunkSize
        options.parsesInBackground = inBackground
        options.releasesDecodedElements = releasing
        return options
    }

    /// Whole input in one chunk, on the calling thread: the reference's way of reading.
    public var oneThread: JSONParsingOptions { options(chunkSize: 65_536, inBackground: false) }

    /// The input shown for a report: printable ASCII as is, other bytes escaped, clipped.
    public var shown: String {
        FuzzInput.show(bytes) + " (flags 0x" + String(flags, radix: 16) + (context.isEmpty ? "" : ", " + context) + ")"
    }

    public static func show(_ bytes: some Collection<UInt8>, limit: Int = 300) -> String {
        var text = ""
        for byte in bytes.prefix(limit) {
            if byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\\") {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                text += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16)
            }
        }
        return bytes.count > limit ? text + "...(\(bytes.count) bytes)" : text
    }
}
