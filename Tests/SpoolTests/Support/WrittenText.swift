@testable import Spool

/// The text a memory writer in `format` holds after `body`, for the writer's tests.
func written(_ format: JSONWriter.Format = .compact, _ body: (JSONWriter) throws -> Void) throws -> String {
    let writer = JSONWriter(format: format)
    try body(writer)
    try writer.finish()
    return String(decoding: writer.bytes, as: UTF8.self)
}
