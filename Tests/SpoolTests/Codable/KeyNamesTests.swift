import Foundation
import Testing
@testable import Spool

/// The text of a key of plain data is asked for once per session and kept (``KeyNames``): keys
/// of every plain size, keys that are not plain, and more keys than the table keeps all find
/// their members.
@Suite("Key names kept per session")
struct KeyNamesTests {
    /// A key of plain data whose text is made from its value.
    struct Numbered<Raw: FixedWidthInteger & Sendable>: CodingKey {
        let raw: Raw
        init(_ raw: Raw) { self.raw = raw }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { nil }
        var stringValue: String { "k\(raw)" }
        var intValue: Int? { nil }
    }

    /// Three bytes of plain data.
    struct Triple: CodingKey {
        let a: UInt8, b: UInt8, c: UInt8
        init?(stringValue: String) { nil }
        init?(intValue: Int) { nil }
        init(_ a: UInt8, _ b: UInt8, _ c: UInt8) { (self.a, self.b, self.c) = (a, b, c) }
        var stringValue: String { "t\(a)\(b)\(c)" }
        var intValue: Int? { nil }
    }

    /// A key with no stored bytes.
    struct Only: CodingKey {
        init() {}
        init?(stringValue: String) { nil }
        init?(intValue: Int) { nil }
        var stringValue: String { "only" }
        var intValue: Int? { nil }
    }

    /// A key that holds a string: not plain data.
    struct Named: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
        var intValue: Int? { nil }
    }

    struct EveryKind: Decodable {
        var values: [Int] = []

        init(from decoder: any Decoder) throws {
            values.append(try decoder.container(keyedBy: Numbered<UInt8>.self).decode(Int.self, forKey: Numbered(7)))
            values.append(try decoder.container(keyedBy: Numbered<UInt16>.self).decode(Int.self, forKey: Numbered(300)))
            values.append(try decoder.container(keyedBy: Numbered<UInt32>.self).decode(Int.self, forKey: Numbered(70_000)))
            values.append(try decoder.container(keyedBy: Numbered<UInt64>.self).decode(Int.self, forKey: Numbered(5_000_000_000)))
            values.append(try decoder.container(keyedBy: Triple.self).decode(Int.self, forKey: Triple(1, 2, 3)))
            values.append(try decoder.container(keyedBy: Only.self).decode(Int.self, forKey: Only()))
            values.append(try decoder.container(keyedBy: Named.self).decode(Int.self, forKey: Named(stringValue: "named")))
            // The same bytes in another key type are another key.
            values.append(try decoder.container(keyedBy: Numbered<Int8>.self).decode(Int.self, forKey: Numbered(7)))
        }
    }

    @Test func keysOfEveryPlainSizeAndOthersFindTheirMembers() throws {
        let data = Data(#"{"k7":1,"k300":2,"k70000":3,"k5000000000":4,"t123":5,"only":6,"named":7}"#.utf8)
        #expect(try StreamingJSONDecoder().decode(EveryKind.self, from: data).values == [1, 2, 3, 4, 5, 6, 7, 1])
        #expect(try JSONDecoder().decode(EveryKind.self, from: data).values == [1, 2, 3, 4, 5, 6, 7, 1])
    }

    /// More distinct keys than the table keeps: the rest are asked for their text each time.
    struct Wide: Decodable {
        var sum = 0
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Numbered<UInt16>.self)
            for round in 0..<2 {
                for key in 0..<UInt16(KeyNames.maxNames + 500) {
                    sum += try container.decode(Int.self, forKey: Numbered(key)) * (round + 1)
                }
            }
        }
    }

    @Test func moreKeysThanTheTableKeepsAreStillFound() throws {
        let count = KeyNames.maxNames + 500
        let json = "{" + (0..<count).map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + "}"
        let sum = try StreamingJSONDecoder().decode(Wide.self, from: Data(json.utf8)).sum
        #expect(sum == 3 * (count * (count - 1) / 2))
    }

    @Test func theTableTellsKeysApartByTypeAndBytes() {
        var names = KeyNames()
        defer { names.deallocate() }
        #expect(names.wanted(type: 16, bits: 1) == nil)
        for type in [UInt(16), 32] {
            for bits in UInt64(0)..<200 {
                let made = names.insert(type: type, bits: bits, name: "\(type)-\(bits)")
                #expect(made.map { String(decoding: $0.utf8, as: UTF8.self) } == "\(type)-\(bits)")
            }
        }
        for type in [UInt(16), 32] {
            for bits in UInt64(0)..<200 {
                let found = names.wanted(type: type, bits: bits)
                #expect(found.map { String(decoding: $0.utf8, as: UTF8.self) } == "\(type)-\(bits)")
                #expect(found?.isASCII == true)
                #expect(found.map { $0.filterBits == WantedKey($0.utf8).filterBits } == true)
            }
        }
        #expect(names.wanted(type: 48, bits: 0) == nil)
    }

    // MARK: - Keys that name themselves from elsewhere

    /// A struct key of plain data named from a table the model fills from each object: its
    /// text is not a function of its bytes, so it is asked every time.
    struct IndexKey: CodingKey {
        let index: Int
        nonisolated(unsafe) let names: UnsafeMutablePointer<[String]>
        init(_ index: Int, in names: UnsafeMutablePointer<[String]>) { (self.index, self.names) = (index, names) }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { nil }
        var stringValue: String { names.pointee[index] }
        var intValue: Int? { nil }
    }

    struct Row: Decodable {
        var first: String
        init(from decoder: any Decoder) throws {
            let names = UnsafeMutablePointer<[String]>.allocate(capacity: 1)
            defer { names.deinitialize(count: 1).deallocate() }
            names.initialize(to: try decoder.container(keyedBy: Named.self).allKeys.map(\.stringValue).sorted())
            first = try decoder.container(keyedBy: IndexKey.self).decode(String.self, forKey: IndexKey(0, in: names))
        }
    }

    /// A zero-size struct key named after a field read just before it.
    final class Current: @unchecked Sendable { var type = "" }
    struct ValueKey: CodingKey {
        let current: Unmanaged<Current>
        init(_ current: Current) { self.current = .passUnretained(current) }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { nil }
        var stringValue: String { current.takeUnretainedValue().type + "_value" }
        var intValue: Int? { nil }
    }

    struct Poly: Decodable {
        var value: String
        init(from decoder: any Decoder) throws {
            let current = Current()
            current.type = try decoder.container(keyedBy: Named.self).decode(String.self, forKey: Named(stringValue: "type"))
            value = try withExtendedLifetime(current) {
                try decoder.container(keyedBy: ValueKey.self).decode(String.self, forKey: ValueKey(current))
            }
        }
    }

    @Test func structKeysThatNameThemselvesFromElsewhereAreAskedEachTime() throws {
        let rows = Data(#"[{"alpha":"A"},{"beta":"B"}]"#.utf8)
        #expect(try StreamingJSONDecoder().decode([Row].self, from: rows).map(\.first) == ["A", "B"])
        #expect(try JSONDecoder().decode([Row].self, from: rows).map(\.first) == ["A", "B"])
        let poly = Data(#"[{"type":"a","a_value":"A","b_value":"wrong"},{"type":"b","a_value":"wrong","b_value":"B"}]"#.utf8)
        #expect(try StreamingJSONDecoder().decode([Poly].self, from: poly).map(\.value) == ["A", "B"])
        #expect(try JSONDecoder().decode([Poly].self, from: poly).map(\.value) == ["A", "B"])
    }

    enum Plain: CodingKey { case a, b }
    enum Raw: String, CodingKey { case a = "x" }
    enum Payload: CodingKey {
        case index(Int)
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self = .index(intValue) }
        var stringValue: String { if case .index(let index) = self { "i\(index)" } else { "" } }
        var intValue: Int? { if case .index(let index) = self { index } else { nil } }
    }

    @Test func onlyEnumsAreKept() {
        #expect(KeyNames.isEnum(Plain.self))
        #expect(KeyNames.isEnum(Raw.self))
        #expect(KeyNames.isEnum(Payload.self))
        #expect(!KeyNames.isEnum(Only.self))
        #expect(!KeyNames.isEnum(Triple.self))
        #expect(!KeyNames.isEnum(Numbered<UInt8>.self))
        #expect(!KeyNames.isEnum(Named.self))
        #expect(!KeyNames.isEnum(Optional<Plain>.self))
        #expect(!KeyNames.isEnum(Int.self))
    }
}
