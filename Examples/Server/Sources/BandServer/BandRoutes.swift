import Foundation
import Hummingbird
import Spool

/// The band server's routes:
/// - `POST /bands`: a catalog of any size as the request body, streamed into the store
///   (``BandUpload``); answers `{"count":N}`, or `400` with the located error (`413` for a
///   body over the limit set).
/// - `GET /bands`: every stored band as a JSON array; `GET /bands?format=lines`: as JSON Lines.
public enum BandRoutes {
    /// A router serving `store`; `collecting`: uploads go the usual way instead, collected
    /// whole and decoded by `JSONDecoder` (``CollectingUpload``), for comparison;
    /// `maximumBodySize`: see ``BandUpload/maximumBodySize``.
    public static func router(store: BandStore, collecting: Bool = false, maximumBodySize: Int? = nil) -> Router<BasicRequestContext> {
        let router = Router()
        var configured = BandUpload(store: store)
        configured.maximumBodySize = maximumBodySize
        let upload = configured
        let collected = CollectingUpload(store: store)
        router.post("bands") { request, _ -> Response in
            do {
                let count: Int
                if collecting {
                    count = try await collected.receive(request.body)
                } else {
                    count = try await upload.receive(request.body.map { $0.readableBytesView })
                }
                return json(.ok) { writer in
                    try writer.key("count")
                    try writer.number(count)
                }
            } catch {
                return refusal(error)
            }
        }
        router.get("bands") { request, _ -> Response in
            let lines = request.uri.queryParameters.get("format") == "lines"
            return Response(
                status: .ok, headers: [.contentType: lines ? "application/jsonl" : "application/json"],
                body: BandDownload(store: store, lines: lines).body)
        }
        return router
    }

    /// A `400` whose body says what was wrong with the upload, where:
    /// `{"error":"...","path":"objects[3].name","line":7,"column":15}`.
    static func refusal(_ error: any Error) -> Response {
        let (message, path, location): (String, JSONKeyPath?, SourceLocation?)
        switch error {
        case let error as ParseError: (message, path, location) = (error.description, error.path, error.location)
        case let error as DecodeError: (message, path, location) = (error.description, error.keyPath, error.location)
        default: (message, path, location) = ("\(error)", nil, nil)  // too large, or the body's own error
        }
        return json(error is BandUpload.TooLarge ? .contentTooLarge : .badRequest) { writer in
            try writer.key("error")
            try writer.string(message)
            if let path {
                try writer.key("path")
                try writer.string(path.description)
            }
            if let location {
                try writer.key("line")
                try writer.number(location.line)
                try writer.key("column")
                try writer.number(location.column)
            }
        }
    }

    /// A small JSON object as a response.
    static func json(_ status: HTTPResponse.Status, _ members: (JSONWriter) throws -> Void) -> Response {
        let writer = JSONWriter()
        do {
            try writer.beginObject()
            try members(writer)
            try writer.endObject()
            try writer.finish()
        } catch {
            return Response(status: .internalServerError)
        }
        return Response(
            status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: writer.bytes)))
    }
}

/// The band server as a Hummingbird application.
public enum BandServerApplication {
    /// An application serving `store` at `host`:`port` (0: any free port); `onRunning` gets the
    /// port it listens on. `collecting`, `maximumBodySize`: see
    /// ``BandRoutes/router(store:collecting:maximumBodySize:)``.
    public static func make(
        store: BandStore, host: String = "127.0.0.1", port: Int = 8080, collecting: Bool = false,
        maximumBodySize: Int? = nil, onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        Application(
            router: BandRoutes.router(store: store, collecting: collecting, maximumBodySize: maximumBodySize),
            configuration: .init(address: .hostname(host, port: port), serverName: "band-server"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) })
    }
}
