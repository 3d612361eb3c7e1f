#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FuzzSupport
import Spool

/// `Tree` as a Swift `Decodable`, read by ``StreamingJSONDecoder``: the same fields, each with
/// `decodeIfPresent` (nil for a missing key or null, an error for another type, as `<|?`), and
/// `p` through a nested container, as `<|? ["o", "p"]` (nil when `o` is missing or null). A
/// `null` tree has every field nil, as the operators read it (every `<|?` finds a null on the way).
struct CodableTree: Decodable {
    var tree: Tree

    enum Keys: String, CodingKey {
        case k, i, d, m, s, u, f, b, c, l, o, p, t
    }

    init(from decoder: any Decoder) throws {
        if try decoder.singleValueContainer().decodeNil() {
            tree = Tree()
            return
        }
        let container = try decoder.container(keyedBy: Keys.self)
        var p: String?
        if container.contains(.o), try !container.decodeNil(forKey: .o) {
            p = try container.nestedContainer(keyedBy: Keys.self, forKey: .o).decodeIfPresent(String.self, forKey: .p)
        }
        tree = Tree(
            k: try container.decodeIfPresent(String.self, forKey: .k),
            i: try container.decodeIfPresent(Int.self, forKey: .i),
            d: try container.decodeIfPresent(Double.self, forKey: .d),
            m: try container.decodeIfPresent(Decimal.self, forKey: .m),
            s: try container.decodeIfPresent(Int8.self, forKey: .s),
            u: try container.decodeIfPresent(UInt64.self, forKey: .u),
            f: try container.decodeIfPresent(Float.self, forKey: .f),
            b: try container.decodeIfPresent(Bool.self, forKey: .b),
            c: try container.decodeIfPresent([CodableTree].self, forKey: .c)?.map(\.tree),
            l: try container.decodeIfPresent([Int?].self, forKey: .l),
            p: p,
            t: try container.decodeIfPresent([String: Double].self, forKey: .t))
    }
}

extension Checker {
    /// `Tree` decoded as ``CodableTree`` by ``StreamingJSONDecoder``, in one chunk on this
    /// thread and in small chunks in the background, must give what the operators give:
    /// the same value; a `DecodingError` where they throw a `DecodeError`; invalid JSON as
    /// `DecodingError.dataCorrupted` wrapping the same `ParseError`.
    func checkCodable() {
        let operators = spool(Tree.self, input.oneThread).0
        let runs = [input.oneThread, configurations[2]].map { codable($0) }
        if runs[1] != runs[0] {
            fail("StreamingJSONDecoder differs in small chunks", input, "one thread: \(runs[0])\nsmall chunks: \(runs[1])")
        }
        let agrees: Bool
        switch (operators, runs[0]) {
        case (.value(let expected), .value(let actual)): agrees = expected == actual
        case (.decodeError, .decodingError): agrees = true
        // A null on the root key path: `decodeValue` throws, `StreamingJSONDecoder` decodes
        // that null (documented: the value is the null), here a tree with every field nil.
        case (.decodeError(let error), .value(let tree)): agrees = error.code == "null" && tree == Tree()
        case (.parseError(let expected), .syntaxError(let actual)): agrees = expected == actual
        default: agrees = false
        }
        if !agrees {
            fail("StreamingJSONDecoder (Tree) at \(rootKeyPath) differs from the operators", input, "operators: \(operators)\nCodable: \(runs[0])")
        }
    }

    private func codable(_ options: JSONParsingOptions) -> CodableOutcome {
        let decoder = StreamingJSONDecoder()
        decoder.options = options
        do {
            return .value(try decoder.decode(CodableTree.self, from: .bytes(input.bytes), rootKeyPath: rootKeyPath).tree)
        } catch DecodingError.dataCorrupted(let context) where context.underlyingError is ParseError {
            return .syntaxError(context.underlyingError.map { "\($0)" } ?? "")
        } catch let error as DecodingError {
            return .decodingError("\(error)")
        } catch {
            fail("StreamingJSONDecoder threw something else than a DecodingError", input, "\(Swift.type(of: error)): \(error)")
        }
    }
}

/// What ``StreamingJSONDecoder`` gave.
enum CodableOutcome: Equatable {
    case value(Tree)
    case decodingError(String)
    case syntaxError(String)
}
