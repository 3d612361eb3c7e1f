import BandCatalog
import Foundation
import Hummingbird

/// The usual way, for comparison (`band-server --collecting`): the whole body collected into
/// one buffer, decoded by Foundation's `JSONDecoder` into Codable models, then stored as
/// ``BandUpload`` stores (same batches, same transactions). Its memory grows with the body.
struct CollectingUpload: Sendable {
    let store: BandStore
    var batchSize = 2_000

    struct Catalog: Decodable {
        let objects: [Entry]
    }

    struct Entry: Decodable {
        let name: String
        let homepage: URL?
        let active: String
        let members: [Member]
    }

    struct Member: Decodable {
        let name: String
        let birthDate: Date
    }

    func receive(_ body: RequestBody) async throws -> Int {
        let buffer = try await body.collect(upTo: .max)
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let days = DateFormatter()
        days.locale = Locale(identifier: "en_US_POSIX")
        days.timeZone = TimeZone(identifier: "UTC")
        days.dateFormat = "yyyy-MM-dd"
        decoder.dateDecodingStrategy = .formatted(days)
        let catalog = try decoder.decode(Catalog.self, from: Data(buffer: buffer))
        let upload = try await store.beginUpload()
        do {
            var batch: [Band] = []
            for entry in catalog.objects {
                let members = entry.members.map { BandMember(name: $0.name, birthDate: $0.birthDate) }
                batch.append(
                    Band(name: entry.name, homepageURL: entry.homepage, status: Band.Status(rawValue: entry.active) ?? .active, members: members))
                if batch.count == batchSize {
                    try await store.store(batch, upload: upload)
                    batch.removeAll(keepingCapacity: true)
                }
            }
            if !batch.isEmpty { try await store.store(batch, upload: upload) }
            try await store.completeUpload(upload)
            return catalog.objects.count
        } catch {
            try? await store.discardUpload(upload)
            throw error
        }
    }
}
