import Hummingbird
import Spool

/// The stored bands as a response body: a JSON array, or JSON Lines, written by a
/// ``JSONWriter`` page by page from the database, in constant memory.
struct BandDownload: Sendable {
    let store: BandStore
    /// Whether to write JSON Lines rather than one array.
    let lines: Bool
    /// Bands read per database page.
    var pageSize = 1_000

    var body: ResponseBody {
        let store = self.store
        let lines = self.lines
        let pageSize = self.pageSize
        return ResponseBody { writer in
            let json = JSONWriter(format: lines ? .lines : .compact)
            if !lines { try json.beginArray() }
            var last: Int64 = 0
            while true {
                let page = try await store.page(after: last, limit: pageSize)
                guard let end = page.last?.id else { break }
                for (_, band) in page { try json.write(band) }
                last = end
                try await writer.write(ByteBuffer(bytes: json.takeOutput()))
            }
            if !lines { try json.endArray() }
            try json.finish()
            try await writer.write(ByteBuffer(bytes: json.takeOutput()))
            try await writer.finish(nil)
        }
    }
}
