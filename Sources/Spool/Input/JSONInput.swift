#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// Where JSON text comes from: a file, a descriptor, standard input, or bytes in memory. Every
/// reader, stream and decoder takes one, with the same options for all.
///
/// ```swift
/// let reader = JSONReader(.file("bands.json"))
/// let stream = JSONStream(.standardInput)
/// let band = try Band.decodeValue(from: .string(#"{"name": "Nirvana"}"#))
/// let catalog = try StreamingJSONDecoder().decode(Catalog.self, from: .url(catalogURL))
/// ```
///
/// A file is opened when the reader, stream or decode is made, and read as it is parsed,
/// never whole. One that cannot be opened (missing, a directory, not a file URL) is reported by
/// the first call that reads, as an ``InputError`` naming it; nothing traps. Bytes in memory
/// are read where they are, without a copy of the whole input (a `String` is copied once, as
/// its UTF-8 bytes).
///
/// A file, a URL or bytes can be read any number of times, each reader opening the input
/// afresh. A descriptor cannot be read afresh (a second reader would go on where the first
/// stopped, and with `closeWhenDone` both would close it), so a descriptor input is read by
/// one reader: another reader, stream or decode made from the same value (or a copy of it)
/// throws an ``InputError`` at its first read. Each use of ``standardInput`` is a new input.
///
/// For input that arrives as an `AsyncSequence` (a network body), see ``AsyncJSONInput``; for
/// input pushed to you in callbacks, ``PushJSONStream`` and ``JSONReader/incremental(options:)``.
public struct JSONInput: Sendable {
    enum Source: Sendable {
        case file(String)
        case url(URL)
        case descriptor(DescriptorClaim)
        case bytes([UInt8])
        case data(Data)
        case string(String)
    }

    let source: Source

    /// The file at `path`.
    public static func file(_ path: String) -> JSONInput { JSONInput(source: .file(path)) }

    /// The file a `file:` URL names. Other schemes are refused with an ``InputError`` (fetch
    /// them with `URLSession` or AsyncHTTPClient and pass the body as ``AsyncJSONInput``).
    public static func url(_ url: URL) -> JSONInput { JSONInput(source: .url(url)) }

    /// An open file descriptor: a file, a pipe, a socket. It is closed once the input is done
    /// with (the reader, stream or decode is gone) only when `closeWhenDone` is true; else the
    /// caller keeps owning it.
    public static func fileDescriptor(_ descriptor: Int32, closeWhenDone: Bool) -> JSONInput {
        JSONInput(source: .descriptor(DescriptorClaim(descriptor, closeWhenDone: closeWhenDone)))
    }

    /// Standard input (descriptor 0, which stays open), named `<stdin>` in errors.
    public static var standardInput: JSONInput { .fileDescriptor(0, closeWhenDone: false) }

    /// JSON text held as bytes.
    public static func bytes(_ bytes: [UInt8]) -> JSONInput { JSONInput(source: .bytes(bytes)) }

    /// JSON text held in `Data`.
    public static func data(_ data: Data) -> JSONInput { JSONInput(source: .data(data)) }

    /// JSON text held in a string (read as its UTF-8 bytes).
    public static func string(_ text: String) -> JSONInput { JSONInput(source: .string(text)) }

    /// The name errors give the input: the file's path, `<stdin>`, `fd 5` or `<memory>`.
    public var name: String {
        switch source {
        case .file(let path): return path
        case .url(let url): return url.isFileURL ? url.path : url.absoluteString
        case .descriptor(let claim): return Self.name(ofDescriptor: claim.descriptor)
        case .bytes, .data, .string: return "<memory>"
        }
    }

    /// Opens the input for one reader. A failure to open is kept, to be thrown by the first
    /// read (``UnopenedSource``).
    func open() -> any ByteSource {
        do throws(InputError) {
            switch source {
            case .file(let path):
                return try FileByteSource(path: path)
            case .url(let url):
                guard url.isFileURL else {
                    throw InputError(
                        source: url.absoluteString, operation: "open",
                        reason: "only file URLs are read; fetch other URLs yourself and read the body as an AsyncJSONInput")
                }
                return try FileByteSource(path: url.path)
            case .descriptor(let claim):
                guard claim.claim() else {
                    throw InputError(
                        source: name, operation: "read",
                        reason: "this descriptor input was read already: a descriptor is read by one reader")
                }
                return FileByteSource(fileDescriptor: claim.descriptor, name: name, closeWhenDone: claim.closeWhenDone)
            case .bytes(let bytes):
                return MemoryByteSource(bytes)
            case .data(let data):
                return MemoryByteSource(data)
            case .string(let text):
                return MemoryByteSource(Array(text.utf8))
            }
        } catch {
            return UnopenedSource(error)
        }
    }

    static func name(ofDescriptor descriptor: Int32) -> String {
        descriptor == 0 ? "<stdin>" : "fd \(descriptor)"
    }
}

/// A descriptor and who may read it: the first reader made from its input, once.
final class DescriptorClaim: Sendable {
    let descriptor: Int32
    let closeWhenDone: Bool
    private let claimed = Mutex(false)

    init(_ descriptor: Int32, closeWhenDone: Bool) {
        self.descriptor = descriptor
        self.closeWhenDone = closeWhenDone
    }

    /// True the first time only.
    func claim() -> Bool {
        claimed.withLock { claimed in
            defer { claimed = true }
            return !claimed
        }
    }
}
