import Foundation
import Spool

// The `try?` fallback idiom, which pays for an error on every value it refuses: an array of
// COUNT strings ("s0", "s1", ...), each element tried as an Int first, then read as a String.
//
//     spool-bench fallback-foundation COUNT [ITERATIONS]   (JSONDecoder, Codable)
//     spool-bench fallback-codable COUNT [ITERATIONS]      (StreamingJSONDecoder, Codable)
//     spool-bench fallback-operators COUNT [ITERATIONS]    (JSONDecodable, `try? Int.decode(e)`)
//
// Each decode is timed alone; the median is printed as `seconds S strings N`.

/// Counts the elements that are strings, trying each as an `Int` first.
struct FallbackCodable: Decodable {
    var strings = 0

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        while !container.isAtEnd {
            if (try? container.decode(Int.self)) == nil {
                _ = try container.decode(String.self)
                strings += 1
            }
        }
    }
}

/// One element, tried as an `Int` first.
enum FallbackElement: JSONDecodable {
    case int(Int)
    case string(String)

    static func decode(_ e: Extractor) throws -> FallbackElement {
        if let int = try? Int.decode(e) { return .int(int) }
        return .string(try String.decode(e))
    }
}

func runFallbackMode(_ mode: String, _ arguments: [String]) {
    guard let count = arguments.first.flatMap({ Int($0) }) else { fail("usage: spool-bench \(mode) COUNT [ITERATIONS]", code: 64) }
    let iterations = arguments.dropFirst().first.flatMap { Int($0) } ?? 5
    let data = Data(("[" + (0..<count).map { "\"s\($0)\"" }.joined(separator: ",") + "]").utf8)
    var times: [Double] = []
    var strings = 0
    for _ in 0..<iterations {
        let start = ContinuousClock.now
        do {
            switch mode {
            case "fallback-foundation": strings = try JSONDecoder().decode(FallbackCodable.self, from: data).strings
            case "fallback-codable": strings = try StreamingJSONDecoder().decode(FallbackCodable.self, from: data).strings
            default:
                strings = try [FallbackElement].decodeValue(from: .data(data)).filter {
                    if case .string = $0 { true } else { false }
                }.count
            }
        } catch {
            fail("\(error)", code: 1)
        }
        let elapsed = ContinuousClock.now - start
        times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
    guard strings == count else { fail("decoded \(strings) strings of \(count)", code: 1) }
    print("seconds \(times.sorted()[times.count / 2]) strings \(strings)")
}
