/// Everything logged for one shipment: calls, their events, and the text yajl handed from
/// its own buffers (decoded escapes, tokens split across calls), which it reuses at once.
final class ParseEventLog {
    private(set) var events: UnsafeMutablePointer<ParseEvent>
    private(set) var count = 0
    private var capacity: Int
    private(set) var side: [UInt8] = []
    var calls: [ParseCall] = []

    init(capacity: Int = 8192) {
        self.capacity = capacity
        events = .allocate(capacity: capacity)
    }

    deinit { events.deallocate() }

    /// Forgets everything, keeping the storage.
    func reset() {
        count = 0
        side.removeAll(keepingCapacity: true)
        calls.removeAll(keepingCapacity: true)
    }

    @inline(__always)
    func append(_ event: ParseEvent) {
        if count == capacity { grow() }
        (events + count).initialize(to: event)
        count &+= 1
    }

    @inline(never)
    private func grow() {
        let fresh = UnsafeMutablePointer<ParseEvent>.allocate(capacity: capacity * 2)
        fresh.moveInitialize(from: events, count: count)
        events.deallocate()
        events = fresh
        capacity *= 2
    }

    /// Copies text to the side bytes; returns its offset there.
    @inline(never)
    func appendSide(_ bytes: UnsafeRawPointer?, count: Int) -> Int {
        let offset = side.count
        if let bytes, count > 0 {
            side.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: count))
        }
        return offset
    }
}
