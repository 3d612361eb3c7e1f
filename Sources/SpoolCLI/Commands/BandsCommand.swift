import ArgumentParser
import BandCatalog
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Spool

/// `spool bands [FILE]`: the demo. Streams the band catalog of the Himotoki tutorial into the
/// tutorial's models (``BandCatalog``), one line per band, then a summary.
struct BandsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bands",
        abstract: "Decode a band catalog (the Himotoki tutorial's schema), streaming.",
        discussion: """
            Prints one line per band of "objects" (name, status, member count, homepage), then \
            a summary: bands, members, the oldest member and last_updated. Try it on \
            Examples/bands.json. With --skip-invalid, a band that does not decode is reported \
            on stderr and skipped, the rest is still read, the summary says how many were \
            skipped, and the exit status is 1 if any was.
            """
    )

    @Argument(help: "The catalog; '-' or absent for standard input. A name that begins with '-' goes after --.")
    var file: String?

    @Flag(help: "Print only the summary.")
    var summary = false

    @Flag(help: "Skip bands that do not decode, reporting each on stderr, and go on (exit 1 if any was skipped).")
    var skipInvalid = false

    @OptionGroup var parsing: ParsingFlags
    @OptionGroup var progress: ProgressFlags
    @OptionGroup var jobs: JobsFlag

    func run() throws {
        let input = InputFile(file)
        let output = StandardOutput()
        do {
            let (stream, bar) = input.stream(options: parsing.options, progress: progress, streamsOutput: !summary)
            defer { bar.finish() }
            var skipped = 0
            let policy: ElementErrorPolicy =
                skipInvalid
                ? .skip { report in
                    skipped += 1
                    bar.finish()
                    printToStandardError("\(input.name):\(report.error.description) (band skipped)")
                }
                : .stop
            let bands = stream.elements(of: Band.self, at: "objects", onError: policy, parallelism: jobs.parallelism)
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
                    let homepage = band.homepageURL?.absoluteString ?? "-"
                    try output.line("\(TerminalText.safe(band.name))\t\(band.status)\t\(members)\t\(TerminalText.safe(homepage))")
                }
            }
            let lastUpdated = try stream.remainder().valueOptional("last_updated", .iso8601)
            bar.finish()
            try output.line("bands: \(bandCount)")
            try output.line("members: \(memberCount)")
            if let oldest {
                try output.line("oldest member: \(TerminalText.safe(oldest.name)) (\(oldest.birthDate.formatted(Self.day)))")
            }
            if let lastUpdated { try output.line("last_updated: \(lastUpdated.formatted(.iso8601))") }
            if skipInvalid { try output.line("skipped: \(skipped)") }
            try output.flush()
            if skipped > 0 { throw SpoolExit.invalidInput }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            throw output.finish(after: error, file: input.name)
        }
    }

    private static let day = Date.ISO8601FormatStyle().year().month().day()
}
