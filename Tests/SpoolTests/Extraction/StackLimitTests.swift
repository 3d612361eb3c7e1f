import Testing
@testable import Spool

/// ``StackLimit`` compares stack addresses with the thread's bounds.
@Suite("The stack limit")
struct StackLimitTests {
    /// `limit.isExceeded(at:)`, or at the current address for nil.
    func check(_ limit: inout StackLimit, _ address: UInt? = nil) -> Bool {
        guard let address else { return limit.isExceeded() }
        return limit.isExceeded(at: address)
    }

    @Test func theThreadsStackIsKnownHere() throws {
        let (low, size) = try #require(StackLimit.currentThreadStack())
        let here = StackLimit.currentAddress()
        #expect(here > low && here < low + size)
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

    /// AddressSanitizer's fake frames (use-after-return detection) put locals on the heap: an
    /// address that is not on the thread's stack gives no verdict. (Found by the fuzz targets:
    /// under their AddressSanitizer build every decode was refused as too deep.)
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
