// How deep recursive Codable models decode on a 512 KiB thread stack (Apple's secondary
// threads), with Spool's `StreamingJSONDecoder` and Foundation's `JSONDecoder`, both optimized:
// `spool-stack-depth` prints the deepest document each decodes, per model, and exits 1 when
// Spool decodes less deep than `JSONDecoder` or crashes. Each attempt runs in a child process
// (`spool-stack-depth attempt DECODER MODEL LEVELS`), since a stack overflow ends the process.
import Foundation
import Spool

final class Node: Codable {
    let child: Node?
}

struct Tree: Codable {
    let children: [Tree]
}

indirect enum Expression: Codable {
    case leaf(Int)
    case list([Expression])
}

enum Model: String, CaseIterable {
    case node, tree, expression

    var title: String {
        switch self {
        case .node: "final class Node: Codable { let child: Node? }"
        case .tree: "struct Tree: Codable { let children: [Tree] }"
        case .expression: "indirect enum Expression: Codable { case leaf(Int), list([Expression]) }"
        }
    }

    /// JSON levels per model level.
    var jsonLevels: Int { [.node: 1, .tree: 2, .expression: 3][self] ?? 1 }

    func document(levels: Int) -> Data {
        let text = switch self {
        case .node:
            String(repeating: #"{"child":"#, count: levels - 1) + #"{"child":null}"# + String(repeating: "}", count: levels - 1)
        case .tree:
            String(repeating: #"{"children":["#, count: levels - 1) + #"{"children":[]}"# + String(repeating: "]}", count: levels - 1)
        case .expression:
            String(repeating: #"{"list":{"_0":["#, count: levels - 1) + #"{"leaf":{"_0":1}}"# + String(repeating: "]}}", count: levels - 1)
        }
        return Data(text.utf8)
    }

    func decode(_ data: Data, spool: Bool, maxDepth: Int) throws {
        if spool {
            let decoder = StreamingJSONDecoder()
            decoder.options.maxDepth = maxDepth
            switch self {
            case .node: _ = try decoder.decode(Node.self, from: data)
            case .tree: _ = try decoder.decode(Tree.self, from: data)
            case .expression: _ = try decoder.decode(Expression.self, from: data)
            }
        } else {
            let decoder = JSONDecoder()
            switch self {
            case .node: _ = try decoder.decode(Node.self, from: data)
            case .tree: _ = try decoder.decode(Tree.self, from: data)
            case .expression: _ = try decoder.decode(Expression.self, from: data)
            }
        }
    }
}

/// Runs `body` on a thread with a 512 KiB stack and waits for it.
func onSmallStack(_ body: @escaping @Sendable () -> Int32) -> Int32 {
    final class Box: @unchecked Sendable { var status: Int32 = 2 }
    let box = Box()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        box.status = body()
        done.signal()
    }
    thread.stackSize = 512 * 1024
    thread.start()
    done.wait()
    return box.status
}

/// The outcome of one attempt in a child process.
enum Outcome { case decoded, refused, crashed }

func attempt(spool: Bool, _ model: Model, levels: Int, maxDepth: Int) throws -> Outcome {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = ["attempt", spool ? "spool" : "foundation", model.rawValue, String(levels), String(maxDepth)]
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard process.terminationReason == .exit else { return .crashed }
    return process.terminationStatus == 0 ? .decoded : process.terminationStatus == 1 ? .refused : .crashed
}

/// The most levels that decode, up to `limit` (binary search), and whether any attempt crashed.
func deepest(spool: Bool, _ model: Model, limit: Int, maxDepth: Int) throws -> (levels: Int, crashed: Bool) {
    var crashed = false
    var low = 0  // decodes (0: trivially)
    var high = limit + 1  // does not
    while high - low > 1 {
        let middle = (low + high) / 2
        switch try attempt(spool: spool, model, levels: middle, maxDepth: maxDepth) {
        case .decoded: low = middle
        case .refused: high = middle
        case .crashed:
            crashed = true
            high = middle
        }
    }
    return (low, crashed)
}

let arguments = CommandLine.arguments
if arguments.count == 6, arguments[1] == "attempt", let model = Model(rawValue: arguments[3]),
    let levels = Int(arguments[4]), let maxDepth = Int(arguments[5])
{
    let spool = arguments[2] == "spool"
    let data = model.document(levels: levels)
    exit(onSmallStack {
        do {
            try model.decode(data, spool: spool, maxDepth: maxDepth)
            return 0
        } catch {
            return 1
        }
    })
}

let maxDepth = JSONParsingOptions().maxDepth
print("Deepest document decoded on a 512 KiB stack, in model levels (maxDepth \(maxDepth)):")
print("| model | JSONDecoder | StreamingJSONDecoder | StreamingJSONDecoder, maxDepth \(JSONParsingOptions.largestMaxDepth) |")
print("|---|---|---|---|")
var failed = false
for model in Model.allCases {
    let limit = maxDepth / model.jsonLevels
    let foundation = try deepest(spool: false, model, limit: limit, maxDepth: maxDepth)
    let spool = try deepest(spool: true, model, limit: limit, maxDepth: maxDepth)
    // With the largest maxDepth, the stack is the limit: refused beyond it, never a crash.
    let raised = try deepest(
        spool: true, model, limit: JSONParsingOptions.largestMaxDepth / model.jsonLevels, maxDepth: JSONParsingOptions.largestMaxDepth)
    func cell(_ result: (levels: Int, crashed: Bool), crash: String) -> String {
        "\(result.levels)\(result.crashed ? crash : "")"
    }
    print("| `\(model.title)` | \(cell(foundation, crash: ", then crashes")) | \(cell(spool, crash: ", then CRASHES")) "
        + "| \(cell(raised, crash: ", then CRASHES"))\(raised.crashed ? "" : ", then refused") |")
    if spool.crashed || raised.crashed || spool.levels < foundation.levels { failed = true }
}
if failed {
    print("error: StreamingJSONDecoder decodes less deep than JSONDecoder, or crashed")
    exit(1)
}
