import Foundation
import Spool

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Encoding benchmarks: the band catalog's Codable models to JSON with StreamingJSONEncoder and
// with JSONEncoder, and JSON Lines from a lazily generated sequence of the same models.

/// A member, with every key of the catalog.
struct FullMember: Codable {
    let name: String
    let birth_date: String
    let instrument: String?
}

/// A band, with every key of the catalog (GenerateCatalog's schema).
struct FullBand: Codable {
    let id: Int
    let name: String
    let homepage: String?
    let active: CodableStatus
    let on_tour: Bool
    let genre: String
    let formed: Int
    let members: [FullMember]
    let tags: [String]
    let rating: Double
    let bio: String?
}

struct FullCatalog: Codable {
    let objects: [FullBand]
    let last_updated: String
}

/// Seconds since `start`, as a Double.
func seconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

func writeFile(_ data: Data, to path: String) throws {
    try data.write(to: URL(fileURLWithPath: path))
}

/// `encode-spool`, `encode-spool-stream`, `encode-foundation` (and `-sorted` variants): decode
/// the catalog with Spool (not timed), then time encoding it to OUT.
func encodeCatalog(mode: String, catalog path: String, output: String) throws {
    let catalog = try StreamingJSONDecoder().decode(FullCatalog.self, from: .file(path))
    let sorted = mode.hasSuffix("-sorted")
    let start = ContinuousClock.now
    var bytes = 0
    switch mode {
    case "encode-foundation", "encode-foundation-sorted":
        let encoder = JSONEncoder()
        if sorted { encoder.outputFormatting = .sortedKeys }
        let data = try encoder.encode(catalog)
        try writeFile(data, to: output)
        bytes = data.count
    case "encode-spool", "encode-spool-sorted":
        let encoder = StreamingJSONEncoder()
        if sorted { encoder.outputFormatting = .sortedKeys }
        let data = try encoder.encode(catalog)
        try writeFile(data, to: output)
        bytes = data.count
    default:  // encode-spool-stream
        let writer = try JSONWriter(toFile: output)
        try StreamingJSONEncoder().encode(catalog, to: writer)
        try writer.finish()
        bytes = writer.bytesWritten
    }
    print("bands \(catalog.objects.count) bytes \(bytes) encode-seconds \(seconds(since: start))")
}

/// An endless, deterministic supply of bands (GenerateCatalog's distributions), made one at a
/// time.
struct BandSupply: IteratorProtocol {
    private var state: UInt64 = 2016
    private var id = 0

    private mutating func random() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    private mutating func below(_ n: Int) -> Int { Int(random() % UInt64(n)) }
    private mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    private mutating func pick(_ words: [String]) -> String { words[below(words.count)] }

    static let first = ["Kurt", "Dave", "Krist", "Pat", "Courtney", "Eric", "Melissa", "Patty", "Thom", "Jonny", "Colin", "Ed"]
    static let last = ["Cobain", "Grohl", "Novoselic", "Smear", "Love", "Erlandson", "Auf der Maur", "Yorke", "O'Brien"]
    static let unicode = ["Björk Guðmundsdóttir", "Jónsi Birgisson", "Motörhead", "Sigur Rós", "椎名林檎", "Жанна Агузарова"]
    static let words = ["Velvet", "Sonic", "Electric", "Silver", "Midnight", "Paper", "Glass", "Neon", "Static", "Northern"]
    static let nouns = ["Youth", "Lights", "Foxes", "Machines", "Harbor", "Echoes", "Rivers", "Engines", "Ghosts", "Owls"]
    static let genres = ["grunge", "shoegaze", "post-rock", "indie", "punk", "dream pop", "noise rock", "math rock"]
    static let instruments = ["vocals", "guitar", "bass", "drums", "keyboards", "violin"]
    static let statuses: [CodableStatus] = [.active, .hiatus, .disbanded]

    mutating func next() -> FullBand? {
        id += 1
        let name = chance(10) ? pick(Self.unicode) : (chance(3) ? "The \"\(pick(Self.words))\" \(pick(Self.nouns))" : "\(pick(Self.words)) \(pick(Self.nouns))")
        let roll = below(100)
        let homepage: String? = roll < 70 ? "https://www.\(pick(Self.nouns).lowercased())\(id).example.com/band?id=\(id)" : nil
        var members: [FullMember] = []
        for _ in 0..<(1 + below(8)) {
            let person = chance(10) ? pick(Self.unicode) : "\(pick(Self.first)) \(pick(Self.last))"
            let month = 1 + below(12)
            let day = 1 + below(28)
            let birth = "\(1940 + below(60))-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
            members.append(FullMember(name: person, birth_date: birth, instrument: chance(50) ? pick(Self.instruments) : nil))
        }
        return FullBand(
            id: id, name: name, homepage: homepage, active: Self.statuses[below(3)], on_tour: chance(30), genre: pick(Self.genres),
            formed: 1965 + below(55), members: members, tags: [pick(Self.genres), pick(Self.words).lowercased()],
            rating: Double(below(500)) / 100,
            bio: chance(20) ? "Formed in a garage.\nStill loud.\t\"Live\" since \(1970 + below(50))." : nil)
    }
}

/// The supply, until `enough()` says so.
struct Bands: Sequence, IteratorProtocol {
    var supply = BandSupply()
    let enough: () -> Bool
    mutating func next() -> FullBand? { enough() ? nil : supply.next() }
}

/// `lines OUT MEGABYTES`: JSON Lines of generated bands through `writer.writeLines`, until
/// MEGABYTES * 1,000,000 bytes are written.
func writeLinesWithSpool(to output: String, megabytes: Double) throws {
    let target = Int(megabytes * 1_000_000)
    let writer = try JSONWriter(toFile: output, format: .lines)
    let start = ContinuousClock.now
    var count = 0
    try writer.writeLines(Bands(enough: { [unowned writer] in
        count += 1
        return writer.bytesWritten >= target
    }))
    try writer.finish()
    print("bands \(count - 1) bytes \(writer.bytesWritten) encode-seconds \(seconds(since: start))")
}

/// `lines-foundation OUT MEGABYTES`: the same lines with JSONEncoder, one `encode` and one
/// `write(2)` per band (each followed by a line feed).
func writeLinesWithFoundation(to output: String, megabytes: Double) throws {
    let target = Int(megabytes * 1_000_000)
    let fd = open(output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else { throw CocoaError(.fileWriteUnknown) }
    defer { close(fd) }
    let encoder = JSONEncoder()
    let start = ContinuousClock.now
    var written = 0
    var count = 0
    for band in Bands(enough: { written >= target }) {
        var line = try encoder.encode(band)
        line.append(0x0A)
        let result = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard result == line.count else { throw CocoaError(.fileWriteUnknown) }
        written += line.count
        count += 1
    }
    print("bands \(count) bytes \(written) encode-seconds \(seconds(since: start))")
}
