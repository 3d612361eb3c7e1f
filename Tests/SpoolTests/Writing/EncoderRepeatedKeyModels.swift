import Foundation
@testable import Spool

// Models that write a key twice (issue 21, item 2), each the way `JSONEncoder` accepts it:
// a value replaces, a nested container continues the earlier one of its kind, a super encoder's
// value replaces. `JSONEncoder`'s answer for each was measured on this toolchain.

/// `{"a": value}`.
struct OneMember: Encodable {
    var value = 2
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: NamedCodingKey.self)
        try container.encode(value, forKey: NamedCodingKey("a"))
    }
}

/// The last key of its coding path, as a string: `Index 1`. (Through nested containers,
/// JSONEncoder's paths leave the containers' keys out, and StreamingJSONEncoder's do not.)
struct PathEcho: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(encoder.codingPath.last?.stringValue ?? "")
    }
}

/// A value replacing a member fails, and the model goes on: the earlier member stays. Its
/// `failing` value fails at once (NaN) or halfway through (an array with NaN in it; JSONEncoder
/// then leaves the half-encoded array in the value encoded next, so only the first is compared
/// with it).
struct FailingReplacement<Failing: Encodable>: Encodable {
    var failing: Failing
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: NamedCodingKey.self)
        try container.encode(1, forKey: NamedCodingKey("top"))
        try container.encode(0, forKey: NamedCodingKey("other"))
        do {
            try container.encode(failing, forKey: NamedCodingKey("top"))
        } catch {}
        try container.encode(2, forKey: NamedCodingKey("after"))
        // One that succeeds after it.
        try container.encode([3], forKey: NamedCodingKey("other"))
    }
}

/// One way of writing a key twice.
enum Twice: String, CaseIterable, Sendable, Encodable {
    case replaceFirst, replaceMiddle, replaceLast, replaceThreeTimes, replaceWithAnObject, replaceAnObjectWithANumber
    case replaceAnEscapedKey, replaceInAManyMemberObject, replaceWithAValueThatFails
    case continueKeyed, continueUnkeyed, continueWithOtherKeysBetween, continueTwoDeep, continueThreeDeep
    case continueAContinuedContainer, continueAndReplaceInside, continueEmptyContainers, continueAnEscapedKey
    case continueInAManyMemberObject, elementPathsCountOn, continueAnEncodedObject, continueAnEncodedArray
    case continueAnEncodedDictionary
    case superAfterAValue, superAfterAContainer, valueAfterASuper, keyedAfterASuper, unkeyedAfterASuper, superTwice
    case repeatsInsideASuper
    case valueAfterAKeyedContainer, valueAfterAnUnkeyedContainer
    case keyedAfterASingleObject, keyedAfterASingleModel, keyedAfterASingleObjectRepeatsAKey, unkeyedAfterASingleArray

    func encode(to encoder: any Encoder) throws {
        let top = NamedCodingKey("top")
        func key(_ name: String) -> NamedCodingKey { NamedCodingKey(name) }
        switch self {
        case .keyedAfterASingleObject, .keyedAfterASingleModel, .keyedAfterASingleObjectRepeatsAKey:
            var single = encoder.singleValueContainer()
            if self == .keyedAfterASingleModel { try single.encode(OneMember(value: 1)) } else { try single.encode(["a": 1]) }
            var keyed = encoder.container(keyedBy: NamedCodingKey.self)
            try keyed.encode(2, forKey: key(self == .keyedAfterASingleObjectRepeatsAKey ? "a" : "b"))
            return
        case .unkeyedAfterASingleArray:
            var single = encoder.singleValueContainer()
            try single.encode([1])
            var unkeyed = encoder.unkeyedContainer()
            try unkeyed.encode(2)
            try unkeyed.encode(PathEcho())
            return
        default:
            break
        }
        var container = encoder.container(keyedBy: NamedCodingKey.self)
        switch self {
        case .replaceFirst:
            try container.encode(0, forKey: top)
            try container.encode(1, forKey: key("other"))
            try container.encode("x", forKey: key("third"))
            try container.encode(42, forKey: top)
        case .replaceMiddle:
            try container.encode(0, forKey: key("first"))
            try container.encode(1, forKey: top)
            try container.encode(2, forKey: key("last"))
            try container.encode(42, forKey: top)
        case .replaceLast:
            try container.encode(0, forKey: key("first"))
            try container.encode([1, 2], forKey: top)
            try container.encode(true, forKey: top)
        case .replaceThreeTimes:
            try container.encode(1, forKey: top)
            try container.encode(2, forKey: top)
            try container.encode(0, forKey: key("other"))
            try container.encode("three", forKey: top)
        case .replaceWithAnObject:
            try container.encode(1, forKey: top)
            try container.encode(0, forKey: key("other"))
            try container.encode(OneMember(), forKey: top)
        case .replaceAnObjectWithANumber:
            try container.encode(OneMember(), forKey: top)
            try container.encode(0, forKey: key("other"))
            try container.encode(3.5, forKey: top)
        case .replaceAnEscapedKey:
            try container.encode(1, forKey: key("a/b\"c\u{1}"))
            try container.encode(2, forKey: key("a"))
            try container.encode(3, forKey: key("a/b\"c\u{1}"))
            try container.encode(4, forKey: key("a/b"))
        case .replaceInAManyMemberObject:
            for index in 0..<40 { try container.encode(index, forKey: key("k\(index)")) }
            try container.encode("again", forKey: key("k5"))
            try container.encode("last", forKey: key("k39"))
            try container.encode("first", forKey: key("k0"))
        case .replaceWithAValueThatFails:
            try container.encode(1, forKey: top)
            // The failing value leaves the earlier member in place (as in JSONEncoder).
            do {
                try container.encode(Double.nan, forKey: top)
            } catch {}
            try container.encode(2, forKey: key("after"))
            try container.encode(3, forKey: key("after"))
        case .continueKeyed:
            var first = container.nestedContainer(keyedBy: NamedCodingKey.self, forKey: top)
            try first.encode("1", forKey: key("first"))
            var second = container.nestedContainer(keyedBy: NamedCodingKey.self, forKey: top)
            try second.encode("2", forKey: key("second"))
        case .continueUnkeyed:
            var first = container.nestedUnkeyedContainer(forKey: top)
            try first.encode(1)
            var second = container.nestedUnkeyedContainer(forKey: top)
            try second.encode(2)
        case .continueWithOtherKeysBetween:
            try container.encode(0, forKey: key("before"))
            var first = container.nestedContainer(keyedBy: NamedCodingKey.self, forKey: top)
            try first.encode(1, forKey: key("a"))
            try first.encode([1], forKey: key("b"))
            try container.encode(0, forKey: key("between"))
            var list = container.nestedUnkeyedContainer(forKey: key("list"))
            try list.encode(1)
            try container.encode(0, forKey: key("between2"))
            var second = container.nestedContainer(keyedBy: NamedCodingKey.self, forKey: top)
            try second.encode(2, forKey: key("c"))
            var more = container.nestedUnkeyedContainer(forKey: key("list"))
            try more.encode(2)
            try container.encode(0, forKey: key("after"))
        case .continueTwoDeep, .continueThreeDeep:
            for value in ["x", "y"] {
                var outer = container.nestedContainer(keyedBy: NamedCodingKey.self, forKey: top)
                try outer.encode(value, forKey: key("outer-\(value)"))
                var inner = outer.nestedContainer(keyedBy: NamedCodingKey.self, forKey: key("inner"))
                try inner.encode(value, forKey: key("inner-\(value)"))
                if self == .continueThreeDeep {
                    var innermost = inner.nestedUnkeyedContainer(forKey: key("innermost"))
                    try innermost.encode(value)
                    try inner.encode(value, forKey: key("after-\(value)"))
                }
                try container.encode(value, forKey: key("between"))
            }
        case .continueAContinuedContainer:
            for name in ["a", "b", "c"] {
                var nested = container.nestedContainer(keyedBy: NamedCodingKey.self, forKey: top)
                try nested.encode(name, forKey: key(name))
                var list = container.nestedUnkeyedContainer(forKey: key("list"))
                try list.encode(name)
                try container.encode(name, forKey: key("other-\(name)"))
            }
        case .continueAndReplaceInside:
            var first = container.nestedContainer(keyedBy: NamedCodingKey.self, forKey: top)
            try first.encode(1, forKey: key("a"))
            var inner = first.nestedContainer(keyedBy: NamedCodingKey.self, forKey: key("b"))
            try inner.encode(1, forKey: key("c"))
            try first.encode(1, forKey: key("d"))
            var second = container.nestedContainer(keyedBy: NamedCodingKey.self, forKey: top)
            try second.encode(2, forKey: key("a"))
            var third = second.nestedContainer(keyedBy: NamedCodingKey.self, forKey: key("b"))
            try third.encode(3, forKey: key("c"))
            try third.encode(3, forKey: key("e"))
        case .continueEmptyContainers:
            _ = container.nestedContainer(keyedBy: NamedCodingKey.self, forKey: top)
            _ = container.nestedUnkeyedContainer(forKey: key("list"))
            _ = container.nestedContainer(keyedBy: NamedCodingKey.self, forKey: top)
            _ = container.nestedUnkeyedContainer(forKey: key("list"))
            _ = container.nestedContainer(keyedBy: NamedCodingKey.self, forKey: key("later"))
            var later = container.nestedContainer(keyedBy: NamedCodingKey.self, forKey: key("later"))
            try later.encode(1, forKey: key("a"))
            _ = container.nestedUnkeyedContainer(forKey: key("list2"))
            var list2 = container.nestedUnkeyedContainer(forKey: key("list2"))
            try list2.encode(1)
        case .continueAnEscapedKey:
            let escaped = key("a\"b/c\n")
            var first = container.nestedContainer(keyedBy: NamedCodingKey.self, forKey: escaped)
            try first.encode(1, forKey: key("z/\"1"))
            try first.encode(1, forKey: key("a"))
            try container.encode(0, forKey: key("a\"b"))
            var second = container.nestedContainer(keyedBy: NamedCodingKey.self, forKey: escaped)
            try second.encode(2, forKey: key("z/\"1"))
            try second.encode(2, forKey: key("b\t"))
        case .continueInAManyMemberObject:
            for index in 0..<30 {
                var nested = container.nestedContainer(keyedBy: NamedCodingKey.self, forKey: key("n\(index)"))
                for inner in 0..<20 { try nested.encode(inner, forKey: key("i\(inner)")) }
            }
            var again = container.nestedContainer(keyedBy: NamedCodingKey.self, forKey: key("n3"))
            try again.encode("more", forKey: key("i19"))
            try again.encode("new", forKey: key("i20"))
            try container.encode(0, forKey: key("n29"))
        case .elementPathsCountOn:
            var first = container.nestedUnkeyedContainer(forKey: top)
            try first.encode(PathEcho())
            try first.encode(PathEcho())
            var second = container.nestedUnkeyedContainer(forKey: top)
            try second.encode(PathEcho())
            var object = second.nestedContainer(keyedBy: NamedCodingKey.self)
            try object.encode(PathEcho(), forKey: key("path"))
            var keyed = container.nestedContainer(keyedBy: NamedCodingKey.self, forKey: key("keyed"))
            try keyed.encode(PathEcho(), forKey: key("path"))
            var again = container.nestedContainer(keyedBy: NamedCodingKey.self, forKey: key("keyed"))
            try again.encode(PathEcho(), forKey: key("again"))
        case .continueAnEncodedObject:
            try container.encode(OneMember(value: 1), forKey: top)
            var nested = container.nestedContainer(keyedBy: NamedCodingKey.self, forKey: top)
            try nested.encode(1, forKey: key("x"))
        case .continueAnEncodedArray:
            try container.encode([7, 8], forKey: top)
            var nested = container.nestedUnkeyedContainer(forKey: top)
            try nested.encode(1)
            try nested.encode(PathEcho())
        case .continueAnEncodedDictionary:
            try container.encode(["q": 7, "a": 1], forKey: top)
            var nested = container.nestedContainer(keyedBy: NamedCodingKey.self, forKey: top)
            try nested.encode(1, forKey: key("x"))
            try nested.encode(2, forKey: key("a"))
        case .superAfterAValue:
            try container.encode(1, forKey: top)
            try container.encode(0, forKey: key("other"))
            try OneMember().encode(to: container.superEncoder(forKey: top))
        case .superAfterAContainer:
            var nested = container.nestedContainer(keyedBy: NamedCodingKey.self, forKey: top)
            try nested.encode(1, forKey: key("x"))
            try OneMember().encode(to: container.superEncoder(forKey: top))
            try container.encode(0, forKey: key("other"))
        case .valueAfterASuper:
            try OneMember().encode(to: container.superEncoder(forKey: top))
            try container.encode(1, forKey: top)
        case .keyedAfterASuper:
            try OneMember().encode(to: container.superEncoder(forKey: top))
            var nested = container.nestedContainer(keyedBy: NamedCodingKey.self, forKey: top)
            try nested.encode(1, forKey: key("x"))
        case .unkeyedAfterASuper:
            try [5].encode(to: container.superEncoder(forKey: top))
            var nested = container.nestedUnkeyedContainer(forKey: top)
            try nested.encode(1)
        case .superTwice:
            try OneMember(value: 1).encode(to: container.superEncoder(forKey: top))
            try container.encode(0, forKey: key("other"))
            try OneMember(value: 2).encode(to: container.superEncoder(forKey: top))
            try OneMember(value: 3).encode(to: container.superEncoder())
            try container.encode(4, forKey: key("super"))
        case .repeatsInsideASuper:
            try container.encode(0, forKey: top)
            try Twice.continueWithOtherKeysBetween.encode(to: container.superEncoder(forKey: top))
            try Twice.replaceFirst.encode(to: container.superEncoder())
            try Twice.continueKeyed.encode(to: container.superEncoder(forKey: key("other")))
            var nested = container.nestedContainer(keyedBy: NamedCodingKey.self, forKey: key("other"))
            try nested.encode(3, forKey: key("more"))
        case .valueAfterAKeyedContainer:
            var nested = container.nestedContainer(keyedBy: NamedCodingKey.self, forKey: top)
            try nested.encode(1, forKey: key("x"))
            try container.encode(5, forKey: top)
        case .valueAfterAnUnkeyedContainer:
            var nested = container.nestedUnkeyedContainer(forKey: top)
            try nested.encode(1)
            try container.encode(0, forKey: key("other"))
            try container.encode(5, forKey: top)
        case .keyedAfterASingleObject, .keyedAfterASingleModel, .keyedAfterASingleObjectRepeatsAKey, .unkeyedAfterASingleArray:
            break
        }
    }
}

/// A `Twice` case at the top level, inside an object and inside an array.
struct TwiceEverywhere: Encodable {
    var twice: Twice
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: NamedCodingKey.self)
        try container.encode(1, forKey: NamedCodingKey("before"))
        try container.encode(twice, forKey: NamedCodingKey("member"))
        try container.encode([twice, twice], forKey: NamedCodingKey("elements"))
        try container.encode(2, forKey: NamedCodingKey("after"))
    }
}

/// Properties that one key strategy or the other maps to the same key.
struct Colliding: Encodable {
    var fooBar = 1
    var other = 0
    var foo_bar = 2
    var nested = CollidingInner()
}

struct CollidingInner: Encodable {
    var Name = "upper"
    var name = "lower"
    var valueURL = "url"
    var value_url = "snake"
}

/// A nested container asked for a key whose earlier member is not a container of its kind:
/// `JSONEncoder` stops the program; StreamingJSONEncoder throws.
enum NotAContainer: String, CaseIterable, Sendable, Encodable {
    case keyedAfterAValue, unkeyedAfterAValue, keyedAfterAnArray, unkeyedAfterAnObject, keyedAfterASingleNumber
    case unkeyedAfterASingleObject

    func encode(to encoder: any Encoder) throws {
        let top = NamedCodingKey("top")
        if self == .keyedAfterASingleNumber || self == .unkeyedAfterASingleObject {
            var single = encoder.singleValueContainer()
            if self == .keyedAfterASingleNumber {
                try single.encode(1)
                var keyed = encoder.container(keyedBy: NamedCodingKey.self)
                try keyed.encode(2, forKey: NamedCodingKey("b"))
            } else {
                try single.encode(["a": 1])
                var unkeyed = encoder.unkeyedContainer()
                try unkeyed.encode(2)
            }
            return
        }
        var container = encoder.container(keyedBy: NamedCodingKey.self)
        switch self {
        case .keyedAfterAValue, .unkeyedAfterAValue: try container.encode(5, forKey: top)
        case .keyedAfterAnArray: try container.encode([5], forKey: top)
        default: try container.encode(OneMember(), forKey: top)
        }
        if self == .keyedAfterAValue || self == .keyedAfterAnArray {
            var nested = container.nestedContainer(keyedBy: NamedCodingKey.self, forKey: top)
            try nested.encode(1, forKey: NamedCodingKey("x"))
        } else {
            var nested = container.nestedUnkeyedContainer(forKey: top)
            try nested.encode(1)
        }
    }
}
