import BandServer
import Foundation

// band-server [--port N] [--database PATH]: serves POST /bands and GET /bands (see BandRoutes).
var port = 8080
var path = "bands.sqlite"
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--port": port = arguments.popFirst().flatMap(Int.init) ?? port
    case "--database": path = arguments.popFirst() ?? path
    default:
        FileHandle.standardError.write(Data("usage: band-server [--port N] [--database PATH]\n".utf8))
        exit(64)
    }
}
let database = path
let store = try BandStore(path: database)
let app = BandServerApplication.make(store: store, host: "127.0.0.1", port: port) { port in
    print("band-server: listening on http://127.0.0.1:\(port), database \(database)")
}
try await app.runService()
