import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Spool

/// `spool bands [FILE]`: the demo. Streams the band catalog of the Himotoki tutorial into
/// typed models, one line per band, then a summary.
struct BandsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bands",
        abstract: "Decode a band catalog (the Himotoki tutorial's schema), streaming.",
        discussion: """
            Prints one line per band of "objects" (name, status, member count, homepage), then \
            a summary: bands, members, the oldest member and last_updated. Try it on \
            Examples/bands.json.
            """
    )

    @Argument(help: "The catalog; '-' or absent for standard input.")
    var file: String?

    @Flag(help: "Print only the summary.")
    var summary = false

    @Flag(help: "Skip bands that do not decode, reporting each on stderr, and go on.")
    var skipInvalid = false

    @OptionGroup var parsing: ParsingFlags
    @OptionGroup var progress: ProgressFlags

    func run() throws {
        let input = InputFile(file)
        let output = StandardOutput()
        do {
            let (stream, bar) = try input.stream(options: parsing.options, progress: progress)
            defer { bar.finish() }
            let policy: JSONElements<Band>.ErrorPolicy =
                skipInvalid ? .skip { printToStandardError("\(input.name):\($0.error.description) (band skipped)") } : .stop
            let bands = stream.elements(of: Band.self, at: "objects", onError: policy)
            var bandCount = 0
            var memberCount = 0
            var oldest: BandMember?
            while let band = try bands.next() {
                bandCount += 1
                memberCount += band.members.count
                for member in band.members where oldest.map({ member.birthDate < $0.birthDate }) ?? true {
                    oldest = member
                }
                if !summary {
                    let members = "\(band.members.count) member\(band.members.count == 1 ? "" : "s")"
                    output.line("\(band.name)\t\(band.status.rawValue)\t\(members)\t\(band.homepage?.absoluteString ?? "-")")
                }
            }
            let lastUpdated: String? = try stream.remainder <|? "last_updated"
            bar.finish()
            output.line("bands: \(bandCount)")
            output.line("members: \(memberCount)")
            if let oldest { output.line("oldest member: \(oldest.name) (\(oldest.birthDateText))") }
            if let lastUpdated { output.line("last_updated: \(lastUpdated)") }
        } catch {
            output.flush()
            throw report(error, file: input.name)
        }
    }
}
