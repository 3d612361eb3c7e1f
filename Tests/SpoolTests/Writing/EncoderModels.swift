import Foundation

// Models for comparing StreamingJSONEncoder with JSONEncoder byte for byte.

struct AllScalars: Codable, Equatable {
    var bool = true
    var string = "plain"
    var int = -42
    var int8 = Int8.min
    var int16 = Int16.max
    var int32 = Int32.min
    var int64 = Int64.min
    var int64Max = Int64.max
    var uint: UInt = 7
    var uint8 = UInt8.max
    var uint16 = UInt16.max
    var uint32 = UInt32.max
    var uint64 = UInt64.max
    var float: Float = 0.1
    var double = 0.1
    var decimal = Decimal(string: "3.14159") ?? 0
    var url = URL(string: "https://www.example.com/band?id=1&x=a b") ?? URL(fileURLWithPath: "/")
    var some: String? = "here"
    var none: String? = nil
}

struct Doubles: Codable {
    var values: [Double] = [
        0.1, 1e21, .leastNonzeroMagnitude, -0.0, 0.0, 1e20, 100, 1e16, 1.2345678901234568e20, 1e-7, 2.5e-5,
        .greatestFiniteMagnitude, .leastNormalMagnitude, -.leastNonzeroMagnitude, 1.0 / 3, -1.5e-10, 0.30000000000000004,
        9_007_199_254_740_992, 4.35, 1e300, 1e-300,
    ]
    var floats: [Float] = [0.1, 1e10, .greatestFiniteMagnitude, .leastNonzeroMagnitude, 16777216, -0.0, 3.4e-38, 1.0 / 3]
    var integers: [Int] = [0, -1, Int.min, Int.max]
    var wide: [Int128] = [Int128.min, Int128.max]
    var unsignedWide: [UInt128] = [UInt128.max]
    var decimals: [Decimal] = ["-0.000001", "1e30", "0", "12345678901234567890.123"].compactMap { Decimal(string: $0) }
}

struct Escapes: Codable {
    var every = "a\"b\\c/d\u{8}e\u{C}f\ng\rh\ti\u{0}j\u{1F}k\u{7F}lé😀\u{2028}\u{2029}m"
    var controls = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }
    var slashes = "https://example.com/a/b/"
    var empty = ""
    var long = String(repeating: "plain text with \"quotes\" and / slashes ", count: 40)
}

struct Inner: Codable {
    var name = "inner"
    var numbers = [1, 2, 3]
    var emptyArray: [Int] = []
    var emptyObject: [String: Int] = [:]
}

struct Containers: Codable {
    var inner = Inner()
    var innerList = [Inner(), Inner(name: "second", numbers: [], emptyArray: [], emptyObject: ["k": 1])]
    var matrix: [[Int]] = [[], [1], [1, 2], [[]].map { _ in 3 }]
    var deep: [[[String: [Int]]]] = [[["a": [1, 2], "b": []]], [], [[:]]]
    var dictionary = ["zeta": 1, "alpha": 2, "Mid": 3, "é": 4, "a/b": 5, "a\"b": 6, "a\u{1}b": 7, "": 8]
    var intKeyed = [3: "three", 1: "one", 20: "twenty"]
    var optionalInner: Inner? = Inner()
    var missingInner: Inner? = nil
    var nulls: [Int?] = [1, nil, 3]
    var emptyStruct = Empty()
}

struct Empty: Codable {}

enum Shape: Codable {
    case circle(radius: Double)
    case rectangle(width: Double, height: Double)
    case point
    case labeled(String, Int)
    case nested(inner: Inner?)
}

class Animal: Codable {
    var name: String
    var legs: Int

    init(name: String, legs: Int) {
        self.name = name
        self.legs = legs
    }
}

/// Encodes its superclass through `superEncoder()` (a "super" member).
final class Dog: Animal {
    var breed = "collie"
    var tricks = ["sit", "roll over"]

    private enum CodingKeys: String, CodingKey { case breed, tricks }

    init() { super.init(name: "Rex", legs: 4) }

    required init(from decoder: any Decoder) throws { try super.init(from: decoder) }

    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(breed, forKey: .breed)
        try super.encode(to: container.superEncoder())
        try container.encode(tricks, forKey: .tricks)
    }
}

/// Shares its encoder with its superclass: one object with both classes' keys.
final class Cat: Animal {
    var lives = 9

    private enum CodingKeys: String, CodingKey { case lives }

    init() { super.init(name: "Tom", legs: 4) }

    required init(from decoder: any Decoder) throws { try super.init(from: decoder) }

    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(lives, forKey: .lives)
        try super.encode(to: encoder)
    }
}

/// Asks for a super encoder before encoding its own keys, and uses it last.
final class Bird: Animal {
    var wings = 2

    private enum CodingKeys: String, CodingKey { case wings, parent }

    init() { super.init(name: "Tweety", legs: 2) }

    required init(from decoder: any Decoder) throws { try super.init(from: decoder) }

    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let parent = container.superEncoder(forKey: .parent)
        try container.encode(wings, forKey: .wings)
        try super.encode(to: parent)
    }
}

/// A super encoder that is never used: `"super" : {}`.
struct UnusedSuper: Encodable {
    private enum CodingKeys: String, CodingKey { case value }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        _ = container.superEncoder()
        try container.encode(1, forKey: .value)
    }
}

/// Superclass values inside an unkeyed container.
struct UnkeyedSupers: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode("first")
        try Animal(name: "Ant", legs: 6).encode(to: container.superEncoder())
        try container.encode("last")
        try Animal(name: "Bee", legs: 6).encode(to: container.superEncoder())
    }
}

/// Nested containers opened by hand, in order.
struct HandWritten: Encodable {
    private enum Keys: String, CodingKey { case header, rows, meta, flag }
    private enum MetaKeys: String, CodingKey { case count, tags }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(true, forKey: .flag)
        var meta = container.nestedContainer(keyedBy: MetaKeys.self, forKey: .meta)
        try meta.encode(2, forKey: .count)
        var tags = meta.nestedUnkeyedContainer(forKey: .tags)
        try tags.encode("x")
        try tags.encodeNil()
        var rows = container.nestedUnkeyedContainer(forKey: .rows)
        var first = rows.nestedUnkeyedContainer()
        try first.encode(1)
        try first.encode(2.5)
        var second = rows.nestedContainer(keyedBy: MetaKeys.self)
        try second.encode(0, forKey: .count)
        try container.encode("top", forKey: .header)
        // The same keyed container again, from the same encoder.
        var again = encoder.container(keyedBy: MetaKeys.self)
        try again.encode(3, forKey: .count)
    }
}

/// Single values, including a wrapper around another Encodable.
struct Wrapper: Encodable {
    var wrapped: Inner
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrapped)
    }
}

struct EncodesNothing: Encodable {
    func encode(to encoder: any Encoder) throws {}
}

struct Dates: Codable {
    var epoch = Date(timeIntervalSince1970: 0)
    var fraction = Date(timeIntervalSince1970: 1.5)
    var negative = Date(timeIntervalSince1970: -100_000_000.25)
    var modern = Date(timeIntervalSince1970: 1_463_524_984)
    var list = [Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSinceReferenceDate: 123_456.789)]
    var optional: Date? = Date(timeIntervalSince1970: 86_400)
}

struct Blobs: Codable {
    var empty = Data()
    var bytes = Data([0, 1, 2, 253, 254, 255])
    var text = Data("hello, world?>>".utf8)
    var list = [Data([1]), Data([1, 2]), Data([1, 2, 3])]
}

struct SnakeKeys: Codable {
    var myURLKey = 1
    var HTTPServer = 2
    var oneTwoThree = 3
    var already_snake = 4
    var _leadingUnderscore = 5
    var trailing_ = 6
    var ABC = 7
    var aBCDe = 8
    var a1B = 9
    var x = 10
    var nestedValue = Inner()
    var stringKeyed = ["camelCaseKey": 1, "another_one": 2]
}

struct NonConforming: Codable {
    var values: [Double] = [1, .infinity, -.infinity, .nan]
    var single: Float = .nan
    var keyed: Double = -.infinity
}

/// One of everything, for the catch-all comparison.
struct Everything: Codable {
    var scalars = AllScalars()
    var doubles = Doubles()
    var escapes = Escapes()
    var containers = Containers()
    var shapes: [Shape] = [
        .circle(radius: 1.5), .rectangle(width: 2, height: 0.5), .point, .labeled("tag", 7), .nested(inner: nil),
        .nested(inner: Inner()),
    ]
    var animals = [Animal(name: "Generic", legs: 0)]
    var dates = Dates()
    var blobs = Blobs()
}
