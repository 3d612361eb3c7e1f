import Foundation
import Spool
import Testing

/// Every standard scalar type, at the root, under a key and in an array, through the generic
/// and the typed container methods.
@Suite("Compatibility: scalars")
struct CompatibilityScalarTests {
    static func integers<T: FixedWidthInteger & Decodable & SendableMetatype>(_ type: T.Type) -> [CompatCase] {
        ["\(T.min)", "\(T.max)", "0", "-0", "42", #""7""#, "true", "null", "{}", "[]"].flatMap { CompatCase.everywhere(T.self, $0) }
    }

    static let bools = ["true", "false", "1", "0", #""true""#, "null", "[]"].flatMap { CompatCase.everywhere(Bool.self, $0) }

    static let strings = [
        #""a""#, #""""#, #""\u00e9\ud83d\ude00 \n\t\"\\\/ \b\f\r""#, #""\u0000x""#, #""é😀""#, "1", "true", "null", "{}",
    ].flatMap { CompatCase.everywhere(String.self, $0) }

    static let signed: [CompatCase] = integers(Int.self) + integers(Int8.self) + integers(Int16.self) + integers(Int32.self)
    static let signedWide: [CompatCase] = integers(Int64.self) + integers(Int128.self)
    static let unsigned: [CompatCase] = integers(UInt.self) + integers(UInt8.self) + integers(UInt16.self) + integers(UInt32.self)
    static let unsignedWide: [CompatCase] = integers(UInt64.self) + integers(UInt128.self)

    static let doubles: [String] = [
        "0", "-0", "-0.0", "1.5", "-1.5e-3", "1E2", "1e+2", "1e-2", "0.1", "123456789012345678901234567890",
        "9007199254740993", "1.7976931348623157e308", "5e-324", "2.2250738585072014e-308", "0.30000000000000004",
        #""1""#, "true", "null", "[]",
    ]

    static let floats: [String] = [
        "0", "-0.0", "1.5", "0.1", "3.4028235e38", "1.17549435e-38", "16777217", "1e-45", "123456789012345678901234567890",
        #""1""#, "false", "null",
    ]

    static let decimals: [String] = [
        "0", "-0", "1.5", "-0.001", "12345678901234567890.123456789", "1e10", "1E-5", "100", "0.1",
        "3.14159265358979323846264338327950288", #""1""#, "null", "true",
    ]

    static let urls: [String] = [
        #""https://example.com/a?b=c#d""#, #""relative/path""#, #""file:///tmp/x%20y""#, #""""#, #""a b""#,
        #""http://[::1]:80/""#, "1", "null",
    ]

    static let dates: [String] = ["0", "1.5", "-1e9", "978307200", #""x""#, "null"]

    static let datas: [String] = [#""aGVsbG8=""#, #""""#, #""aGk""#, #""!!""#, #""aGVs bG8=""#, #""aGk=\n""#, "1", "[104, 105]", "null"]

    static var values: [CompatCase] {
        var rows = bools + strings + signed + signedWide + unsigned + unsignedWide
        rows += doubles.flatMap { CompatCase.everywhere(Double.self, $0) }
        rows += floats.flatMap { CompatCase.everywhere(Float.self, $0) }
        rows += decimals.flatMap { CompatCase.everywhere(Decimal.self, $0) }
        rows += urls.flatMap { CompatCase.everywhere(URL.self, $0) }
        rows += dates.flatMap { CompatCase.everywhere(Date.self, $0) }
        rows += datas.flatMap { CompatCase.everywhere(Data.self, $0) }
        return rows
    }

    @Test(arguments: values) func value(_ row: CompatCase) { row.check() }

    /// Keyed and unkeyed containers have one method per scalar type; models with concrete
    /// fields call them (a generic `Box<T>` calls only the generic one).
    struct Typed: Decodable, Equatable {
        var bool: Bool
        var string: String
        var double: Double
        var float: Float
        var int: Int
        var int8: Int8
        var int16: Int16
        var int32: Int32
        var int64: Int64
        var int128: Int128
        var uint: UInt
        var uint8: UInt8
        var uint16: UInt16
        var uint32: UInt32
        var uint64: UInt64
        var uint128: UInt128
    }

    struct TypedOptionals: Decodable, Equatable {
        var bool: Bool?
        var string: String?
        var double: Double?
        var float: Float?
        var int: Int?
        var int8: Int8?
        var int16: Int16?
        var int32: Int32?
        var int64: Int64?
        var int128: Int128?
        var uint: UInt?
        var uint8: UInt8?
        var uint16: UInt16?
        var uint32: UInt32?
        var uint64: UInt64?
        var uint128: UInt128?
    }

    /// The same fields from an array, through the unkeyed container's typed methods.
    struct TypedElements: Decodable, Equatable {
        var values: [String] = []

        init(from decoder: any Decoder) throws {
            var c = try decoder.unkeyedContainer()
            values.append("\(try c.decode(Bool.self))")
            values.append("\(try c.decode(String.self))")
            values.append("\(try c.decode(Double.self))")
            values.append("\(try c.decode(Float.self))")
            values.append("\(try c.decode(Int.self))")
            values.append("\(try c.decode(Int8.self))")
            values.append("\(try c.decode(Int16.self))")
            values.append("\(try c.decode(Int32.self))")
            values.append("\(try c.decode(Int64.self))")
            values.append("\(try c.decode(Int128.self))")
            values.append("\(try c.decode(UInt.self))")
            values.append("\(try c.decode(UInt8.self))")
            values.append("\(try c.decode(UInt16.self))")
            values.append("\(try c.decode(UInt32.self))")
            values.append("\(try c.decode(UInt64.self))")
            values.append("\(try c.decode(UInt128.self))")
        }
    }

    /// The unkeyed container's `decodeIfPresent` for each type.
    struct TypedOptionalElements: Decodable, Equatable {
        var values: [String] = []

        init(from decoder: any Decoder) throws {
            var c = try decoder.unkeyedContainer()
            values.append("\(String(describing: try c.decodeIfPresent(Bool.self)))")
            values.append("\(String(describing: try c.decodeIfPresent(String.self)))")
            values.append("\(String(describing: try c.decodeIfPresent(Double.self)))")
            values.append("\(String(describing: try c.decodeIfPresent(Float.self)))")
            values.append("\(String(describing: try c.decodeIfPresent(Int.self)))")
            values.append("\(String(describing: try c.decodeIfPresent(Int8.self)))")
            values.append("\(String(describing: try c.decodeIfPresent(Int16.self)))")
            values.append("\(String(describing: try c.decodeIfPresent(Int32.self)))")
            values.append("\(String(describing: try c.decodeIfPresent(Int64.self)))")
            values.append("\(String(describing: try c.decodeIfPresent(Int128.self)))")
            values.append("\(String(describing: try c.decodeIfPresent(UInt.self)))")
            values.append("\(String(describing: try c.decodeIfPresent(UInt8.self)))")
            values.append("\(String(describing: try c.decodeIfPresent(UInt16.self)))")
            values.append("\(String(describing: try c.decodeIfPresent(UInt32.self)))")
            values.append("\(String(describing: try c.decodeIfPresent(UInt64.self)))")
            values.append("\(String(describing: try c.decodeIfPresent(UInt128.self)))")
            values.append("currentIndex \(c.currentIndex) isAtEnd \(c.isAtEnd)")
        }
    }

    static let fields: [(name: String, json: String)] = [
        ("bool", "true"), ("string", #""s""#), ("double", "2.5"), ("float", "0.5"), ("int", "-1"), ("int8", "-8"),
        ("int16", "-16"), ("int32", "-32"), ("int64", "-64"), ("int128", "-170141183460469231731687303715884105728"),
        ("uint", "1"), ("uint8", "255"), ("uint16", "16"), ("uint32", "32"), ("uint64", "18446744073709551615"),
        ("uint128", "340282366920938463463374607431768211455"),
    ]

    static func object(replacing field: String? = nil, with json: String? = nil) -> String {
        let members = fields.compactMap { name, value -> String? in
            guard name == field else { return #""\#(name)": \#(value)"# }
            return json.map { #""\#(name)": \#($0)"# }
        }
        return "{" + members.joined(separator: ", ") + "}"
    }

    /// The fields' values in order, one replaced by `json`; without `json`, cut short before it.
    static func array(replacing field: String? = nil, with json: String? = nil) -> String {
        var values: [String] = []
        for (name, value) in fields {
            guard name == field else { values.append(value); continue }
            guard let json else { break }
            values.append(json)
        }
        return "[" + values.joined(separator: ", ") + "]"
    }

    static let typed: [CompatCase] = {
        var rows: [CompatCase] = [
            .same(Typed.self, object()), .same(TypedOptionals.self, object()), .same(TypedOptionals.self, "{}"),
            .same(TypedElements.self, array()), .same(TypedOptionalElements.self, array()),
            .same(TypedOptionalElements.self, "[" + Array(repeating: "null", count: fields.count).joined(separator: ", ") + "]"),
            .same(TypedElements.self, "[]"), .same(TypedElements.self, "{}"), .same(Typed.self, "[]"),
        ]
        for (name, _) in fields {
            let wrong = name == "string" ? "1" : #""x""#
            rows += [
                .same(Typed.self, object(replacing: name, with: wrong), label: name),
                .same(Typed.self, object(replacing: name, with: "null"), label: name),
                .same(Typed.self, object(replacing: name, with: nil), label: name),
                .same(TypedOptionals.self, object(replacing: name, with: wrong), label: name),
                .same(TypedOptionals.self, object(replacing: name, with: "null"), label: name),
                .same(TypedElements.self, array(replacing: name, with: wrong), label: name),
                .same(TypedElements.self, array(replacing: name, with: "null"), label: name),
                .same(TypedElements.self, array(replacing: name, with: nil), label: name),
                .same(TypedOptionalElements.self, array(replacing: name, with: wrong), label: name),
                .same(TypedOptionalElements.self, array(replacing: name, with: nil), label: name),
            ]
        }
        return rows
    }()

    @Test(arguments: typed) func typedContainerMethods(_ row: CompatCase) { row.check() }
}
