#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A JSON input read once, front to back, handing out the elements of one array (or the
/// members of one object) at a path as typed values, in constant memory.
///
/// ```swift
/// let stream = try JSONStream(contentsOfFile: "catalog.json")
/// let bands = stream.elements(of: Band.self, at: "objects")
/// while let band = try bands.next() {
///     print(band.name)
/// }
/// let updated = try stream.remainder.value("last_updated", DateTransformers.iso8601)
/// ```
///
/// Each element's tokens are decoded and then dropped, so memory is bounded by the largest
/// element, never by the file; for a large file, reading and parsing run ahead on a
/// background thread while your code handles the elements. Stopping early (not calling
/// `next()` again, dropping the stream) stops reading.
///
/// The values beside the streamed array are not lost: ``remainder`` holds the document with
/// the array's elements left out, once the elements have been read.
///
/// A stream is a single-threaded object: use it from one thread or task at a time.
public final class JSONStream {
    let reader: JSONReader
    let recorder = RemainderRecorder()
    /// What the stream handed out, once it has: "its elements", "its members", "a count".
    private var handedOut: String?
    /// The top-level value being streamed, counted from 0 (more than one with NDJSON).
    var valueIndex = 0

    /// Notes that `request` hands out `what`; the error for a second request.
    private func claim(_ request: String, handingOut what: String) -> StreamUsageError? {
        if let first = handedOut { return .secondRequest(request, first: first) }
        handedOut = what
        return nil
    }

    /// Reads the JSON file at `path`.
    /// - Throws: ``InputError`` when the file cannot be opened.
    public convenience init(contentsOfFile path: String, options: JSONParsingOptions = .init()) throws(InputError) {
        self.init(reader: try JSONReader(contentsOfFile: path, options: options))
    }

    /// Reads from an open file descriptor (0 for standard input), which stays open.
    public convenience init(fileDescriptor: Int32, options: JSONParsingOptions = .init()) {
        self.init(reader: JSONReader(fileDescriptor: fileDescriptor, options: options))
    }

    /// Reads JSON held as bytes.
    public convenience init(bytes: [UInt8], options: JSONParsingOptions = .init()) {
        self.init(reader: JSONReader(bytes: bytes, options: options))
    }

    /// Reads JSON held in `Data`.
    public convenience init(data: Data, options: JSONParsingOptions = .init()) {
        self.init(reader: JSONReader(data: data, options: options))
    }

    /// Reads JSON from a string.
    public convenience init(string: String, options: JSONParsingOptions = .init()) {
        self.init(reader: JSONReader(string: string, options: options))
    }

    init(reader: JSONReader) {
        self.reader = reader
        reader.backgroundWork = .parsing  // decoding models keeps this thread busy
    }

    /// The elements of the array at `path`, each decoded as `T`. The empty path streams a
    /// root array; with ``JSONParsingOptions/allowsMultipleValues`` (NDJSON), the empty path
    /// streams every top-level value, and another path streams the array at that path in every
    /// top-level value in turn (as `jq -c '.objects[]'` does), each element's path then starting
    /// with its value's index: `[1].objects[0]`. Every value must hold the path.
    ///
    /// A stream reads its input once, so it hands out one sequence: the sequence a second
    /// `elements`, ``members(of:at:)`` or ``count(at:)`` call returns throws a
    /// ``StreamUsageError`` from its first `next()`.
    public func elements<T: JSONDecodable>(
        of type: T.Type, at path: JSONKeyPath = .root, onError policy: JSONElements<T>.ErrorPolicy = .stop
    ) -> JSONElements<T> {
        let refusal = claim("elements(of:at:)", handingOut: "its elements")
        return JSONElements(stream: self, path: path, policy: policy, refusal: refusal)
    }

    /// The members of the object at `path`, each value decoded as `T` as it arrives (for an
    /// object too big to hold, like ijson's `kvitems`). The empty path streams a root object.
    ///
    /// One request per stream, as for ``elements(of:at:onError:)``.
    public func members<T: JSONDecodable>(of type: T.Type, at path: JSONKeyPath = .root) -> JSONMembers<T> {
        let refusal = claim("members(of:at:)", handingOut: "its members")
        return JSONMembers(stream: self, path: path, refusal: refusal)
    }

    /// The number of elements of the array, or members of the object, at `path`, counted while
    /// streaming (nothing is decoded; memory stays bounded by the largest element). With
    /// ``JSONParsingOptions/allowsMultipleValues`` and the empty path, the number of top-level values.
    /// - Throws: ``StreamUsageError`` when the stream already handed out elements, members or a count.
    public func count(at path: JSONKeyPath = .root) throws -> Int {
        if let refusal = claim("count(at:)", handingOut: "a count") { throw refusal }
        let topLevel = try navigate(to: path, container: nil)
        var count = 0
        var noun = topLevel ? "value" : "element"
        do {
            if topLevel {
                while try reader.peek() != nil {
                    try reader.skipValue()
                    count += 1
                }
                return count
            }
            repeat {
                if reader.currentToken?.kind == .objectStart { noun = "member" }
                while let token = try reader.peek(), token != .objectEnd, token != .arrayEnd {
                    try reader.skipValue()  // a key and its value, or an element
                    count += 1
                }
                _ = try reader.next()
                recorder.recordStreamedEnd(from: reader)
            } while try advanceToNextValue(path: path, container: nil)
            return count
        } catch let error as ParseError {
            throw error.noting(count, noun, of: path)
        }
    }

    /// Called with ``bytesRead`` each time a chunk of input has been taken in (on the thread
    /// that iterates the stream): a cheap hook for a progress bar.
    public var onProgress: ((_ bytesRead: Int) -> Void)? {
        get { reader.onProgress }
        set { reader.onProgress = newValue }
    }

    /// Bytes read so far, for progress.
    public var bytesRead: Int { reader.bytesRead }

    /// The input's size in bytes, when known (files, memory).
    public var totalBytes: Int? { reader.totalBytes }

    /// Reads the rest of the input, checking that it is valid JSON (and recording the
    /// ``remainder``). Call it after the last element to be sure nothing after it is broken.
    public func finish() throws {
        try recorder.read(rest: reader)
    }

    /// The document without the streamed elements (the array at the path is left empty), for
    /// the values beside it, e.g. a catalog's `last_updated`. Reads the rest of the input if
    /// the elements have not all been read. With several top-level values, the first one's.
    /// - Throws: ``ParseError`` or ``InputError`` from reading the rest; ``DecodeError`` when
    ///   the document holds no value.
    public var remainder: Extractor {
        get throws {
            try recorder.finish(reading: reader)
        }
    }
}
