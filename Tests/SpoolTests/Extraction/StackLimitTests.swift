import Testing
@testable import Spool

/// The stack-depth guard reads where the stack is from the frame, not from a local variable:
/// under AddressSanitizer (`swift test --sanitize=address`, which detects use after return by
/// default on Linux), locals live on a "fake stack" on the heap, and a guard comparing their
/// addresses refused shallow documents ("nesting too deep ... (1 levels)") and let deep ones
/// overflow the stack.
@Suite("Stack limit")
struct StackLimitTests {
    @Test func theCurrentAddressIsOnTheThreadsStack() throws {
        let stack = try #require(StackLimit.currentThreadStack())
        let here = StackLimit.currentAddress()
        #expect(here > stack.low && here < stack.low + stack.size)
    }

    @Test func theCurrentAddressIsOnASmallThreadsStack() throws {
        let run = SmallStack.run { () -> Bool in
            guard let stack = StackLimit.currentThreadStack() else { return false }
            let here = StackLimit.currentAddress()
            return here > stack.low && here < stack.low + stack.size
        }
        #expect(try run.result.get())
    }

    @Test func aShallowDocumentIsNotRefused() throws {
        struct Pair: Codable, Equatable { var a: [Int] }
        let pairs = try StreamingJSONDecoder().decode([Pair].self, from: Array(#"[{"a":[1]},{"a":[]}]"#.utf8))
        #expect(pairs == [Pair(a: [1]), Pair(a: [])])
    }
}
