#if canImport(Glibc)
import Glibc
#endif

/// Writes `text` to standard error.
public func printError(_ text: String) {
    var line = text
    if !line.hasSuffix("\n") { line += "\n" }
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

/// A disagreement: reports it and aborts, which libFuzzer records as a crash.
public func fail(_ what: String, _ input: FuzzInput, _ details: @autoclosure () -> String = "") -> Never {
    printError("SPOOL FUZZ DISAGREEMENT: \(what)\ninput: \(input.shown)\n\(details())")
    abort()
}

/// Disagreements the targets tolerate: behaviours the reference treats as old (the number
/// and duplicate-key semantics being changed on another branch; the reference is written to
/// the new rules), and library bugs already found and reported. A disagreement that is exactly
/// one of these is counted and shown (the first three of each kind) instead of aborting, so
/// the fuzzer keeps looking for other bugs. With `SPOOL_FUZZ_STRICT=1` in the environment
/// they abort like any disagreement (once the library has the new rules and the fixes).
public enum KnownOldBehaviour: String, CaseIterable, Sendable {
    /// A `Double` or `Float` out of range decoded as infinity (new: a type mismatch).
    case infiniteFloatingPoint = "out-of-range Double/Float decoded as infinity"
    /// A `Decimal` with more than 38 significant digits decoded, rounded (new: exact, or throws).
    case longDecimal = "Decimal beyond 38 significant digits decoded (rounded)"
    /// A whole number written with a fraction or exponent (`0e41`) not decoded as an integer.
    case wholeNumberNotInteger = "whole number with fraction/exponent rejected as an integer"
    /// Bug: a stream's missing-key/missing-element error has no location when the container's
    /// start token has left the tape (small chunks), so the error depends on the chunk size.
    case missingKeyWithoutLocation = "BUG: stream's missing-key error loses its location in small chunks"
    /// Bug: `StreamingJSONEncoder` writes two keys that are equal as Swift strings but not byte
    /// for byte (`"\u{E9}"` and `"e\u{301}"`) as two members of one object, where `JSONEncoder`
    /// writes one (the first key, the last value).
    case equivalentKeysWrittenTwice = "BUG: StreamingJSONEncoder writes canonically equivalent keys as two members"

    nonisolated(unsafe) static var counts: [KnownOldBehaviour: Int] = [:]
    nonisolated(unsafe) static var registered = false
    static let strict = getenv("SPOOL_FUZZ_STRICT").map { String(cString: $0) == "1" } ?? false

    /// Counts an occurrence; shows the first three of each kind; aborts when strict.
    public func note(_ input: FuzzInput, _ details: @autoclosure () -> String) {
        if KnownOldBehaviour.strict { fail("tolerated only when not strict: \(rawValue)", input, details()) }
        if !KnownOldBehaviour.registered {
            KnownOldBehaviour.registered = true
            atexit { KnownOldBehaviour.printSummary() }
        }
        let count = KnownOldBehaviour.counts[self, default: 0] + 1
        KnownOldBehaviour.counts[self] = count
        if count <= 3 {
            printError("TOLERATED #\(count): \(rawValue)\ninput: \(input.shown)\n\(details())")
        }
    }

    static func printSummary() {
        for kind in allCases {
            if let count = counts[kind] { printError("tolerated: \(kind.rawValue): \(count) inputs") }
        }
    }
}
