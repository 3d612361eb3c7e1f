import Testing
@testable import Spool

/// The room a tape reserves for a document parsed whole before it is decoded
/// (``TokenTape/reserve(forInputOf:)``) stays until the tape goes: the reader compacts the
/// tape as it parses, and a compaction that gave the room back made the tape grow again by
/// doubling, into fresh pages each time (677 page faults a decode of citm_catalog.json).
@Suite("Token tape: reserved room")
struct TapeReservationTests {
    @Test func theReservedRoomOutlastsACompaction() {
        let tape = TokenTape()
        tape.reserve(forInputOf: 2 << 20)
        let (tokens, arena) = (tape.tokenCapacity, tape.arenaCapacity)
        #expect(tokens >= (2 << 20) / 16 && arena >= 2 << 20)
        tape.shrinkIfOversized()
        #expect(tape.tokenCapacity == tokens)
        #expect(tape.arenaCapacity == arena)
    }

    @Test func anUnreservedTapeStillShrinksToItsLimits() {
        let tape = TokenTape(tokenCapacity: 1 << 18, arenaCapacity: 4 << 20)
        tape.shrinkIfOversized()
        #expect(tape.tokenCapacity == 1 << 16)
        #expect(tape.arenaCapacity == 1 << 20)
    }
}
