import AsyncHTTPClient
import BandCatalog
import Foundation
import NIOCore
import Spool

/// The band server's client, on AsyncHTTPClient: uploads a catalog file as a stream of
/// chunks, and downloads the stored catalog as a stream of models.
public struct BandClient: Sendable {
    /// The server, e.g. `http://127.0.0.1:8080`.
    public let server: String
    let http: HTTPClient

    public init(server: String, http: HTTPClient = .shared) {
        self.server = server
        self.http = http
    }

    /// What the server said when it refused an upload.
    public struct Refusal: Error, CustomStringConvertible {
        /// The HTTP status.
        public var status: Int
        /// The response body: `{"error": ..., "path": ..., "line": ..., "column": ...}`.
        public var body: String
        public var description: String { "HTTP \(status): \(body)" }
    }

    /// Uploads the catalog at `path`, read 1 MiB at a time, and returns how many bands the
    /// server stored.
    /// - Throws: ``Refusal`` when the server refuses the body.
    public func upload(file path: String) async throws -> Int {
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        return try await upload(FileChunks(path: path), length: size)
    }

    /// Uploads a body given as chunks (`length` bytes in all, or nil when unknown).
    public func upload<Chunks: AsyncSequence & Sendable>(_ chunks: Chunks, length: Int?) async throws -> Int
    where Chunks.Element == ByteBuffer {
        var request = HTTPClientRequest(url: server + "/bands")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .stream(chunks, length: length.map { .known(Int64($0)) } ?? .unknown)
        let response = try await http.execute(request, timeout: .minutes(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        guard response.status == .ok else { throw Refusal(status: Int(response.status.code), body: String(buffer: body)) }
        return try Extractor.decodeValue(from: .bytes(Array(buffer: body))).value("count")
    }

    /// Downloads the stored catalog, a JSON array (or, `lines`, JSON Lines), and hands each band
    /// to `body` as soon as it has arrived: the response is never held whole. Returns the
    /// number of bands.
    @discardableResult
    public func download(lines: Bool = false, _ body: (Band) async throws -> Void) async throws -> Int {
        let request = HTTPClientRequest(url: server + "/bands" + (lines ? "?format=lines" : ""))
        let response = try await http.execute(request, timeout: .minutes(30))
        guard response.status == .ok else {
            throw Refusal(status: Int(response.status.code), body: String(buffer: try await response.body.collect(upTo: 1 << 20)))
        }
        var options = JSONParsingOptions()
        options.allowsMultipleValues = lines
        let stream = AsyncJSONStream(.chunks(response.body.map { $0.readableBytesView }), options: options)
        var count = 0
        for try await band in stream.elements(of: Band.self) {
            try await body(band)
            count += 1
        }
        return count
    }
}

/// A file's bytes as `ByteBuffer`s of up to 1 MiB, read as they are asked for.
public struct FileChunks: AsyncSequence, Sendable {
    public typealias Element = ByteBuffer
    let path: String
    var chunkSize = 1 << 20

    public init(path: String) {
        self.path = path
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        let handle: FileHandle?
        let chunkSize: Int

        public mutating func next() async throws -> ByteBuffer? {
            guard let handle, let data = try handle.read(upToCount: chunkSize), !data.isEmpty else {
                try handle?.close()
                return nil
            }
            return ByteBuffer(bytes: data)
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(handle: FileHandle(forReadingAtPath: path), chunkSize: chunkSize)
    }
}
