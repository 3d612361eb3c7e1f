#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FuzzSupport
import Spool

/// Any JSON value as a Swift `Decodable`, so that every shape decodes: an object through a
/// keyed container, an array through an unkeyed one, a scalar through a single-value one. A
/// number is the first of `Int`, `UInt64`, `Double` and `Decimal` it converts to exactly;
/// one that converts to none (`1e400`) fails to decode, a `typeMismatch` at its path.
///
/// How containers are read is the decoder's ``Style`` (in its `userInfo`), so that one model
/// exercises most of the container API.
indirect enum AnyJSON: Decodable, Equatable, Sendable, CustomStringConvertible {
    case null
    case bool(Bool)
    case int(Int)
    case uint(UInt64)
    case double(Double)
    case decimal(Decimal)
    case string(String)
    case array([AnyJSON])
    /// Of keys that are equal as Swift strings (`allKeys` lists one), the first counts.
    case object([String: AnyJSON])

    /// How ``AnyJSON`` reads its containers.
    enum Style: Int, CaseIterable, Sendable {
        /// `decode(AnyJSON.self)` per element and per key of `allKeys`.
        case plain
        /// `decodeNil` first, then `decode`; keys checked with `contains`, values read with
        /// `decodeIfPresent`.
        case nilFirst
        /// Children read through `nestedUnkeyedContainer` / `nestedContainer` where they are
        /// containers, and scalars through the container's own `decode(_:)` for each type.
        case nested
        /// Each child decoded through `superDecoder()` / `superDecoder(forKey:)`.
        case superDecoders
    }

    static let styleKey = CodingUserInfoKey(rawValue: "AnyJSON.style")!

    init(from decoder: any Decoder) throws {
        let style = (decoder.userInfo[Self.styleKey] as? Style) ?? .plain
        if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
            self = .object(try Self.members(of: keyed, style))
        } else if var unkeyed = try? decoder.unkeyedContainer() {
            self = .array(try Self.elements(of: &unkeyed, style))
        } else {
            self = try Self.scalar(decoder.singleValueContainer())
        }
    }

    static func members(of container: KeyedDecodingContainer<AnyKey>, _ style: Style) throws -> [String: AnyJSON] {
        var members: [String: AnyJSON] = [:]
        for key in container.allKeys where members[key.stringValue] == nil {
            let value: AnyJSON
            switch style {
            case .plain:
                value = try container.decode(AnyJSON.self, forKey: key)
            case .nilFirst:
                guard container.contains(key) else { throw FuzzModelError("allKeys lists \(key.stringValue), contains says no") }
                if try container.decodeNil(forKey: key) {
                    value = .null
                } else if let decoded = try container.decodeIfPresent(AnyJSON.self, forKey: key) {
                    value = decoded
                } else {
                    throw FuzzModelError("decodeIfPresent gives nil for \(key.stringValue), decodeNil said it is not null")
                }
            case .nested:
                if var nested = try? container.nestedUnkeyedContainer(forKey: key) {
                    value = .array(try elements(of: &nested, style))
                } else if let nested = try? container.nestedContainer(keyedBy: AnyKey.self, forKey: key) {
                    value = .object(try Self.members(of: nested, style))
                } else {
                    value = try keyedScalar(container, key)
                }
            case .superDecoders:
                value = try AnyJSON(from: container.superDecoder(forKey: key))
            }
            members[key.stringValue] = value
        }
        return members
    }

    static func elements(of container: inout any UnkeyedDecodingContainer, _ style: Style) throws -> [AnyJSON] {
        var elements: [AnyJSON] = []
        let count = container.count
        while !container.isAtEnd {
            if container.currentIndex != elements.count {
                throw FuzzModelError("currentIndex is \(container.currentIndex) after \(elements.count) elements")
            }
            switch style {
            case .plain:
                elements.append(try container.decode(AnyJSON.self))
            case .nilFirst:
                if try container.decodeNil() {
                    elements.append(.null)
                } else {
                    elements.append(try container.decode(AnyJSON.self))
                }
            case .nested:
                // A failed attempt leaves the index where it was; only the last one moves on.
                if var nested = try? container.nestedUnkeyedContainer() {
                    elements.append(.array(try Self.elements(of: &nested, style)))
                } else if let nested = try? container.nestedContainer(keyedBy: AnyKey.self) {
                    elements.append(.object(try members(of: nested, style)))
                } else {
                    elements.append(try unkeyedScalar(&container))
                }
            case .superDecoders:
                elements.append(try AnyJSON(from: container.superDecoder()))
            }
        }
        if let count, count != elements.count {
            throw FuzzModelError("an unkeyed container's count is \(count), it held \(elements.count) elements")
        }
        return elements
    }

    static func scalar(_ container: any SingleValueDecodingContainer) throws -> AnyJSON {
        if container.decodeNil() { return .null }
        if let value = try? container.decode(Bool.self) { return .bool(value) }
        if let value = try? container.decode(String.self) { return .string(value) }
        if let value = try? container.decode(Int.self) { return .int(value) }
        if let value = try? container.decode(UInt64.self) { return .uint(value) }
        if let value = try? container.decode(Double.self) { return .double(value) }
        return .decimal(try container.decode(Decimal.self))
    }

    static func keyedScalar(_ container: KeyedDecodingContainer<AnyKey>, _ key: AnyKey) throws -> AnyJSON {
        if try container.decodeNil(forKey: key) { return .null }
        if let value = try? container.decode(Bool.self, forKey: key) { return .bool(value) }
        if let value = try? container.decode(String.self, forKey: key) { return .string(value) }
        if let value = try? container.decode(Int.self, forKey: key) { return .int(value) }
        if let value = try? container.decode(UInt64.self, forKey: key) { return .uint(value) }
        if let value = try? container.decode(Double.self, forKey: key) { return .double(value) }
        return .decimal(try container.decode(Decimal.self, forKey: key))
    }

    static func unkeyedScalar(_ container: inout any UnkeyedDecodingContainer) throws -> AnyJSON {
        if try container.decodeNil() { return .null }
        if let value = try? container.decode(Bool.self) { return .bool(value) }
        if let value = try? container.decode(String.self) { return .string(value) }
        if let value = try? container.decode(Int.self) { return .int(value) }
        if let value = try? container.decode(UInt64.self) { return .uint(value) }
        if let value = try? container.decode(Double.self) { return .double(value) }
        return .decimal(try container.decode(Decimal.self))
    }

    var description: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return "\(value)"
        case .int(let value): return "int \(value)"
        case .uint(let value): return "uint \(value)"
        case .double(let value): return "double \(value)"
        case .decimal(let value): return "decimal \(value)"
        case .string(let value): return "\"\(value)\""
        case .array(let elements): return "[" + elements.map(\.description).joined(separator: ", ") + "]"
        case .object(let members):
            return "{" + members.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "}"
        }
    }
}

/// A coding key for any string or index.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
        stringValue = "\(intValue)"
        self.intValue = intValue
    }
}

/// The model found the decoder inconsistent (not a decoding error of the input).
struct FuzzModelError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension AnyJSON {
    /// What ``AnyJSON`` must decode from `value`, with every number converted by the
    /// reference number rules; or the relative path of a number no type takes.
    static func expected(from value: JSONValue, _ oracle: NumberOracle) -> AnyJSON? {
        switch value {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .string(let value): return .string(value)
        case .number(let text): return number(text, oracle)
        case .array(let elements):
            var decoded: [AnyJSON] = []
            for element in elements {
                guard let value = expected(from: element, oracle) else { return nil }
                decoded.append(value)
            }
            return .array(decoded)
        case .object(let members):
            var decoded: [String: AnyJSON] = [:]
            for (key, member) in members {
                guard let value = expected(from: member, oracle) else { return nil }
                decoded[key] = value
            }
            return .object(decoded)
        }
    }

    /// The number as ``AnyJSON`` decodes it, or nil where no type takes it.
    static func number(_ text: String, _ oracle: NumberOracle) -> AnyJSON? {
        if case .value(let value) = oracle.int(text) { return .int(value) }
        if case .value(let value) = oracle.uint64(text) { return .uint(value) }
        if case .value(let value) = oracle.double(text) { return .double(value) }
        if case .value(let value) = oracle.decimal(text) { return .decimal(value) }
        return nil
    }
}

extension JSONValue {
    /// The value at `path` below this one (keys: the first occurrence, as `JSONValue` keeps it).
    func at(_ path: some Collection<JSONKeyPath.Component>) -> JSONValue? {
        var node = self
        for component in path {
            switch (component, node) {
            case (.key(let key), .object(let members)):
                guard let next = members[key] else { return nil }
                node = next
            case (.index(let index), .array(let elements)) where index < elements.count:
                node = elements[index]
            default:
                return nil
            }
        }
        return node
    }
}
