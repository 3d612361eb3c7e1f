import BandClient
import Foundation

// band-client upload FILE [SERVER] | band-client download [SERVER] [--lines]
let arguments = Array(CommandLine.arguments.dropFirst())
let usage = "usage: band-client upload FILE [SERVER] | band-client download [SERVER] [--lines]\n"
guard let command = arguments.first else {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(64)
}
let lines = arguments.contains("--lines")
let rest = arguments.dropFirst().filter { $0 != "--lines" }
switch command {
case "upload":
    guard let file = rest.first else {
        FileHandle.standardError.write(Data(usage.utf8))
        exit(64)
    }
    let client = BandClient(server: rest.dropFirst().first ?? "http://127.0.0.1:8080")
    do {
        print("stored \(try await client.upload(file: file)) bands")
    } catch {
        FileHandle.standardError.write(Data("band-client: \(error)\n".utf8))
        exit(1)
    }
case "download":
    let client = BandClient(server: rest.first ?? "http://127.0.0.1:8080")
    let count = try await client.download(lines: lines) { band in
        print(band.name, band.members.count, separator: "\t")
    }
    FileHandle.standardError.write(Data("band-client: \(count) bands\n".utf8))
default:
    FileHandle.standardError.write(Data(usage.utf8))
    exit(64)
}
