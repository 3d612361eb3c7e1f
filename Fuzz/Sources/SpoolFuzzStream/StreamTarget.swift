import Foundation
import FuzzSupport
import Spool

#if canImport(Glibc)
import Glibc
#endif

/// Differential fuzzing of Spool's streaming API (see Fuzz/README.md). The first byte holds
/// the options, a small chunk size (1-7) and the path to stream (bits 5-6); the rest is JSON.
///
/// Each request of a ``JSONStream`` — `elements(of: JSONValue.self, at:)`, `count(at:)`,
/// `members(of: JSONValue.self, at:)`, and `elements(of: Int.self, at:, onError: .skip)` — each
/// followed by `remainder`, runs three ways: on one thread in one big chunk, and on the
/// background thread (`parsesInBackground`) in small chunks and in 64-byte chunks. The three
/// must agree exactly (values, skipped elements, error descriptions). The one-thread run must
/// agree with the reference: the input read token by token into a plain tree (checked against
/// `JSONValue.decodeValue(from:)`), the elements, members, count and remainder taken from it.
/// On invalid input, what was handed out before the error must be a prefix of the reference.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStream(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let input = FuzzInput(data, size) else { return 0 }
    let reference = RefDocument(bytes: input.bytes, options: input.oneThread)
    if reference.error != nil && reference.parseError == nil {
        fail("the reader threw something else than a ParseError", input, reference.errorDescription ?? "")
    }
    checkDecodeValue(input, reference)
    let oracle = NumberOracle(input: input)
    oracle.checkAll(reference.numberTexts)

    // With several top-level values, a path is streamed in every value: the reference models
    // the first value only, so such inputs stream the top-level values (the empty path).
    let path = input.oneThread.allowsMultipleValues ? JSONKeyPath.root : chosenPath(input.selector, root: reference.first)
    let oneThread = StreamRun(input, path: path, options: input.oneThread)
    for chunkSize in [input.smallChunk, 64] {
        let background = StreamRun(input, path: path, options: input.options(chunkSize: chunkSize, inBackground: true))
        if background != oneThread && background == oneThread.withoutMissingKeyLocations {
            KnownOldBehaviour.missingKeyWithoutLocation.note(input, "one thread:\n\(oneThread)\n\(chunkSize)-byte chunks:\n\(background)")
        } else if background != oneThread {
            fail("background streaming in \(chunkSize)-byte chunks differs from one thread (path \(path))", input,
                 "one thread:\n\(oneThread)\nbackground:\n\(background)")
        }
    }
    check(oneThread, against: reference, path: path, oracle: oracle, input)
    if !input.oneThread.allowsMultipleValues {
        checkResuming(input, path: path, options: input.options(chunkSize: input.smallChunk, inBackground: false))
        checkWildcard(input, options: input.oneThread)
    }
    return 0
}

/// A stream resumed at an element's start (``Located``) must give what the whole stream gives
/// from there: the same elements, places and error.
func checkResuming(_ input: FuzzInput, path: JSONKeyPath, options: JSONParsingOptions) {
    guard !path.components.contains(.wildcard) else { return }
    let whole = JSONStream(.bytes(input.bytes), options: options).elements(of: Located<JSONValue>.self, at: path)
    var elements: [Located<JSONValue>] = []
    var wholeError: String?
    do {
        while let element = try whole.next() { elements.append(element) }
    } catch {
        wholeError = "\(error)"
    }
    guard !elements.isEmpty else { return }
    let from = input.selector % elements.count
    let checkpoint = elements[from]
    let resumed = JSONStream(.bytes(input.bytes), options: options, resumingAt: checkpoint.start, element: checkpoint.path)
        .elements(of: Located<JSONValue>.self, at: path)
    var rest: [Located<JSONValue>] = []
    var restError: String?
    do {
        while let element = try resumed.next() { rest.append(element) }
    } catch {
        restError = "\(error)"
    }
    let expected = Array(elements[from...])
    let same = rest.map(\.value) == expected.map(\.value) && rest.map(\.start) == expected.map(\.start)
        && rest.map(\.end) == expected.map(\.end) && rest.map(\.path) == expected.map(\.path)
    // (The excerpt under an error's first line shows no input before the point resumed at, and
    // an unclosed array is named by the point resumed at, its `[` never read.)
    func firstLine(_ text: String?) -> String? {
        text.map { text in
            var line = String(text.prefix { $0 != "\n" })
            for marker in ["; the array opened at ", "; the array at the root, resumed in at ", "; the array at "] {
                if let range = line.range(of: marker), let end = line.range(of: " is not closed", range: range.upperBound..<line.endIndex) {
                    line.replaceSubrange(range.lowerBound..<end.upperBound, with: "; an array is not closed")
                }
            }
            return line
        }
    }
    guard same, firstLine(restError) == firstLine(wholeError) else {
        fail("a stream resumed at \(checkpoint.path) (\(checkpoint.start)) differs from the whole stream", input,
             "whole: \(expected.map { "\($0.path) \($0.start) \($0.value)" }) \(wholeError ?? "")\n"
                + "resumed: \(rest.map { "\($0.path) \($0.start) \($0.value)" }) \(restError ?? "")")
    }
}

/// `[*]` over the root array (or object) must give the elements of its children's arrays one
/// after the other, as the concrete paths give them.
func checkWildcard(_ input: FuzzInput, options: JSONParsingOptions) {
    let crossed = JSONStream(.bytes(input.bytes), options: options).elements(of: Located<JSONValue>.self, at: [.wildcard])
    var values: [Located<JSONValue>] = []
    var crossedError: (any Error)?
    do {
        while let value = try crossed.next() { values.append(value) }
    } catch {
        crossedError = error
    }
    guard crossedError == nil else { return }  // (an error may come from any child: compared only when none)
    // (A root object's values are crossed too; only a root array's are compared here.)
    guard let children = try? JSONStream(.bytes(input.bytes), options: options).elements(of: Located<JSONValue>.self).map({ try $0.get() }) else {
        return
    }
    var expected: [Located<JSONValue>] = []
    for child in children {
        guard let inner = try? JSONStream(.bytes(input.bytes), options: options).elements(of: Located<JSONValue>.self, at: child.path).map({ try $0.get() }) else {
            fail("[*] streamed a child that is not an array", input, "\(child.path)")
        }
        expected += inner
    }
    guard values.map(\.value) == expected.map(\.value), values.map(\.path) == expected.map(\.path),
        values.map(\.start) == expected.map(\.start)
    else {
        fail("[*] differs from the concrete paths", input,
             "[*]: \(values.map { "\($0.path) \($0.value)" })\nconcrete: \(expected.map { "\($0.path) \($0.value)" })")
    }
}

/// `JSONValue.decodeValue(from:)` on one thread must give the reference's first value, or
/// the reader's error.
func checkDecodeValue(_ input: FuzzInput, _ reference: RefDocument) {
    let options = input.oneThread
    let outcome: Result<JSONValue, any Error>
    do {
        outcome = .success(try JSONValue.decodeValue(from: .bytes(input.bytes), options: options))
    } catch {
        outcome = .failure(error)
    }
    let firstIsEnough = options.allowsMultipleValues || options.allowsTrailingGarbage
    if let first = reference.values.first, reference.error == nil || firstIsEnough {
        guard case .success(let value) = outcome, value == first.jsonValue else {
            fail("decodeValue differs from the reference tree", input, "decodeValue: \(outcome)\nreference: \(first.jsonValue)")
        }
    } else if let error = reference.errorDescription {
        guard case .failure(let thrown) = outcome, thrown is ParseError, "\(thrown)" == error else {
            fail("decodeValue does not throw the reader's error", input, "decodeValue: \(outcome)\nreader: \(error)")
        }
    } else {
        guard case .failure(let thrown as DecodeError) = outcome, thrown.code == .noValue else {
            fail("decodeValue of an input without a value does not throw 'no value'", input, "\(outcome)")
        }
    }
}

/// What one run of the four stream requests gave.
struct StreamRun: Equatable, CustomStringConvertible {
    var elements: [JSONValue] = []
    var elementsError: String?
    var elementsErrorCode: String?
    var elementsRemainder: String = ""
    var count: Int?
    var countError: String?
    var countErrorCode: String?
    var countRemainder: String = ""
    var members: [String] = []
    var memberValues: [JSONValue] = []
    var membersError: String?
    var membersErrorCode: String?
    var membersRemainder: String = ""
    var ints: [Int] = []
    var skipped: [String] = []
    var skippedIndices: [Int] = []
    var intsError: String?
    var intsErrorCode: String?
    var intsRemainder: String = ""
    /// The remainders decoded, when they decoded.
    var remainders: [JSONValue?] = []

    init(_ input: FuzzInput, path: JSONKeyPath, options: JSONParsingOptions) {
        var stream = JSONStream(.bytes(input.bytes), options: options)
        let elementStream = stream.elements(of: JSONValue.self, at: path)
        do {
            while let element = try elementStream.next() { elements.append(element) }
        } catch {
            (elementsError, elementsErrorCode) = StreamRun.describe(error, input)
        }
        if elementStream.count != elements.count {
            fail("JSONElements.count is \(elementStream.count) after \(elements.count) elements", input)
        }
        elementsRemainder = StreamRun.remainder(of: stream, input, into: &remainders)

        stream = JSONStream(.bytes(input.bytes), options: options)
        do {
            count = try stream.count(at: path)
        } catch {
            (countError, countErrorCode) = StreamRun.describe(error, input)
        }
        countRemainder = StreamRun.remainder(of: stream, input, into: &remainders)

        stream = JSONStream(.bytes(input.bytes), options: options)
        let memberStream = stream.members(of: JSONValue.self, at: path)
        do {
            while let (key, value) = try memberStream.next() {
                members.append(key)
                memberValues.append(value)
            }
        } catch {
            (membersError, membersErrorCode) = StreamRun.describe(error, input)
        }
        membersRemainder = StreamRun.remainder(of: stream, input, into: &remainders)

        stream = JSONStream(.bytes(input.bytes), options: options)
        nonisolated(unsafe) var reports: [SkippedElement] = []
        let intStream = stream.elements(of: Int.self, at: path, onError: .skip { reports.append($0) })
        do {
            while let value = try intStream.next() { ints.append(value) }
        } catch {
            (intsError, intsErrorCode) = StreamRun.describe(error, input)
        }
        if intStream.count != ints.count + reports.count {
            fail("JSONElements.count is \(intStream.count) after \(ints.count) elements and \(reports.count) skipped", input)
        }
        skipped = reports.map(\.description)
        skippedIndices = reports.map(\.index)
        intsRemainder = StreamRun.remainder(of: stream, input, into: &remainders)
    }

    /// The run with the location of missing-key errors dropped (see ``KnownOldBehaviour/missingKeyWithoutLocation``).
    var withoutMissingKeyLocations: StreamRun {
        var run = self
        func strip(_ error: inout String?, _ code: String?) {
            guard code == "decode: missing key", let text = error, !text.hasPrefix("error: "),
                let colon = text.firstIndex(of: " ")
            else { return }
            error = String(text[text.index(after: colon)...])
        }
        strip(&run.elementsError, elementsErrorCode)
        strip(&run.countError, countErrorCode)
        strip(&run.membersError, membersErrorCode)
        strip(&run.intsError, intsErrorCode)
        return run
    }

    /// The error's description and its family: "parse", or "decode: CODE".
    static func describe(_ error: any Error, _ input: FuzzInput) -> (String, String) {
        switch error {
        case let error as ParseError: return ("\(error)", "parse")
        case let error as DecodeError: return ("\(error)", "decode: \(error.code)")
        default: fail("a stream threw neither a ParseError nor a DecodeError", input, "\(type(of: error)): \(error)")
        }
    }

    static func remainder(
        of stream: JSONStream, _ input: FuzzInput, into values: inout [JSONValue?]
    ) -> String {
        do {
            let value = try stream.remainder().decode(as: JSONValue.self)
            values.append(value)
            return "a value"  // compared as `remainders` (a dictionary's description has no fixed order)
        } catch {
            values.append(nil)
            return "error: " + describe(error, input).0
        }
    }

    var description: String {
        """
        elements: \(elements) error: \(elementsError ?? "none")
          remainder: \(elementsRemainder)
        count: \(count.map(String.init) ?? "-") error: \(countError ?? "none")
          remainder: \(countRemainder)
        members: \(zip(members, memberValues).map { "\($0): \($1)" }) error: \(membersError ?? "none")
          remainder: \(membersRemainder)
        ints: \(ints) skipped: \(skipped) error: \(intsError ?? "none")
          remainder: \(intsRemainder)
        remainders: \(remainders.map { $0.map { "\($0)" } ?? "-" })
        """
    }
}

/// Checks the one-thread run against the reference tree.
func check(_ run: StreamRun, against reference: RefDocument, path: JSONKeyPath, oracle: NumberOracle, _ input: FuzzInput) {
    let options = input.oneThread
    func disagree(_ what: String, _ expected: @autoclosure () -> String) -> Never {
        fail("\(what) (path \(path))", input, "expected: \(expected())\nstream run:\n\(run)")
    }

    // The .skip run of Ints sees the same elements: each one an Int or skipped, as the reference says.
    let handed = run.ints.count + run.skippedIndices.count
    if handed != run.elements.count || run.intsError != run.elementsError {
        disagree("elements as Int with .skip stop elsewhere than as JSONValue", "\(run.elements.count) elements, error \(run.elementsError ?? "none")")
    }
    var expectedInts: [Int] = []
    var expectedSkips: [Int] = []
    for (index, element) in run.elements.enumerated() {
        if case .number(let text) = element, case .value(let value) = oracle.int(text) {
            expectedInts.append(value)
        } else {
            expectedSkips.append(index)
        }
    }
    if expectedInts != run.ints || expectedSkips != run.skippedIndices {
        disagree("elements as Int with .skip", "ints \(expectedInts), skipped \(expectedSkips)")
    }

    if run.remainders[3] != run.remainders[0] || run.intsRemainder != run.elementsRemainder {
        disagree("remainder after elements as Int differs from after elements as JSONValue", run.elementsRemainder)
    }

    let topLevel = path.isEmpty && options.allowsMultipleValues
    let noValue = "error: error: the input holds no JSON value"

    if reference.error == nil {
        // A valid input: everything is known.
        let root = reference.values.first
        // elements
        if topLevel || root == nil {
            let expected = topLevel ? reference.values.map(\.jsonValue) : []
            if run.elements != expected || run.elementsError != nil { disagree("top-level elements", "\(expected)") }
            if run.elementsRemainder != noValue { disagree("remainder after top-level elements", noValue) }
        } else if let root {
            check(root.navigate(path, wanting: .array), run.elements, run.elementsError, run.elementsErrorCode, run.remainders[0],
                  root: root, path: path, what: "elements", disagree)
        }
        // count
        if topLevel || root == nil {
            let expected = topLevel ? reference.values.count : 0
            if run.count != expected { disagree("top-level count", "\(expected)") }
            if run.countRemainder != noValue { disagree("remainder after a top-level count", noValue) }
        } else if let root {
            switch root.navigate(path, wanting: nil) {
            case .found(let container):
                if run.count != container.completeChildren.count { disagree("count", "\(container.completeChildren.count)") }
                let remainder = root.emptying(path.components[...]).jsonValue
                if run.remainders[1] != remainder { disagree("remainder after count", "\(remainder)") }
            case .notFound(let code):
                if run.countErrorCode != "decode: \(code)" { disagree("count where the path leads nowhere", code) }
            case .unknown:
                disagree("reference navigation of a valid input is unknown", "")
            }
        }
        // members
        if root == nil {
            if !run.members.isEmpty || run.membersError != nil { disagree("members of an empty input", "none") }
        } else if topLevel, let root {
            // Several top-level values: the members of each in turn, up to a value that is not
            // an object, which ends them with an error.
            var keys: [String] = []
            var values: [JSONValue] = []
            var allObjects = true
            for value in reference.values {
                guard case .object(let members, _) = value else {
                    allObjects = false
                    break
                }
                keys += members.map(\.key)
                values += members.map(\.value.jsonValue)
            }
            if run.members != keys || run.memberValues != values || (run.membersError == nil) != allObjects {
                disagree("members of every top-level value", "\(zip(keys, values).map { "\($0): \($1)" })\(allObjects ? "" : ", then an error")")
            }
            if allObjects {
                let remainder = root.emptying(path.components[...]).jsonValue
                if run.remainders[2] != remainder { disagree("remainder after members of every value", "\(remainder)") }
            }
        } else if let root {
            let navigation = root.navigate(path, wanting: .object)
            if case .found(.object(let members, _)) = navigation {
                if run.members != members.map(\.key) || run.memberValues != members.map(\.value.jsonValue) || run.membersError != nil {
                    disagree("members", "\(members.map { "\($0.key): \($0.value.jsonValue)" })")
                }
                let remainder = root.emptying(path.components[...]).jsonValue
                if run.remainders[2] != remainder { disagree("remainder after members", "\(remainder)") }
            } else if case .notFound(let code) = navigation {
                if run.membersErrorCode != "decode: \(code)" || !run.members.isEmpty { disagree("members where the path leads nowhere", code) }
            } else {
                disagree("reference navigation of a valid input", "\(navigation)")
            }
        }
        return
    }

    // An invalid input: what was handed out must be a prefix of the reference, and an error
    // must come unless what was asked for lies wholly before the error.
    guard let parseError = reference.parseError else { return }
    func checkParseError(_ description: String?, _ code: String?, what: String) {
        guard code == "parse", let description else { return }
        // The stream notes how far it got: "(3 elements of a read before it)".
        let expected = parseError.summary
        let summary = description.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
        let expectedStart = "\(parseError.location): error: \(parseError.message) ("
        if summary != expected && !summary.hasPrefix(expectedStart) {
            disagree("\(what): the stream's parse error is not the reader's", "\(parseError)")
        }
    }
    checkParseError(run.elementsError, run.elementsErrorCode, what: "elements")
    checkParseError(run.countError, run.countErrorCode, what: "count")
    checkParseError(run.membersError, run.membersErrorCode, what: "members")

    if topLevel {
        let complete = reference.values.map(\.jsonValue)
        if run.elements.count > complete.count || Array(complete.prefix(run.elements.count)) != run.elements {
            disagree("top-level elements before the error", "a prefix of \(complete)")
        }
        if run.elementsError == nil { disagree("top-level elements of an invalid input end without an error", "\(parseError)") }
        if run.countError == nil { disagree("a top-level count of an invalid input ends without an error", "\(parseError)") }
        return
    }
    guard let root = reference.first else {
        if run.elementsError == nil || run.countError == nil || run.membersError == nil {
            disagree("requests on an input with no value end without an error", "\(parseError)")
        }
        return
    }
    // elements
    switch root.navigate(path, wanting: .array) {
    case .found(let container):
        let complete = container.completeChildren.map(\.jsonValue)
        if run.elements.count > complete.count || Array(complete.prefix(run.elements.count)) != run.elements {
            disagree("elements before the error", "a prefix of \(complete)")
        }
        if run.elementsError == nil && (!container.isComplete || run.elements != complete) {
            disagree("elements of an unfinished array end without an error", "\(parseError)")
        }
        if run.elementsError != nil && run.elementsErrorCode != "parse" { disagree("elements: a decode error in a found array", "\(parseError)") }
    case .notFound(let code):
        if !run.elements.isEmpty || run.elementsErrorCode != "decode: \(code)" { disagree("elements where the path leads nowhere", code) }
    case .unknown:
        if !run.elements.isEmpty || run.elementsErrorCode != "parse" { disagree("elements where the input fails before the path", "\(parseError)") }
    }
    // count
    switch root.navigate(path, wanting: nil) {
    case .found(let container):
        if let count = run.count, !container.isComplete || count != container.completeChildren.count {
            disagree("count of an unfinished container", "\(parseError)")
        }
        if run.count == nil && run.countErrorCode != "parse" { disagree("count: a decode error in a found container", "\(parseError)") }
    case .notFound(let code):
        if run.countErrorCode != "decode: \(code)" { disagree("count where the path leads nowhere", code) }
    case .unknown:
        if run.countErrorCode != "parse" { disagree("count where the input fails before the path", "\(parseError)") }
    }
    // members
    switch root.navigate(path, wanting: .object) {
    case .found(.object(let members, let complete)):
        let completeMembers = members.filter(\.value.isComplete)
        let keys = completeMembers.map(\.key)
        let values = completeMembers.map(\.value.jsonValue)
        let n = run.members.count
        if n > keys.count || Array(keys.prefix(n)) != run.members || Array(values.prefix(n)) != run.memberValues {
            disagree("members before the error", "a prefix of \(keys)")
        }
        if run.membersError == nil && (!complete || n != keys.count) { disagree("members of an unfinished object end without an error", "\(parseError)") }
    case .notFound(let code):
        if !run.members.isEmpty || run.membersErrorCode != "decode: \(code)" { disagree("members where the path leads nowhere", code) }
    default:
        if !run.members.isEmpty || run.membersErrorCode != "parse" { disagree("members where the input fails before the path", "\(parseError)") }
    }
}

/// Elements of a valid input at a path: the array's elements and the remainder, or the
/// navigation error.
private func check(
    _ navigation: RefNavigation, _ elements: [JSONValue], _ error: String?, _ runCode: String?, _ remainder: JSONValue??,
    root: RefNode, path: JSONKeyPath, what: String, _ disagree: (String, @autoclosure () -> String) -> Never
) {
    switch navigation {
    case .found(let container):
        let expected = container.completeChildren.map(\.jsonValue)
        if elements != expected || error != nil { disagree(what, "\(expected)") }
        let expectedRemainder = root.emptying(path.components[...]).jsonValue
        if remainder != .some(expectedRemainder) { disagree("remainder after \(what)", "\(expectedRemainder)") }
    case .notFound(let code):
        if !elements.isEmpty || runCode != "decode: \(code)" { disagree("\(what) where the path leads nowhere", code) }
    case .unknown:
        disagree("reference navigation of a valid input is unknown", "")
    }
}
