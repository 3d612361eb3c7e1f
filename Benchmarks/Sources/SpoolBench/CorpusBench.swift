import Foundation
import Spool

// The "ordinary documents" benchmark: the usual JSON parser corpus (twitter.json,
// citm_catalog.json, canada.json) and the band catalog decoded whole from `Data` into full
// Codable models, by Foundation's `JSONDecoder` and by `StreamingJSONDecoder`.
//
//     spool-bench corpus-foundation DOC FILE [ITERATIONS]
//     spool-bench corpus-spool DOC FILE [ITERATIONS]
//     spool-bench corpus-read DOC FILE
//     spool-bench corpus-check DOC FILE
//
// The file is read into `Data` once, untimed; then it is decoded ITERATIONS times (default 1),
// each decode timed alone with `ContinuousClock`. `corpus-read` only reads the file: the
// baseline to subtract from a decoding run's instruction count under callgrind.
// `corpus-check` decodes with both and exits 1 unless the values are `==`.

/// A document the `corpus-*` modes decode, by the name given on the command line.
enum CorpusDocument: String, CaseIterable {
    case twitter, citm, canada
    /// twitter.json into models without `CodingKeys`, read with `.convertFromSnakeCase`.
    case twitterSnake = "twitter-snake"
    /// The band catalog (GenerateCatalog) into `CodableCatalog`, as `--codable` decodes it.
    case catalog

    /// Whether both decoders read this document with `keyDecodingStrategy = .convertFromSnakeCase`.
    var convertsFromSnakeCase: Bool { self == .twitterSnake }
}

/// A model a corpus document decodes into, which both decoders must produce equal.
protocol CorpusModel: Decodable, Equatable {
    /// Counts of what was decoded (`statuses 100 retweets 73 ...`): printed after every run, so
    /// that each decode's result is used and two runs can be compared at a glance.
    var summary: String { get }
}

extension Twitter.SearchResponse: CorpusModel {
    var summary: String {
        let entities = statuses.map(\.entities)
        return "statuses \(statuses.count) retweets \(statuses.filter { $0.retweetedStatus != nil }.count)"
            + " mentions \(entities.reduce(0) { $0 + $1.userMentions.count })"
            + " media \(entities.reduce(0) { $0 + ($1.media?.count ?? 0) })"
    }
}

extension TwitterSnake.SearchResponse: CorpusModel {
    var summary: String {
        let entities = statuses.map(\.entities)
        return "statuses \(statuses.count) retweets \(statuses.filter { $0.retweetedStatus != nil }.count)"
            + " mentions \(entities.reduce(0) { $0 + $1.userMentions.count })"
            + " media \(entities.reduce(0) { $0 + ($1.media?.count ?? 0) })"
    }
}

extension Citm.Catalog: CorpusModel {
    var summary: String {
        let categories = performances.flatMap(\.seatCategories)
        return "events \(events.count) performances \(performances.count)"
            + " prices \(performances.reduce(0) { $0 + $1.prices.count })"
            + " areas \(categories.reduce(0) { $0 + $1.areas.count })"
    }
}

extension Canada.FeatureCollection: CorpusModel {
    var summary: String {
        let rings = features.flatMap(\.geometry.coordinates)
        return "features \(features.count) rings \(rings.count) points \(rings.reduce(0) { $0 + $1.count })"
    }
}

extension CodableCatalog: CorpusModel {
    var summary: String {
        "bands \(objects.count) members \(objects.reduce(0) { $0 + $1.members.count })"
    }
}

/// Runs a `corpus-*` mode; `operands` are the words after the mode.
func runCorpusMode(_ mode: String, _ operands: [String]) {
    var operands = operands
    // `corpus-check FILE DOC` is accepted too.
    if operands.count >= 2, CorpusDocument(rawValue: operands[0]) == nil, CorpusDocument(rawValue: operands[1]) != nil {
        operands.swapAt(0, 1)
    }
    let names = CorpusDocument.allCases.map(\.rawValue).joined(separator: "|")
    guard (2...3).contains(operands.count), let document = CorpusDocument(rawValue: operands[0]),
        let iterations = operands.count == 3 ? Int(operands[2]) : 1, iterations >= 1
    else { fail("usage: spool-bench \(mode) \(names) FILE [ITERATIONS]", code: 64) }
    let path = operands[1]
    do {
        switch document {
        case .twitter: try runCorpus(Twitter.SearchResponse.self, document, mode: mode, path: path, iterations: iterations)
        case .twitterSnake: try runCorpus(TwitterSnake.SearchResponse.self, document, mode: mode, path: path, iterations: iterations)
        case .citm: try runCorpus(Citm.Catalog.self, document, mode: mode, path: path, iterations: iterations)
        case .canada: try runCorpus(Canada.FeatureCollection.self, document, mode: mode, path: path, iterations: iterations)
        case .catalog: try runCorpus(CodableCatalog.self, document, mode: mode, path: path, iterations: iterations)
        }
    } catch {
        fail("\(mode) \(document.rawValue): \(error)", code: 1)
    }
}

/// One `corpus-*` mode for one document decoded into `Model`.
private func runCorpus<Model: CorpusModel>(
    _ type: Model.Type, _ document: CorpusDocument, mode: String, path: String, iterations: Int
) throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let foundation = JSONDecoder()
    let spool = StreamingJSONDecoder()
    if document.convertsFromSnakeCase {
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        spool.keyDecodingStrategy = .convertFromSnakeCase
    }
    switch mode {
    case "corpus-read":
        print("bytes \(data.count)")
    case "corpus-foundation":
        try timeDecoding(iterations: iterations) { try foundation.decode(Model.self, from: data) }
    case "corpus-spool":
        try timeDecoding(iterations: iterations) { try spool.decode(Model.self, from: data) }
    case "corpus-check":
        try checkDecoders(
            foundation: { try foundation.decode(Model.self, from: data) },
            spool: { try spool.decode(Model.self, from: data) }, document: document)
    default:
        fail("unknown mode \(mode)", code: 64)
    }
}

/// Decodes `iterations` times, timing each decode alone, then prints the last value's summary
/// and, for more than one iteration, every time and their median:
/// `decode-seconds 0.00412 0.00398 ...` and `median-seconds 0.00398`.
private func timeDecoding<Model: CorpusModel>(iterations: Int, _ decode: () throws -> Model) throws {
    let clock = ContinuousClock()
    var seconds: [Double] = []
    seconds.reserveCapacity(iterations)
    var value: Model?
    for _ in 0..<iterations {
        let start = clock.now
        let decoded = try decode()
        let elapsed = clock.now - start
        seconds.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        value = decoded  // the previous value is released here, outside the timed span
    }
    print(value?.summary ?? "")
    if iterations > 1 {
        print("decode-seconds " + seconds.map { String($0) }.joined(separator: " "))
        let sorted = seconds.sorted()
        let middle = sorted.count / 2
        let median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        print("median-seconds \(median)")
    }
}

/// Decodes with both decoders and exits 1, printing the differing fields (up to 20) or the
/// error, unless both succeed with `==` values.
private func checkDecoders<Model: CorpusModel>(
    foundation: () throws -> Model, spool: () throws -> Model, document: CorpusDocument
) throws {
    let expected: Model
    do { expected = try foundation() } catch { fail("corpus-check \(document.rawValue): JSONDecoder threw \(error)", code: 1) }
    let actual: Model
    do { actual = try spool() } catch { fail("corpus-check \(document.rawValue): StreamingJSONDecoder threw \(error)", code: 1) }
    guard expected != actual else {
        print("\(document.rawValue): equal (\(actual.summary))")
        return
    }
    var found: [String] = []
    differences(expected, actual, path: "", into: &found)
    fail("corpus-check \(document.rawValue): the values differ (JSONDecoder vs StreamingJSONDecoder):\n"
        + found.joined(separator: "\n"), code: 1)
}

/// Walks two values of the same type with `Mirror` and appends `path: a vs b` for each leaf
/// that prints differently (arrays by index, dictionaries by key), up to 20.
private func differences(_ a: Any, _ b: Any, path: String, into found: inout [String]) {
    guard found.count < 20 else { return }
    let left = Mirror(reflecting: a)
    let right = Mirror(reflecting: b)
    let isLeaf = a is String || a is URL || a is Double || a is Int || a is Bool
    if isLeaf || (left.children.isEmpty && right.children.isEmpty) {
        let (x, y) = (String(reflecting: a), String(reflecting: b))
        if x != y { found.append("\(path.isEmpty ? "." : path): \(x) vs \(y)") }
        return
    }
    switch left.displayStyle {
    case .dictionary:
        func entries(_ mirror: Mirror) -> [String: Any] {
            var result: [String: Any] = [:]
            for child in mirror.children {
                let pair = Mirror(reflecting: child.value).children.map(\.value)
                if pair.count == 2 { result[String(describing: pair[0])] = pair[1] }
            }
            return result
        }
        let (x, y) = (entries(left), entries(right))
        for key in Set(x.keys).union(y.keys).sorted() {
            switch (x[key], y[key]) {
            case let (u?, v?): differences(u, v, path: "\(path)[\"\(key)\"]", into: &found)
            case (_?, nil): found.append("\(path)[\"\(key)\"]: only from JSONDecoder")
            case (nil, _?): found.append("\(path)[\"\(key)\"]: only from StreamingJSONDecoder")
            case (nil, nil): break
            }
        }
    case .collection, .set:
        let (x, y) = (Array(left.children), Array(right.children))
        if x.count != y.count { found.append("\(path): \(x.count) elements vs \(y.count)") }
        for (index, (u, v)) in zip(x, y).enumerated() {
            differences(u.value, v.value, path: "\(path)[\(index)]", into: &found)
        }
    default:
        let (x, y) = (Array(left.children), Array(right.children))
        if x.count != y.count {
            found.append("\(path): \(String(reflecting: a)) vs \(String(reflecting: b))")
            return
        }
        for (u, v) in zip(x, y) {
            let name = u.label.map { "." + $0 } ?? ""
            differences(u.value, v.value, path: path + name, into: &found)
        }
    }
}
