import AsyncHTTPClient
import BandCatalog
import BandClient
import BandServer
import Foundation
import NIOCore
import Spool
import Testing

/// The band server on 127.0.0.1 (an ephemeral port, a temporary database), driven by the band
/// client: a catalog of at least 200 MB up and back down, and bodies that must be refused.
@Suite("Band server", .serialized)
struct BandServerTests {
    /// Band `i` of the generated catalogs: 1-4 members, a homepage on two bands in three.
    static func band(_ i: Int) -> Band {
        let statuses: [Band.Status] = [.active, .hiatus, .disbanded]
        var members: [BandMember] = []
        for m in 0...(i % 4) {
            let name = m == 1 ? "Jónsi \(i)-\(m)" : "Member \(i)-\(m) \"the \\ one\""
            let days = (i &* 7 &+ m &* 131) % 20_000
            members.append(BandMember(name: name, birthDate: Date(timeIntervalSince1970: Double(days) * 86_400)))
        }
        let homepage = i % 3 == 0 ? nil : URL(string: "https://band\(i).example.com/")
        return Band(name: "Band \(i)", homepageURL: homepage, status: statuses[i % 3], members: members)
    }

    /// Writes a catalog of bands 0..<count (a few bytes of padding per band, for size) to `path`.
    static func writeCatalog(to path: String, bands count: Int, padding: Int = 0) throws {
        let writer = try JSONWriter(toFile: path)
        let pad = String(repeating: "x", count: padding)
        try writer.beginObject()
        try writer.key("objects")
        try writer.beginArray()
        for i in 0..<count {
            let band = band(i)
            try writer.beginObject()
            try writer.key("name")
            try writer.string(band.name)
            if let homepage = band.homepageURL {
                try writer.key("homepage")
                try writer.string(homepage.absoluteString)
            }
            try writer.key("active")
            try writer.string(band.status.rawValue)
            if padding > 0 {
                try writer.key("bio")  // not in the model: read past
                try writer.string(pad)
            }
            try writer.key("members")
            try writer.beginArray()
            for member in band.members {
                try writer.beginObject()
                try writer.key("name")
                try writer.string(member.name)
                try writer.key("birth_date")
                try writer.string(try Self.day(member.birthDate))
                try writer.endObject()
            }
            try writer.endArray()
            try writer.endObject()
        }
        try writer.endArray()
        try writer.key("last_updated")
        try writer.string("2026-11-27T00:00:00Z")
        try writer.endObject()
        try writer.finish()
    }

    static let dayFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter
    }()

    static func day(_ date: Date) throws -> String { dayFormatter.string(from: date) }

    /// A running server on a fresh database, and a client for it; stopped after `body`.
    static func withServer(
        maximumBodySize: Int? = nil, _ body: (BandClient, BandStore, URL) async throws -> Void
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("band-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try BandStore(path: folder.appendingPathComponent("bands.sqlite").path)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = BandServerApplication.make(store: store, port: 0, maximumBodySize: maximumBodySize) { port in
            continuation.yield(port)
        }
        let server = Task { try await app.run() }
        defer { server.cancel() }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())
        try await body(BandClient(server: "http://127.0.0.1:\(port)"), store, folder)
    }

    @Test func aCatalogOf200MegabytesGoesUpAndComesBack() async throws {
        try await Self.withServer { client, store, folder in
            let path = folder.appendingPathComponent("catalog.json").path
            let count = 500_000
            try Self.writeCatalog(to: path, bands: count, padding: 240)
            let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
            #expect(size >= 200_000_000)

            #expect(try await client.upload(file: path) == count)
            #expect(try await store.count() == count)

            for lines in [false, true] {
                var next = 0
                var mismatches = 0
                let downloaded = try await client.download(lines: lines) { band in
                    if band != Self.band(next) { mismatches += 1 }
                    next += 1
                }
                #expect(downloaded == count && mismatches == 0, "lines: \(lines)")
            }
        }
    }

    @Test func aTruncatedBodyStoresNothing() async throws {
        try await Self.withServer { client, store, folder in
            let path = folder.appendingPathComponent("catalog.json").path
            try Self.writeCatalog(to: path, bands: 5_000)
            #expect(try await client.upload(file: path) == 5_000)

            let whole = try Data(contentsOf: URL(fileURLWithPath: path))
            let cut = whole.prefix(whole.count / 2)
            let refusal = try await #require(throws: BandClient.Refusal.self) {
                _ = try await client.upload(Self.chunks(cut), length: cut.count)
            }
            #expect(refusal.status == 400)
            #expect(refusal.body.contains("unexpected end of input"), "\(refusal.body)")
            #expect(refusal.body.contains(#""line":1,"column":"#), "\(refusal.body)")
            #expect(try await store.count() == 5_000)  // the first upload only
        }
    }

    @Test func aMalformedBodyIsRefusedWithWhereAndWhy() async throws {
        try await Self.withServer { client, store, _ in
            let body = """
                {"objects": [
                  {"name": "Fugazi", "active": "inactive", "members": []},
                  {"name": 7, "active": "active", "members": []}
                ]}
                """
            let refusal = try await #require(throws: BandClient.Refusal.self) {
                _ = try await client.upload(Self.chunks(Data(body.utf8)), length: body.utf8.count)
            }
            #expect(refusal.status == 400)
            #expect(refusal.body.contains(#""path":"objects[1].name""#), "\(refusal.body)")
            #expect(refusal.body.contains(#""line":3,"column":12"#), "\(refusal.body)")
            #expect(try await store.count() == 0)

            let broken = #"{"objects": [{"name": "Fugazi", "active": "inactive", "members": [}]}"#
            let syntax = try await #require(throws: BandClient.Refusal.self) {
                _ = try await client.upload(Self.chunks(Data(broken.utf8)), length: broken.utf8.count)
            }
            #expect(syntax.body.contains(#""path":"objects[0].members[0]","line":1,"column":67"#), "\(syntax.body)")
            #expect(try await store.count() == 0)

            // The server goes on serving.
            let fine = #"{"objects": [{"name": "Fugazi", "active": "inactive", "members": []}]}"#
            #expect(try await client.upload(Self.chunks(Data(fine.utf8)), length: fine.utf8.count) == 1)
            #expect(try await client.download { _ in } == 1)
        }
    }

    @Test func anErrorInElementOneMillionStoresNothing() async throws {
        try await Self.withServer { client, store, folder in
            // 1,000,001 small bands, the last one's name a number.
            let path = folder.appendingPathComponent("catalog.json").path
            let writer = try JSONWriter(toFile: path)
            try writer.beginObject()
            try writer.key("objects")
            try writer.beginArray()
            for i in 0...1_000_000 {
                try writer.beginObject()
                try writer.key("name")
                if i == 1_000_000 { try writer.number(i) } else { try writer.string("B\(i)") }
                try writer.key("active")
                try writer.string("active")
                try writer.key("members")
                try writer.beginArray()
                try writer.endArray()
                try writer.endObject()
            }
            try writer.endArray()
            try writer.endObject()
            try writer.finish()

            let refusal = try await #require(throws: BandClient.Refusal.self) { _ = try await client.upload(file: path) }
            #expect(refusal.status == 400)
            #expect(refusal.body.contains(#""path":"objects[1000000].name","line":1,"column":"#), "\(refusal.body)")
            #expect(try await store.count() == 0)
            #expect(try await store.storedRows() == 0)  // the 500 batches stored before it, deleted
            #expect(try await store.incompleteUploads() == 0)
        }
    }

    @Test func aBodyOverTheLimitIsRefused() async throws {
        try await Self.withServer(maximumBodySize: 100_000) { client, store, folder in
            let path = folder.appendingPathComponent("catalog.json").path
            try Self.writeCatalog(to: path, bands: 5_000)
            let refusal = try await #require(throws: BandClient.Refusal.self) { _ = try await client.upload(file: path) }
            #expect(refusal.status == 413)
            #expect(refusal.body.contains("larger than 100000 bytes"), "\(refusal.body)")
            #expect(try await store.storedRows() == 0)

            try Self.writeCatalog(to: path, bands: 50)
            #expect(try await client.upload(file: path) == 50)
        }
    }

    /// A body that fails after its first megabytes: the client gives up on the request, the
    /// connection closes under the server's upload.
    struct FailingBody: AsyncSequence, Sendable {
        struct Gone: Error {}
        let chunks: [ByteBuffer]

        struct AsyncIterator: AsyncIteratorProtocol {
            var chunks: IndexingIterator<[ByteBuffer]>
            mutating func next() async throws -> ByteBuffer? {
                guard let chunk = chunks.next() else { throw Gone() }
                return chunk
            }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(chunks: chunks.makeIterator()) }
    }

    @Test func aClientThatGoesAwayMidUploadLeavesNothing() async throws {
        try await Self.withServer { client, store, folder in
            let path = folder.appendingPathComponent("catalog.json").path
            try Self.writeCatalog(to: path, bands: 60_000, padding: 100)
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            let half = stride(from: 0, to: bytes.count / 2, by: 65_536).map {
                ByteBuffer(bytes: bytes[$0..<min($0 + 65_536, bytes.count / 2)])
            }
            await #expect(throws: (any Error).self) {
                _ = try await client.upload(FailingBody(chunks: half), length: bytes.count)
            }
            // The server notices the closed connection (its handler may even start after the
            // client has given up), and deletes the batches it had stored.
            var waited = 0
            while store.discardedUploads == 0 && waited < 600 {
                try await Task.sleep(for: .milliseconds(50))
                waited += 1
            }
            #expect(store.discardedUploads == 1)
            #expect(try await store.incompleteUploads() == 0)
            #expect(try await store.storedRows() == 0)

            // And serves the next request.
            #expect(try await client.upload(file: path) == 60_000)
        }
    }

    /// `data` as chunks of 1,000 bytes.
    static func chunks(_ data: Data) -> AsyncStream<ByteBuffer> {
        let bytes = [UInt8](data)
        return AsyncStream { continuation in
            var start = 0
            while start < bytes.count {
                continuation.yield(ByteBuffer(bytes: bytes[start..<min(start + 1_000, bytes.count)]))
                start += 1_000
            }
            continuation.finish()
        }
    }
}
