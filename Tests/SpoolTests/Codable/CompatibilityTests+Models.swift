import Foundation
import Spool
import Testing

/// Models as people write them: enums with associated values (synthesized), raw-value enums,
/// class hierarchies through `superDecoder`, property wrappers, `userInfo`, wide objects and
/// deep recursion.
@Suite("Compatibility: models")
struct CompatibilityModelTests {
    // MARK: Enums

    enum Shape: Decodable, Equatable {
        case circle(radius: Double)
        case rect(Double, Double)
        case point
        case labeled(_ name: String, size: Int)
        indirect case group([Shape], name: String?)
    }

    enum Color: String, Decodable, Equatable { case red, green, lightBlue = "light_blue" }
    enum Level: Int, Decodable, Equatable { case low = 1, high = 10 }
    enum Ratio: Double, Decodable, Equatable { case half = 0.5, whole = 1 }

    static let enums: [CompatCase] = [
        #"{"circle": {"radius": 1.5}}"#, #"{"rect": {"_0": 1, "_1": 2}}"#, #"{"point": {}}"#,
        #"{"labeled": {"_0": "a", "size": 2}}"#, #"{"group": {"_0": [{"point": {}}, {"circle": {"radius": 2}}], "name": null}}"#,
        #"{"group": {"_0": [{"point": {}}, {"circle": {"radius": "x"}}]}}"#, #"{"circle": {}}"#, #"{"circle": {"radius": "x"}}"#,
        #"{"circle": {"radius": null}}"#, #"{"rect": {"_0": 1}}"#, #"{"rect": [1, 2]}"#, "{}", #"{"circle": {"radius": 1}, "point": {}}"#,
        #"{"square": {}}"#, #"{"circle": 1}"#, #"{"point": null}"#, #"{"point": []}"#, #""point""#, "null", "[]",
        #"{"circle": {"radius": 1}, "unknown": 2}"#, #"{"labeled": {"_0": "a", "size": 2, "extra": 1}}"#,
    ].map { .same(Shape.self, $0) } + [
        .same([Shape].self, #"[{"point": {}}, {"rect": {"_0": 1, "_1": "x"}}]"#),
        .same([String: Shape].self, #"{"a": {"point": {}}, "b": {"nope": {}}}"#),
    ]

    static let rawValues: [CompatCase] = [
        [#""red""#, #""light_blue""#, #""lightBlue""#, #""purple""#, #""""#, "1", "null"].flatMap { CompatCase.everywhere(Color.self, $0) },
        ["1", "10", "2", "1.0", #""1""#, "null"].flatMap { CompatCase.everywhere(Level.self, $0) },
        ["0.5", "1", "1.0", "2", #""0.5""#].flatMap { CompatCase.everywhere(Ratio.self, $0) },
        [.same([String: Color].self, #"{"a": "red", "b": "blue"}"#), .same(Box<Color?>.self, #"{"value": "blue"}"#)],
    ].flatMap { $0 }

    // MARK: Classes

    class Animal: Decodable, Equatable, CustomStringConvertible {
        let name: String

        private enum CodingKeys: String, CodingKey { case name }

        required init(from decoder: any Decoder) throws {
            name = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .name)
        }

        var fields: [String] { ["name: \(name)"] }
        var description: String { "\(type(of: self))(\(fields.joined(separator: ", ")))" }
        static func == (lhs: Animal, rhs: Animal) -> Bool { type(of: lhs) == type(of: rhs) && lhs.fields == rhs.fields }
    }

    /// The parent's fields under `"super"`, through `superDecoder()`; its keys have no `super`.
    final class Dog: Animal {
        let breed: String

        private enum CodingKeys: String, CodingKey { case breed }

        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            breed = try container.decode(String.self, forKey: .breed)
            try super.init(from: container.superDecoder())
        }

        override var fields: [String] { super.fields + ["breed: \(breed)"] }
    }

    /// The parent's fields under a key of its own, through `superDecoder(forKey:)`.
    final class Cat: Animal {
        let lives: Int

        private enum CodingKeys: String, CodingKey { case lives, animal }

        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            lives = try container.decode(Int.self, forKey: .lives)
            try super.init(from: container.superDecoder(forKey: .animal))
        }

        override var fields: [String] { super.fields + ["lives: \(lives)"] }
    }

    /// The parent reads the same object (the common flat layout).
    final class Bird: Animal {
        let wings: Int

        private enum CodingKeys: String, CodingKey { case wings }

        required init(from decoder: any Decoder) throws {
            wings = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .wings)
            try super.init(from: decoder)
        }

        override var fields: [String] { super.fields + ["wings: \(wings)"] }
    }

    /// The parent as the first element of an array, through the unkeyed `superDecoder()`.
    final class Fish: Animal {
        let fins: Int

        required init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            let parent = try container.superDecoder()
            fins = try container.decode(Int.self)
            try super.init(from: parent)
        }

        override var fields: [String] { super.fields + ["fins: \(fins)"] }
    }

    /// A keyed model whose keys include `super`.
    struct WithSuperKey: Decodable, Equatable {
        let id: Int
        let parent: Box<Int>

        enum CodingKeys: String, CodingKey { case id, `super` }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(Int.self, forKey: .id)
            parent = try Box<Int>(from: container.superDecoder())
        }
    }

    static let classes: [CompatCase] = [
        [
            #"{"breed": "lab", "super": {"name": "Rex"}}"#, #"{"breed": "lab"}"#, #"{"breed": "lab", "super": null}"#,
            #"{"breed": "lab", "super": {"name": 1}}"#, #"{"breed": "lab", "super": {}}"#, #"{"breed": "lab", "super": []}"#,
            #"{"super": {"name": "Rex"}}"#, #"{"breed": "lab", "name": "Rex"}"#,
        ].map { CompatCase.same(Dog.self, $0) },
        [
            #"{"lives": 9, "animal": {"name": "Tom"}}"#, #"{"lives": 9}"#, #"{"lives": 9, "animal": {"name": null}}"#,
            #"{"lives": 9, "super": {"name": "Tom"}}"#,
        ].map { CompatCase.same(Cat.self, $0) },
        [#"{"wings": 2, "name": "Tweety"}"#, #"{"wings": 2}"#, #"{"name": "Tweety", "wings": "2"}"#].map { CompatCase.same(Bird.self, $0) },
        [#"[{"name": "Nemo"}, 5]"#, #"[{"name": "Nemo"}]"#, #"[]"#, #"[null, 5]"#, #"[{"name": 1}, 5]"#].map { CompatCase.same(Fish.self, $0) },
        [#"{"id": 1, "super": {"value": 2}}"#, #"{"id": 1}"#, #"{"id": 1, "super": {"value": "x"}}"#].map { CompatCase.same(WithSuperKey.self, $0) },
        [.same([Dog].self, #"[{"breed": "a", "super": {"name": "A"}}, {"breed": "b", "super": {"nam": "B"}}]"#)],
    ].flatMap { $0 }

    // MARK: Property wrappers

    protocol DefaultValue {
        associatedtype Value: Decodable & Equatable
        static var defaultValue: Value { get }
    }

    enum Zero: DefaultValue { static var defaultValue: Int { 0 } }
    enum NoTags: DefaultValue { static var defaultValue: [String] { [] } }

    /// A value that falls back to a default when missing or `null`.
    @propertyWrapper
    struct Default<Fallback: DefaultValue>: Decodable, Equatable {
        var wrappedValue: Fallback.Value

        init(wrappedValue: Fallback.Value) { self.wrappedValue = wrappedValue }

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            wrappedValue = container.decodeNil() ? Fallback.defaultValue : try container.decode(Fallback.Value.self)
        }
    }

    /// A string trimmed of white space.
    @propertyWrapper
    struct Trimmed: Decodable, Equatable {
        var wrappedValue: String

        init(from decoder: any Decoder) throws {
            wrappedValue = try decoder.singleValueContainer().decode(String.self).trimmingCharacters(in: .whitespaces)
        }
    }

    struct Settings: Decodable, Equatable {
        @Default<Zero> var count: Int
        @Default<NoTags> var tags: [String]
        @Trimmed var name: String
    }

    static let wrappers: [CompatCase] = [
        #"{"name": " a "}"#, #"{"name": "a", "count": null, "tags": null}"#, #"{"name": "a", "count": 3, "tags": ["x"]}"#,
        #"{"name": "a", "count": "x"}"#, #"{"name": "a", "tags": [1]}"#, #"{"count": 1}"#, #"{"name": null}"#,
    ].map { .same(Settings.self, $0) } + [.same([Settings].self, #"[{"name": "a"}, {"name": "b", "count": 2.5}]"#)]

    // MARK: userInfo

    static let userInfoKey = CodingUserInfoKey(rawValue: "spool.compat.tenant")!

    /// What `userInfo` holds wherever a model looks.
    struct Tenant: Decodable, Equatable {
        let seen: [String]

        init(from decoder: any Decoder) throws {
            var seen = ["\(decoder.userInfo[userInfoKey] ?? "none") at \(decoder.codingPath.map(\.stringValue))"]
            if let container = try? decoder.container(keyedBy: AnyKey.self) {
                let sup = try container.superDecoder()
                seen.append("super: \(sup.userInfo[userInfoKey] ?? "none") at \(sup.codingPath.map(\.stringValue))")
                if container.contains(AnyKey("child")) {
                    seen += try container.decode(Tenant.self, forKey: AnyKey("child")).seen
                }
            }
            self.seen = seen
        }
    }

    static let userInfo: [CompatCase] = {
        var settings = CompatSettings()
        settings.userInfo[userInfoKey] = "acme"
        return [
            .same(Tenant.self, "1", settings), .same(Tenant.self, #"{"child": {"child": 1}}"#, settings),
            .same([Tenant].self, #"[{}, 2]"#, settings), .same([String: Tenant].self, #"{"a": {"child": {}}}"#, settings),
            .same(Tenant.self, #"{"child": {}}"#),
        ]
    }()

    @Test(arguments: enums) func enumWithAssociatedValues(_ row: CompatCase) { row.check() }
    @Test(arguments: rawValues) func rawValueEnum(_ row: CompatCase) { row.check() }
    @Test(arguments: classes) func classHierarchy(_ row: CompatCase) { row.check() }
    @Test(arguments: wrappers) func propertyWrapper(_ row: CompatCase) { row.check() }
    @Test(arguments: userInfo) func userInfoReachesEveryDecoder(_ row: CompatCase) { row.check() }

    // MARK: Wide objects

    /// 200 members, looked up in the order the script gives.
    static func wide(_ order: [Int], prefix: String = "k", missing: Int? = nil) -> (json: String, script: Probe.Script) {
        let json = "{" + (0..<200).filter { $0 != missing }.map { #""\#(prefix)\#($0)": \#($0 * 3)"# }.joined(separator: ", ") + "}"
        let script: Probe.Script = { decoder, log in
            let container = try decoder.container(keyedBy: AnyKey.self)
            log.note("allKeys.count", container.allKeys.count)
            var values: [Int] = []
            for i in order {
                guard let value = log.attempt("k\(i)", show: false, { try container.decode(Int.self, forKey: AnyKey("k\(i)")) }) else { continue }
                values.append(value)
            }
            log.note("values", values)
            log.note("contains k199", container.contains(AnyKey("k199")))
            log.note("contains k200", container.contains(AnyKey("k200")))
        }
        return (json, script)
    }

    static let wideObjects: [CompatCase] = {
        var generator = SplitMix(seed: 0x5EED)
        let inOrder = Array(0..<200)
        let shuffled = inOrder.shuffled(using: &generator)
        let twice = inOrder + shuffled
        var rows: [CompatCase] = []
        for (name, order) in [("document order", inOrder), ("reverse order", Array(inOrder.reversed())), ("random order", shuffled), ("twice", twice)] {
            let plain = wide(order)
            rows.append(.probe("200 keys, \(name)", plain.json, script: plain.script))
            let snake = wide(order, prefix: "k_")
            rows.append(.probe("200 snake_case keys, \(name)", snake.json, .snakeCase, script: snake.script))
        }
        let gap = wide(shuffled, missing: 150)
        rows.append(.probe("200 keys, one missing", gap.json, script: gap.script))
        rows.append(.same([String: Int].self, wide(inOrder).json))
        rows.append(.same([String: Int].self, wide(inOrder, prefix: "k_").json, .snakeCase))
        return rows
    }()

    @Test(arguments: wideObjects) func wideObject(_ row: CompatCase) { row.check() }

    // MARK: Deep nesting

    final class Node: Decodable, Equatable {
        let value: Int
        let next: Node?

        static func == (lhs: Node, rhs: Node) -> Bool {
            var (a, b): (Node?, Node?) = (lhs, rhs)
            while let x = a, let y = b {
                guard x.value == y.value else { return false }
                (a, b) = (x.next, y.next)
            }
            return a == nil && b == nil
        }
    }

    /// Nested arrays, read by trying an `Int` first and catching the error.
    indirect enum Tree: Decodable, Equatable {
        case leaf(Int)
        case list([Tree])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let leaf = try? container.decode(Int.self) {
                self = .leaf(leaf)
            } else {
                self = .list(try container.decode([Tree].self))
            }
        }
    }

    static func chain(_ depth: Int, last: String = "null", value: (Int) -> String = { "\($0)" }) -> String {
        (0..<depth).map { #"{"value": \#(value($0)), "next": "# }.joined() + last + String(repeating: "}", count: depth)
    }

    static func nestedArrays(_ depth: Int, inner: String = "1") -> String {
        String(repeating: "[", count: depth) + inner + String(repeating: "]", count: depth)
    }

    static let deep: [CompatCase] = [
        .same(Node.self, chain(200)), .same(Node.self, chain(200, value: { $0 == 199 ? #""x""# : "\($0)" })),
        .same(Node.self, chain(200, last: "{}")), .same(Node.self, chain(200, last: "[]")),
        .same(Tree.self, nestedArrays(200)), .same(Tree.self, nestedArrays(200, inner: #""x""#)),
        .same(Tree.self, nestedArrays(200, inner: "1, [2, [3]], []")), .same(Tree.self, nestedArrays(600)),
        .same(Node.self, chain(600)),
    ]

    @Test(arguments: deep) func deepNesting(_ row: CompatCase) { row.check() }
}

/// A seeded generator, so that the random order is the same on every run.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
