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
    static func withServer(_ body: (BandClient, BandStore, URL) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("band-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try BandStore(path: folder.appendingPathComponent("bands.sqlite").path)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = BandServerApplication.make(store: store, port: 0) { port in continuation.yield(port) }
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
