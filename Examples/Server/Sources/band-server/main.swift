import BandServer
import Foundation

// band-server [--port N] [--database PATH] [--collecting] [--max-body-bytes N]: serves POST /bands
// and GET /bands (see BandRoutes); --collecting takes uploads the usual way, for comparison
// (CollectingUpload); --max-body-bytes refuses longer bodies with 413.
var port = 8080
var path = "bands.sqlite"
var collecting = false
var maximumBodySize: Int?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--port": port = arguments.popFirst().flatMap(Int.init) ?? port
    case "--database": path = arguments.popFirst() ?? path
    case "--collecting": collecting = true
    case "--max-body-bytes": maximumBodySize = arguments.popFirst().flatMap(Int.init)
    default:
        FileHandle.standardError.write(Data("usage: band-server [--port N] [--database PATH] [--collecting] [--max-body-bytes N]\n".utf8))
        exit(64)
    }
}
let database = path
let store = try BandStore(path: database)
let mode = collecting
let limit = maximumBodySize
let app = BandServerApplication.make(
    store: store, host: "127.0.0.1", port: port, collecting: mode, maximumBodySize: limit
) { port in
    // (Written at once, also to a pipe: a script waits for this line.)
    FileHandle.standardOutput.write(Data("band-server: listening on http://127.0.0.1:\(port), database \(database)\n".utf8))
}
try await app.runService()
