import RawYajl
import Spool

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The measurement behind JSONWriter's choice of writing JSON in Swift rather than through
// yajl_gen: the same array of small objects, written three ways (see JSONWriter.swift).

/// The varying strings, made once so no mode pays for building them.
struct SmallObjects {
    let names = (0..<1000).map { "Band \($0)" }
    let homepages: [String]

    init(count: Int) {
        homepages = (0..<min(count, 100_000)).map { "https://www.example.com/band?id=\($0)" }
    }

    func homepage(_ i: Int) -> String { homepages[i % homepages.count] }
}

/// yajl_gen driven from Swift token by token, numbers formatted by Swift (shortest doubles) and
/// passed as text: what Spool would do if it wrapped yajl_gen.
func generateWithYajl(_ path: String, count: Int) -> Int {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0, let gen = raw_gen_open_tracked(fd) else { return -1 }
    let objects = SmallObjects(count: count)
    func key(_ text: StaticString) {
        _ = yajl_gen_string(gen, text.utf8Start, text.utf8CodeUnitCount)
    }
    func string(_ text: String) {
        var text = text
        text.withUTF8 { _ = yajl_gen_string(gen, $0.baseAddress, $0.count) }
    }
    func number(_ text: String) {
        var text = text
        text.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { _ = yajl_gen_number(gen, $0.baseAddress, $0.count) }
        }
    }
    _ = yajl_gen_array_open(gen)
    for i in 0..<count {
        _ = yajl_gen_map_open(gen)
        key("id")
        _ = yajl_gen_integer(gen, Int64(i))
        key("name")
        string(objects.names[i % 1000])
        key("active")
        _ = yajl_gen_bool(gen, i % 3 == 0 ? 1 : 0)
        key("rating")
        var rating = (Double(i % 500) / 100).description
        if rating.hasSuffix(".0") { rating.removeLast(2) }
        number(rating)
        key("tags")
        _ = yajl_gen_array_open(gen)
        key("indie")
        key("rock/pop")
        _ = yajl_gen_array_close(gen)
        key("homepage")
        string(objects.homepage(i))
        _ = yajl_gen_map_close(gen)
    }
    _ = yajl_gen_array_close(gen)
    raw_gen_finish_tracked(gen)
    close(fd)
    return count
}

/// The same objects through JSONWriter.
func generateWithWriter(_ path: String, count: Int) throws -> Int {
    let writer = try JSONWriter(toFile: path)
    let objects = SmallObjects(count: count)
    try writer.beginArray()
    for i in 0..<count {
        try writer.beginObject()
        try writer.key("id")
        try writer.number(i)
        try writer.key("name")
        try writer.string(objects.names[i % 1000])
        try writer.key("active")
        try writer.bool(i % 3 == 0)
        try writer.key("rating")
        try writer.number(Double(i % 500) / 100)
        try writer.key("tags")
        try writer.beginArray()
        try writer.string("indie")
        try writer.string("rock/pop")
        try writer.endArray()
        try writer.key("homepage")
        try writer.string(objects.homepage(i))
        try writer.endObject()
    }
    try writer.endArray()
    try writer.finish()
    return count
}
