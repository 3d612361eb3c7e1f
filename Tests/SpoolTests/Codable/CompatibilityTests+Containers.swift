import Foundation
import Spool
import Testing

/// Arrays, dictionaries, sets and optionals, and the container API itself: nested keyed and
/// unkeyed containers, `count`, `isAtEnd`, `currentIndex`, `decodeNil` everywhere, `allKeys`,
/// `contains`, `superDecoder`, containers asked of the wrong JSON kind.
@Suite("Compatibility: containers")
struct CompatibilityContainerTests {
    enum Color: String, Decodable, CodingKeyRepresentable, Hashable { case red, blue, darkRed }
    /// Not `CodingKeyRepresentable`: a dictionary keyed by it is an array of keys and values.
    enum Plain: String, Decodable, Hashable { case a, b }

    static let arrays: [CompatCase] = [
        .same([Int].self, "[]"), .same([Int].self, "[1, 2, 3]"), .same([Int].self, "[[1]]"), .same([Int].self, "{}"),
        .same([Int].self, "null"), .same([Int].self, "1"), .same([Int].self, #"[1, "x", 3]"#),
        .same([[Int]].self, "[[1], [], [2, 3]]"), .same([[Int]].self, #"[[1], [2, "x"]]"#), .same([[Int]].self, "[[1], null]"),
        .same([Int?].self, "[1, null, 3]"), .same([Int?].self, #"[null, "x"]"#), .same([[Int]?].self, "[null, [1]]"),
        .same([String].self, #"["a", "b"]"#), .same([Bool].self, "[true, false]"), .same([Double].self, "[1, 1.5, -2e3]"),
        .same([[String: Int]].self, #"[{"a": 1}, {"a": "x"}]"#),
        .same([[String: [[String: [Int]]]]].self, #"[{"a": [{"b": [1, "x"]}]}]"#),
        .same([[String: [[String: [Int]]]]].self, #"[{"a": [{"b": [1, 2]}, {"c": null}]}]"#),
        .same(Box<[Int]>.self, #"{"value": null}"#), .same(Box<[Int]>.self, #"{"value": {}}"#), .same(Box<[Int]>.self, "{}"),
    ]

    static let dictionaries: [CompatCase] = [
        .same([String: Int].self, #"{"a": 1, "b": 2}"#), .same([String: Int].self, "{}"), .same([String: Int].self, #"{"a": "x"}"#),
        .same([String: Int].self, #"{"a": null}"#), .same([String: Int].self, "[1]"), .same([String: Int].self, "null"),
        .same([String: Int?].self, #"{"a": null, "b": 1}"#), .same([String: [Int]].self, #"{"a": [1, "x"]}"#),
        .same([String: [String: Int]].self, #"{"a": {"b": 1}, "c": {}}"#), .same([String: [String: Int]].self, #"{"a": {"b": true}}"#),
        .same([String: Int].self, #"{"": 1, "a b": 2, "é": 3, "\u00e9\n": 4}"#),
        .same(Box<[String: Int]>.self, #"{"value": null}"#), .same(Box<[String: Int]>.self, #"{"value": []}"#),
        .same([Int: String].self, #"{"1": "a", "-2": "b"}"#), .same([Int: String].self, #"{"x": "a"}"#),
        .same([Int: String].self, #"{"1.5": "a"}"#), .same([Int: String].self, #"{" 1": "a"}"#), .same([Int: String].self, #"{"01": "a"}"#),
        .same([Int: String].self, #"{"+1": "a"}"#), .same([Int: String].self, #"{"1": 2}"#), .same([Int: String].self, "[1]"),
        .same([Int: String].self, #"{"99999999999999999999": "a"}"#), .same([Int: [Int: Bool]].self, #"{"1": {"2": true}}"#),
        .same([Int: [Int: Bool]].self, #"{"1": {"2": 3}}"#),
        .same([Color: Int].self, #"{"red": 1, "blue": 2}"#), .same([Color: Int].self, #"{"green": 1}"#),
        .same([Color: Int].self, #"{"red": "x"}"#), .same([Plain: Int].self, #"["a", 1, "b", 2]"#), .same([Plain: Int].self, #"["a"]"#),
        .same([Plain: Int].self, #"["c", 1]"#), .same([Plain: Int].self, #"{"a": 1}"#), .same([Double: Int].self, "[1.5, 1, 2.5, 2]"),
        .same([Double: Int].self, #"[1.5, "x"]"#),
    ]

    static let setsAndOptionals: [CompatCase] = [
        .same(Set<Int>.self, "[1, 2, 2, 3]"), .same(Set<Int>.self, "[]"), .same(Set<Int>.self, #"[1, "x"]"#),
        .same(Set<String>.self, #"["a", "a"]"#), .same(Set<Int>.self, "{}"), .same(Set<Int>.self, "null"),
        .same(Set<Set<Int>>.self, "[[1], [1], [2, 1]]"),
        .same(Int?.self, "null"), .same(Int?.self, "1"), .same(Int?.self, #""x""#), .same(String?.self, "null"),
        .same([Int]?.self, "null"), .same([String: Int]?.self, "null"),
        .same(OptionalBox<Int>.self, "{}"), .same(OptionalBox<Int>.self, #"{"value": null}"#),
        .same(OptionalBox<Int>.self, #"{"value": 1}"#), .same(OptionalBox<Int>.self, #"{"value": "x"}"#),
        .same(OptionalBox<[Int]>.self, #"{"value": null}"#), .same(OptionalBox<[Int]>.self, #"{"value": [null]}"#),
        .same(OptionalBox<Box<Int>>.self, #"{"value": {}}"#), .same(OptionalBox<Box<Int>>.self, #"{"value": null}"#),
        .same(Box<Int?>.self, "{}"), .same(Box<Int?>.self, #"{"value": null}"#), .same(Box<Int?>.self, #"{"value": 2}"#),
        .same(Box<Int?>.self, #"{"value": []}"#), .same(OptionalBox<Int?>.self, #"{"value": null}"#),
        .same(Box<Date?>.self, #"{"value": null}"#), .same(Box<Data?>.self, #"{"value": null}"#),
        .same(Box<URL?>.self, #"{"value": null}"#), .same(Box<Decimal?>.self, #"{"value": null}"#),
        .same(Box<Date>.self, #"{"value": null}"#), .same(Box<Data>.self, #"{"value": null}"#),
        .same(Box<URL>.self, #"{"value": null}"#), .same(Box<Decimal>.self, #"{"value": null}"#),
        .same(Box<Box<Int>>.self, #"{"value": null}"#),
    ]

    @Test(arguments: arrays) func array(_ row: CompatCase) { row.check() }
    @Test(arguments: dictionaries) func dictionary(_ row: CompatCase) { row.check() }
    @Test(arguments: setsAndOptionals) func setOrOptional(_ row: CompatCase) { row.check() }

    // MARK: - The container API, step by step

    static let keyedScript: Probe.Script = { decoder, log in
        log.path("decoder", decoder.codingPath)
        let c = try decoder.container(keyedBy: AnyKey.self)
        log.path("container", c.codingPath)
        log.note("allKeys", c.allKeys.map(\.stringValue).sorted())
        for name in ["a", "b", "c", "d", "z", ""] { log.note("contains \(name)", c.contains(AnyKey(name))) }
        for name in ["a", "b", "c", "z"] { log.attempt("decodeNil \(name)") { try c.decodeNil(forKey: AnyKey(name)) } }
        log.attempt("decode Int a") { try c.decode(Int.self, forKey: AnyKey("a")) }
        log.attempt("decode Int b") { try c.decode(Int.self, forKey: AnyKey("b")) }
        log.attempt("decode String a") { try c.decode(String.self, forKey: AnyKey("a")) }
        log.attempt("decode Int z") { try c.decode(Int.self, forKey: AnyKey("z")) }
        log.attempt("decodeIfPresent Int b") { try c.decodeIfPresent(Int.self, forKey: AnyKey("b")) }
        log.attempt("decodeIfPresent Int z") { try c.decodeIfPresent(Int.self, forKey: AnyKey("z")) }
        log.attempt("decodeIfPresent String a") { try c.decodeIfPresent(String.self, forKey: AnyKey("a")) }
        log.attempt("decodeIfPresent [Int] b") { try c.decodeIfPresent([Int].self, forKey: AnyKey("b")) }
        log.attempt("decode Int again a") { try c.decode(Int.self, forKey: AnyKey("a")) }
        if let d = log.attempt("nestedContainer d", show: false, { try c.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("d")) }) {
            log.path("d", d.codingPath)
            log.note("d.allKeys", d.allKeys.map(\.stringValue).sorted())
            log.attempt("d.e") { try d.decode(String.self, forKey: AnyKey("e")) }
            log.attempt("d.f") { try d.decode(String.self, forKey: AnyKey("f")) }
            log.attempt("d.e as Int") { try d.decode(Int.self, forKey: AnyKey("e")) }
            log.attempt("d.nested e", show: false) { try d.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("e")) }
            if let g = log.attempt("d.nestedUnkeyed g", show: false, { try d.nestedUnkeyedContainer(forKey: AnyKey("g")) }) {
                log.path("d.g", g.codingPath)
                log.note("d.g.count", g.count as Any)
            }
        }
        for name in ["c", "b", "z", "a"] {
            log.attempt("nestedContainer \(name)", show: false) { try c.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey(name)) }
        }
        for name in ["d", "b", "z", "a"] {
            log.attempt("nestedUnkeyedContainer \(name)", show: false) { try c.nestedUnkeyedContainer(forKey: AnyKey(name)) }
        }
        if var u = log.attempt("nestedUnkeyedContainer c", show: false, { try c.nestedUnkeyedContainer(forKey: AnyKey("c")) }) {
            log.path("c", u.codingPath)
            log.note("c.count", u.count as Any)
            log.note("c.isAtEnd", u.isAtEnd)
            while !u.isAtEnd {
                log.note("c.currentIndex", u.currentIndex)
                log.attempt("c.decode Int") { try u.decode(Int.self) }
            }
            log.attempt("c.decode past end") { try u.decode(Int.self) }
            log.note("c.currentIndex", u.currentIndex)
        }
        if let sup = log.attempt("superDecoder()", show: false, { try c.superDecoder() }) {
            log.path("super", sup.codingPath)
            log.attempt("super single decodeNil") { try sup.singleValueContainer().decodeNil() }
            log.attempt("super keyed", show: false) { try sup.container(keyedBy: AnyKey.self) }
        }
        for name in ["a", "b", "d", "z"] {
            if let sup = log.attempt("superDecoder(forKey: \(name))", show: false, { try c.superDecoder(forKey: AnyKey(name)) }) {
                log.path("super \(name)", sup.codingPath)
                log.attempt("super \(name) decodeNil") { try sup.singleValueContainer().decodeNil() }
                log.attempt("super \(name) Int") { try sup.singleValueContainer().decode(Int.self) }
                log.attempt("super \(name) keyed allKeys") { try sup.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue).sorted() }
            }
        }
    }

    static let unkeyedScript: Probe.Script = { decoder, log in
        var u = try decoder.unkeyedContainer()
        log.path("container", u.codingPath)
        log.note("count", u.count as Any)
        log.note("isAtEnd", u.isAtEnd)
        log.attempt("decodeNil on 1") { try u.decodeNil() }
        log.note("currentIndex", u.currentIndex)
        log.attempt("decode String on 1") { try u.decode(String.self) }
        log.note("currentIndex", u.currentIndex)
        log.attempt("decode Int") { try u.decode(Int.self) }
        log.attempt("decode Int on null") { try u.decode(Int.self) }
        log.note("currentIndex", u.currentIndex)
        log.attempt("decodeNil on null") { try u.decodeNil() }
        log.note("currentIndex", u.currentIndex)
        log.attempt("decode [Int] on s") { try u.decode([Int].self) }
        log.attempt("decode String") { try u.decode(String.self) }
        if var inner = log.attempt("nestedUnkeyedContainer", show: false, { try u.nestedUnkeyedContainer() }) {
            log.path("inner", inner.codingPath)
            log.note("inner.count", inner.count as Any)
            log.attempt("inner Int") { try inner.decode(Int.self) }
            log.note("inner.currentIndex", inner.currentIndex)
            log.attempt("inner Int") { try inner.decode(Int.self) }
            log.note("inner.isAtEnd", inner.isAtEnd)
            log.attempt("inner past end") { try inner.decode(Int.self) }
        }
        log.note("currentIndex", u.currentIndex)
        log.attempt("nestedUnkeyedContainer on object", show: false) { try u.nestedUnkeyedContainer() }
        log.note("currentIndex", u.currentIndex)
        if let keyed = log.attempt("nestedContainer", show: false, { try u.nestedContainer(keyedBy: AnyKey.self) }) {
            log.path("keyed", keyed.codingPath)
            log.note("keyed.allKeys", keyed.allKeys.map(\.stringValue))
            log.attempt("keyed k") { try keyed.decode(Int.self, forKey: AnyKey("k")) }
            log.attempt("keyed missing") { try keyed.decode(Int.self, forKey: AnyKey("missing")) }
        }
        log.attempt("decodeIfPresent Int on null") { try u.decodeIfPresent(Int.self) }
        log.note("currentIndex", u.currentIndex)
        if let sup = log.attempt("superDecoder", show: false, { try u.superDecoder() }) {
            log.path("super", sup.codingPath)
            log.attempt("super Int") { try sup.singleValueContainer().decode(Int.self) }
        }
        log.note("isAtEnd", u.isAtEnd)
        log.note("currentIndex", u.currentIndex)
        log.attempt("decode at end") { try u.decode(Int.self) }
        log.attempt("decode String at end") { try u.decode(String.self) }
        log.attempt("decode Box at end") { try u.decode(Box<Int>.self) }
        log.attempt("decodeNil at end") { try u.decodeNil() }
        log.attempt("nestedContainer at end", show: false) { try u.nestedContainer(keyedBy: AnyKey.self) }
        log.attempt("nestedUnkeyedContainer at end", show: false) { try u.nestedUnkeyedContainer() }
        log.attempt("superDecoder at end", show: false) { try u.superDecoder() }
        log.note("currentIndex", u.currentIndex)
    }

    /// `decodeIfPresent` at the end of an unkeyed container.
    static let unkeyedEndScript: Probe.Script = { decoder, log in
        var u = try decoder.unkeyedContainer()
        log.attempt("decodeIfPresent Int") { try u.decodeIfPresent(Int.self) }
        log.note("currentIndex", u.currentIndex)
        log.attempt("decodeIfPresent Int at end") { try u.decodeIfPresent(Int.self) }
        log.note("currentIndex", u.currentIndex)
        log.attempt("decodeIfPresent String at end") { try u.decodeIfPresent(String.self) }
        log.attempt("decodeIfPresent Box at end") { try u.decodeIfPresent(Box<Int>.self) }
        log.note("currentIndex", u.currentIndex)
    }

    static let singleScript: Probe.Script = { decoder, log in
        log.path("decoder", decoder.codingPath)
        let single = try decoder.singleValueContainer()
        log.path("single", single.codingPath)
        log.note("decodeNil", single.decodeNil())
        // (Containers first: Spool releases an array or object decoded as a whole, and a
        // container asked for afterwards says so; see spoolReleasesDecodedArrays.)
        log.attempt("keyed after single", show: false) { try decoder.container(keyedBy: AnyKey.self) }
        log.attempt("unkeyed after single", show: false) { try decoder.unkeyedContainer() }
        log.attempt("Int") { try single.decode(Int.self) }
        log.attempt("String") { try single.decode(String.self) }
        log.attempt("Bool") { try single.decode(Bool.self) }
        log.attempt("[Int]") { try single.decode([Int].self) }
        log.attempt("[String: Int]") { try single.decode([String: Int].self) }
        log.attempt("Int?") { try single.decode(Int?.self) }
    }

    /// Each kind of container asked of each kind of JSON value.
    static let kindsScript: Probe.Script = { decoder, log in
        log.attempt("keyed", show: false) { try decoder.container(keyedBy: AnyKey.self) }
        log.attempt("unkeyed", show: false) { try decoder.unkeyedContainer() }
        log.attempt("single", show: false) { try decoder.singleValueContainer() }
        log.attempt("keyed again", show: false) { try decoder.container(keyedBy: AnyKey.self) }
    }

    static let probes: [CompatCase] = [
        .probe("keyed", #"{"a": 1, "b": null, "c": [1, 2], "d": {"e": "x", "g": []}, "super": {"s": 1}, "": 0}"#, script: keyedScript),
        .probe("keyed", #"{"a": 1, "b": null, "c": [], "d": {"e": "x"}}"#, script: keyedScript),
        .probe("keyed", #"{"x": {"a": 1, "b": null, "c": [3], "d": {}}}"#, under: "x", script: keyedScript),
        .probe("unkeyed", #"[1, null, "s", [2, 3], {"k": 4}, null, 5]"#, script: unkeyedScript),
        .probe("unkeyed", #"[1, 2, 3]"#, script: unkeyedScript),
        .probe("unkeyed", #"[]"#, script: unkeyedScript),
        .probe("unkeyed end", "[1]", script: unkeyedEndScript), .probe("unkeyed end", "[null]", script: unkeyedEndScript),
        .probe("unkeyed end", "[]", script: unkeyedEndScript),
    ] + ["1", "null", #""s""#, "true", "[1]", #"{"a": 1}"#].map { .probe("single", $0, script: singleScript) }
        + ["{}", "[]", "1", "null", #""s""#, "true", "1.5"].map { .probe("container kinds", $0, script: kindsScript) }

    @Test(arguments: probes) func containerAPI(_ row: CompatCase) { row.check() }
}
