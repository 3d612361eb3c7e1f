#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `generate-catalog MEGABYTES OUTPUT`: writes a band catalog of the Himotoki tutorial's schema
/// of at least MEGABYTES * 1,000,000 bytes. The same arguments always give the same bytes.
///
/// Each band has name, homepage (a URL, `null`, or missing), active (the status: "active",
/// "hiatus" or "inactive"), 1-8 members with name and birth_date, plus keys a decoder does not
/// ask for (id, on_tour, genre, formed, tags, rating, bio). About 10 % of names are non-ASCII, some strings carry escapes. `last_updated` comes
/// after `objects`.
struct SplitMix64 {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}

func fail(_ message: String, code: Int32) -> Never {
    var text = message + "\n"
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(code)
}


extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return String(self[..<range.lowerBound]) + replacement + String(self[range.upperBound...])
    }
    func range(of target: String) -> Range<String.Index>? {
        var index = startIndex
        while index < endIndex {
            if self[index...].hasPrefix(target) { return index..<self.index(index, offsetBy: target.count) }
            index = self.index(after: index)
        }
        return nil
    }
}

final class CatalogWriter {
    let asciiFirst = ["Kurt", "Dave", "Krist", "Pat", "Courtney", "Eric", "Melissa", "Patty", "Thom", "Jonny", "Colin", "Ed",
        "Phil", "Kim", "Thurston", "Lee", "Steve", "Debbie", "Chris", "Joan", "Patti", "Lenny", "Jack", "Meg"]
    let asciiLast = ["Cobain", "Grohl", "Novoselic", "Smear", "Love", "Erlandson", "Auf der Maur", "Schemel", "Yorke",
        "Greenwood", "O'Brien", "Selway", "Gordon", "Moore", "Ranaldo", "Shelley", "Harry", "Cornell", "Jett", "Smith"]
    let unicodeNames = ["Björk Guðmundsdóttir", "Jónsi Birgisson", "Motörhead", "Mötley Crüe", "Sigur Rós", "Ringo Shiina",
        "椎名林檎", "東京事変", "Nena Kerner", "Françoise Hardy", "Zoë Keating", "Ólafur Arnalds", "Жанна Агузарова"]
    let bandWords = ["Velvet", "Sonic", "Electric", "Silver", "Midnight", "Paper", "Glass", "Neon", "Static", "Northern",
        "Crimson", "Hollow", "Wild", "Quiet", "Broken", "Golden"]
    let bandNouns = ["Youth", "Lights", "Foxes", "Machines", "Harbor", "Echoes", "Rivers", "Engines", "Ghosts", "Owls",
        "Tigers", "Satellites", "Parade", "Riot", "Garden"]
    let genres = ["grunge", "shoegaze", "post-rock", "indie", "punk", "dream pop", "noise rock", "math rock"]
    let statuses = ["active", "hiatus", "inactive"]
    let instruments = ["vocals", "guitar", "bass", "drums", "keyboards", "violin"]

    var random = SplitMix64(state: 2016)
    var buffer: [UInt8] = []
    var written = 0
    let file: UnsafeMutablePointer<FILE>
    init(file: UnsafeMutablePointer<FILE>) { self.file = file; buffer.reserveCapacity(1 << 21) }

    func emit(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 20 { flush() }
    }
    func flush() {
        buffer.withUnsafeBytes { _ = fwrite($0.baseAddress, 1, $0.count, file) }
        written += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }
    func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
    func personName() -> String {
        if random.chance(10) { return quoted(unicodeNames[random.below(unicodeNames.count)]) }
        let name = asciiFirst[random.below(asciiFirst.count)] + " " + asciiLast[random.below(asciiLast.count)]
        if random.chance(3) { return quoted(name.replacingFirst("a", with: "\u{e9}")).replacingFirst("\u{e9}", with: "\\u00e9") }
        return quoted(name)
    }

    func generate(target: Int) -> Int {
        emit("{\n  \"objects\": [\n")
        var id = 0
        while written + buffer.count < target - 200 {
            if id > 0 { emit(",\n") }
            id += 1
            var band = "    {\"id\": \(id), \"name\": "
            if random.chance(10) {
                band += quoted(unicodeNames[random.below(unicodeNames.count)])
            } else if random.chance(3) {
                band += quoted("The \"" + bandWords[random.below(bandWords.count)] + "\" " + bandNouns[random.below(bandNouns.count)])
            } else {
                band += quoted(bandWords[random.below(bandWords.count)] + " " + bandNouns[random.below(bandNouns.count)])
            }
            let homepage = random.below(100)
            if homepage < 70 {
                let slug = bandNouns[random.below(bandNouns.count)].lowercased() + "\(id)"
                band += random.chance(10)
                    ? ", \"homepage\": \"https:\\/\\/\(slug).example.com\\/\""
                    : ", \"homepage\": \"https://www.\(slug).example.com/band?id=\(id)\""
            } else if homepage < 85 {
                band += ", \"homepage\": null"
            }
            band += ", \"active\": \"\(statuses[random.below(statuses.count)])\""
            band += ", \"on_tour\": \(random.chance(30) ? "true" : "false")"
            band += ", \"genre\": \"\(genres[random.below(genres.count)])\", \"formed\": \(1965 + random.below(55))"
            band += ", \"members\": ["
            let members = 1 + random.below(8)
            for m in 0..<members {
                if m > 0 { band += ", " }
                let year = 1940 + random.below(60)
                let month = 1 + random.below(12)
                let day = 1 + random.below(28)
                band += "{\"name\": \(personName()), \"birth_date\": \"\(year)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)\""
                if random.chance(50) { band += ", \"instrument\": \"\(instruments[random.below(instruments.count)])\"" }
                band += "}"
            }
            band += "]"
            band += ", \"tags\": [\"\(genres[random.below(genres.count)])\", \"\(bandWords[random.below(bandWords.count)].lowercased())\"]"
            band += ", \"rating\": \(random.below(5)).\(random.below(100))"
            if random.chance(20) { band += ", \"bio\": \"Formed in a garage.\\nStill loud.\\t\\\"Live\\\" since \(1970 + random.below(50)).\"" }
            band += "}"
            emit(band)
        }
        emit("\n  ],\n  \"last_updated\": \"2016-05-17T22:43:04.000000+00:00\"\n}\n")
        flush()
        return id

    }
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let megabytes = Double(arguments[1]), megabytes > 0 else {
    fail("usage: generate-catalog MEGABYTES OUTPUT", code: 64)
}
guard let file = fopen(arguments[2], "wb") else { fail("cannot open \(arguments[2])", code: 66) }
let writer = CatalogWriter(file: file)
let bands = writer.generate(target: Int(megabytes * 1_000_000))
fclose(file)
print("wrote \(writer.written) bytes, \(bands) bands to \(arguments[2])")
