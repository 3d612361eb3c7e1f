import Testing
@testable import Spool

/// Expects `outcome` to have `expected`'s tokens and error (message, location, path).
func expectSameOutcome(
    _ outcome: ReadOutcome, _ expected: ReadOutcome, _ comment: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    #expect(outcome.tokens == expected.tokens, "\(comment)", sourceLocation: sourceLocation)
    #expect(outcome.error?.message == expected.error?.message, "\(comment)", sourceLocation: sourceLocation)
    #expect(outcome.error?.location == expected.error?.location, "\(comment)", sourceLocation: sourceLocation)
    #expect(outcome.error?.path == expected.error?.path, "\(comment)", sourceLocation: sourceLocation)
}
