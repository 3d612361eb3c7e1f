import BandCatalog
import Foundation
import GRDB
import Synchronization

/// The bands uploaded so far, in SQLite (GRDB).
///
/// Each upload writes its bands in batches, one transaction each, so that memory and the
/// transactions stay small whatever the body's size. An upload's bands count only once it has
/// completed: until then they are invisible to ``page(after:limit:)`` and ``count()``, and an
/// upload that fails is deleted whole (``discardUpload(_:)``). So the database never shows
/// half a catalog, and at worst (a crash mid-upload) holds whole batches of an upload that is
/// not complete, which the next start deletes.
public final class BandStore: Sendable {
    private let database: DatabaseQueue
    private let discards = Mutex(0)

    /// How many uploads have been discarded (``discardUpload(_:)``) since the store was opened.
    public var discardedUploads: Int { discards.withLock { $0 } }

    /// Opens (or creates) the database at `path`.
    public init(path: String) throws {
        database = try DatabaseQueue(path: path)
        try database.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS uploads (id INTEGER PRIMARY KEY, complete INTEGER NOT NULL DEFAULT 0);
                    CREATE TABLE IF NOT EXISTS bands (
                        id INTEGER PRIMARY KEY, upload INTEGER NOT NULL, name TEXT NOT NULL, homepage TEXT,
                        status TEXT NOT NULL);
                    CREATE INDEX IF NOT EXISTS bands_by_upload ON bands(upload);
                    CREATE TABLE IF NOT EXISTS members (
                        band INTEGER NOT NULL, position INTEGER NOT NULL, name TEXT NOT NULL, born REAL NOT NULL,
                        PRIMARY KEY (band, position)) WITHOUT ROWID;
                    """)
            // Uploads a crash left incomplete.
            try Self.delete(uploadsWhere: "complete = 0", in: db)
        }
    }

    /// Starts an upload: its bands are stored under the id returned.
    public func beginUpload() async throws -> Int64 {
        try await database.write { db in
            try db.execute(sql: "INSERT INTO uploads (complete) VALUES (0)")
            return db.lastInsertedRowID
        }
    }

    /// Stores `bands` for `upload`, in one transaction.
    public func store(_ bands: [Band], upload: Int64) async throws {
        try await database.write { db in
            let insertBand = try db.cachedStatement(
                sql: "INSERT INTO bands (upload, name, homepage, status) VALUES (?, ?, ?, ?)")
            let insertMember = try db.cachedStatement(
                sql: "INSERT INTO members (band, position, name, born) VALUES (?, ?, ?, ?)")
            for band in bands {
                try insertBand.execute(arguments: [upload, band.name, band.homepageURL?.absoluteString, band.status.rawValue])
                let id = db.lastInsertedRowID
                for (position, member) in band.members.enumerated() {
                    try insertMember.execute(arguments: [id, position, member.name, member.birthDate.timeIntervalSince1970])
                }
            }
        }
    }

    /// Makes `upload`'s bands visible.
    public func completeUpload(_ upload: Int64) async throws {
        try await database.write { db in
            try db.execute(sql: "UPDATE uploads SET complete = 1 WHERE id = ?", arguments: [upload])
        }
    }

    /// Deletes `upload` and every band stored for it.
    public func discardUpload(_ upload: Int64) async throws {
        try await database.write { db in
            try Self.delete(uploadsWhere: "id = \(upload)", in: db)
        }
        discards.withLock { $0 += 1 }
    }

    private static func delete(uploadsWhere condition: String, in db: Database) throws {
        try db.execute(
            sql: """
                DELETE FROM members WHERE band IN
                    (SELECT bands.id FROM bands JOIN uploads ON bands.upload = uploads.id WHERE uploads.\(condition));
                DELETE FROM bands WHERE upload IN (SELECT id FROM uploads WHERE \(condition));
                DELETE FROM uploads WHERE \(condition);
                """)
    }

    /// The number of uploads begun and neither completed nor discarded: those in progress.
    public func incompleteUploads() async throws -> Int {
        try await database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM uploads WHERE complete = 0") ?? 0 }
    }

    /// The number of band rows stored, those of incomplete uploads included.
    public func storedRows() async throws -> Int {
        try await database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM bands") ?? 0 }
    }

    /// The number of bands of completed uploads.
    public func count() async throws -> Int {
        try await database.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM bands JOIN uploads ON bands.upload = uploads.id WHERE uploads.complete = 1") ?? 0
        }
    }

    /// Up to `limit` bands of completed uploads with ids above `id`, in id order (in upload
    /// order, then document order), each with its id: a page of a download, read through a
    /// database cursor.
    public func page(after id: Int64, limit: Int) async throws -> [(id: Int64, band: Band)] {
        try await database.read { db in
            var page: [(id: Int64, band: Band)] = []
            let bands = try Row.fetchCursor(
                db,
                sql: """
                    SELECT bands.id, bands.name, bands.homepage, bands.status FROM bands
                    JOIN uploads ON bands.upload = uploads.id
                    WHERE uploads.complete = 1 AND bands.id > ? ORDER BY bands.id LIMIT ?
                    """,
                arguments: [id, limit])
            let members = try db.cachedStatement(sql: "SELECT name, born FROM members WHERE band = ? ORDER BY position")
            while let row = try bands.next() {
                let bandID: Int64 = row[0]
                var bandMembers: [BandMember] = []
                let memberRows = try Row.fetchCursor(members, arguments: [bandID])
                while let member = try memberRows.next() {
                    bandMembers.append(BandMember(name: member[0], birthDate: Date(timeIntervalSince1970: member[1])))
                }
                let homepage: String? = row[2]
                let status = Band.Status(rawValue: row[3]) ?? .active
                page.append((bandID, Band(name: row[1], homepageURL: homepage.flatMap(URL.init(string:)), status: status, members: bandMembers)))
            }
            return page
        }
    }
}
