import Foundation
@_spi(Testing) import Spool

/// Codable decoding of the band catalog: Foundation's `JSONDecoder` decoding it whole against
/// Spool's `StreamingJSONDecoder` decoding it whole and streaming its bands one at a time, with
/// the same `Codable` models; birth dates kept as strings, or parsed (`DateFormatter` for
/// `JSONDecoder`, `.pattern` for Spool); or with `.convertFromSnakeCase` and camelCase models
/// (the `-snake` modes).
func decodeCatalogCodable(mode: String, path: String) throws -> (bands: Int, members: Int) {
    switch mode {
    case "codable-decode":
        let catalog = try StreamingJSONDecoder().decode(CodableCatalog.self, from: .file(path))
        return (catalog.objects.count, catalog.objects.reduce(0) { $0 + $1.members.count })
    case "codable-stream", "codable-stream-direct":
        var options = JSONParsingOptions()
        options.parsesInBackground = mode == "codable-stream"
        let bands = JSONStream(.file(path), options: options)
            .elements(of: CodableBand.self, at: "objects", decoder: StreamingJSONDecoder())
        var count = (bands: 0, members: 0)
        while let band = try bands.next() { count = (count.bands + 1, count.members + band.members.count) }
        return count
    case "jsondecoder-dates":
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .formatted(dayFormatter)
        let catalog = try decoder.decode(DatedCatalog.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        return (catalog.objects.count, catalog.objects.reduce(0) { $0 + $1.members.count })
    case "codable-decode-dates":
        let decoder = StreamingJSONDecoder()
        decoder.dateDecodingStrategy = .pattern("yyyy-MM-dd")
        let catalog = try decoder.decode(DatedCatalog.self, from: .file(path))
        return (catalog.objects.count, catalog.objects.reduce(0) { $0 + $1.members.count })
    case "codable-stream-dates":
        let decoder = StreamingJSONDecoder()
        decoder.dateDecodingStrategy = .pattern("yyyy-MM-dd")
        let bands = JSONStream(.file(path)).elements(of: DatedBand.self, at: "objects", decoder: decoder)
        var count = (bands: 0, members: 0)
        while let band = try bands.next() { count = (count.bands + 1, count.members + band.members.count) }
        return count
    case "jsondecoder-snake":
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let catalog = try decoder.decode(SnakeCatalog.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        return (catalog.objects.count, catalog.objects.reduce(0) { $0 + $1.members.count })
    case "codable-decode-snake":
        let decoder = StreamingJSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let catalog = try decoder.decode(SnakeCatalog.self, from: .file(path))
        return (catalog.objects.count, catalog.objects.reduce(0) { $0 + $1.members.count })
    case "codable-stream-snake":
        let decoder = StreamingJSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let bands = JSONStream(.file(path)).elements(of: SnakeBand.self, at: "objects", decoder: decoder)
        var count = (bands: 0, members: 0)
        while let band = try bands.next() { count = (count.bands + 1, count.members + band.members.count) }
        return count
    default:
        fail("unknown mode \(mode)", code: 64)
    }
}

/// `yyyy-MM-dd` in UTC, as `JSONDecoder`'s `.formatted` strategy reads the birth dates.
let dayFormatter: DateFormatter = {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd"
    return formatter
}()

/// The Codable stream's bands (`codable-stream`) decoded on `workers` threads, in batches of
/// about `batchBytes` (issue 25's engine, through its benchmark entry).
func decodeCatalogInParallel(path: String, workers: Int, batchBytes: Int) throws -> (bands: Int, members: Int) {
    var count = (bands: 0, members: 0)
    try ParallelElementsBenchmark.forEach(
        CodableBand.self, in: .file(path), at: "objects", workers: workers, batchBytes: batchBytes
    ) { band in count = (count.bands + 1, count.members + band.members.count) }
    return count
}

/// The Codable stream's bands (`codable-stream`) through the public API on `workers` threads
/// (1: the serial stream), then `finish()`, which checks the input after the array.
func decodeCatalogWithJobs(path: String, workers: Int) throws -> (bands: Int, members: Int) {
    let stream = JSONStream(.file(path))
    let bands = stream.elements(
        of: CodableBand.self, at: "objects", decoder: StreamingJSONDecoder(), parallelism: workers == 1 ? .serial : .workers(workers))
    var count = (bands: 0, members: 0)
    while let band = try bands.next() { count = (count.bands + 1, count.members + band.members.count) }
    try stream.finish()
    return count
}

/// A band decoded whole and dropped where it was decoded: only its member count is handed on.
struct BandMemberCount: Decodable {
    let members: Int
    init(from decoder: any Decoder) throws {
        members = try CodableBand(from: decoder).members.count
    }
}

/// `codable-counts FILE WORKERS`: `codable-jobs` with each band dropped on the thread that
/// decoded it, only its member count handed on (``BandMemberCount``): what handing whole
/// models from the workers to the consumer costs is the difference. WORKERS 0: today's
/// two-thread stream; -1: the stream on one thread (`parsesInBackground = false`).
func countCatalogWithJobs(path: String, workers: Int) throws -> (bands: Int, members: Int) {
    var options = JSONParsingOptions()
    options.parsesInBackground = workers >= 0
    let stream = JSONStream(.file(path), options: options)
    let bands = stream.elements(
        of: BandMemberCount.self, at: "objects", decoder: StreamingJSONDecoder(), parallelism: workers <= 1 ? .serial : .workers(workers))
    var count = (bands: 0, members: 0)
    while let band = try bands.next() { count = (count.bands + 1, count.members + band.members) }
    try stream.finish()
    return count
}
