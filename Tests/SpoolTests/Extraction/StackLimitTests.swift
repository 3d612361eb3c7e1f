import Testing
@testable import Spool

/// ``StackLimit`` compares stack addresses with the thread's bounds. It reads where the stack
/// is from the frame, not from a local variable: under AddressSanitizer (which detects use
/// after return by default on Linux) locals live on a "fake stack" on the heap, and a guard
/// comparing their addresses refused shallow documents ("nesting too deep ... (1 levels)") and
/// let deep ones overflow the stack.
@Suite("The stack limit")
struct StackLimitTests {
    /// `limit.isExceeded(at:)`, or at the current address for nil.
    func check(_ limit: inout StackLimit, _ address: UInt? = nil) -> Bool {
        guard let address else { return limit.isExceeded() }
        return limit.isExceeded(at: address)
    }

    @Test func theCurrentAddressIsOnTheThreadsStack() throws {
        let (low, size) = try #require(StackLimit.currentThreadStack())
        let here = StackLimit.currentAddress()
        #expect(here > low && here < low + size)
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
        let pairs = try StreamingJSONDecoder().decode([Pair].self, from: .bytes(Array(#"[{"a":[1]},{"a":[]}]"#.utf8)))
        #expect(pairs == [Pair(a: [1]), Pair(a: [])])
    }

    @Test func onlyAddressesNearTheEndOfTheStackAreTooDeep() throws {
        let (low, size) = try #require(StackLimit.currentThreadStack())
        var limit = StackLimit()
        #expect(check(&limit) == false)
        // Near the end of the stack, within the reserve: too deep.
        #expect(check(&limit, low + 1024) == true)
        #expect(check(&limit, low + StackLimit.reserve(forStackOf: size) + 1024) == false)
        #expect(check(&limit) == false)
    }

    /// An address that is not on the thread's stack (a fake frame's, were one ever compared)
    /// gives no verdict. (Found by the fuzz targets: under their AddressSanitizer build every
    /// decode was refused as too deep.)
    @Test func anAddressOffTheStackIsNeverTooDeep() throws {
        let (low, _) = try #require(StackLimit.currentThreadStack())
        var limit = StackLimit()
        #expect(check(&limit, 4096) == false)
        #expect(check(&limit, low - 4096) == false)
        #expect(check(&limit, low + 1024) == true)
        #expect(check(&limit, 4096) == false)
    }

    @Test func theReserveIsASixteenthBetween32KiBAnd1MiB() {
        #expect(StackLimit.reserve(forStackOf: 512 * 1024) == 32 * 1024)
        #expect(StackLimit.reserve(forStackOf: 8 << 20) == 512 * 1024)
        #expect(StackLimit.reserve(forStackOf: 64 << 20) == 1 << 20)
    }
}
