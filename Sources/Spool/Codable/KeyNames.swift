/// The UTF-8 of coding keys' string values, made once per session (one decode call or one
/// stream) for each key of a plain type, so that a member lookup does not ask the key for its
/// `stringValue` every time.
///
/// A model's `init(from:)` asks its container for one key per field, and a synthesized
/// `CodingKeys` enum is one byte of plain data: asking it for its `stringValue` (a call through
/// its witness table), reaching the string's bytes and releasing it cost about 50 instructions a
/// lookup, 0.7M of a decode of twitter.json. Here a key of an enum type of plain data of at
/// most eight bytes (``CurrentKey/plainBits(of:)``, ``isEnum(_:)``) is found by its type and
/// its bytes in an open-addressed table: a hash and one comparison.
///
/// Only enums: their `stringValue` is taken to depend on their case (and its payload of plain
/// data) alone, as it does for every synthesized `CodingKeys`. A struct key may well name
/// itself from elsewhere (an index into a table of names the model filled, a name made from
/// a field read earlier in the object), and is asked every time, as before.
///
/// At most ``maxNames`` keys, and ``maxTextBytes`` bytes of their text, are kept, so that a
/// stream whose model makes keys from its data (integer keys, say) does not grow the table
/// without end; past that, keys are asked for their `stringValue` as before.
struct KeyNames {
    private struct Slot {
        /// The key's type (`ObjectIdentifier`'s bits), 0 for an empty slot.
        var type: UInt
        var bits: UInt64
        var offset: Int32
        var count: Int32
        /// The text's ``WantedKey`` filter bits and ASCII test.
        var firstBit: UInt16
        var secondBit: UInt16
        var isASCII: Bool

        static let empty = Slot(type: 0, bits: 0, offset: 0, count: 0, firstBit: 0, secondBit: 0, isASCII: false)
    }

    /// The table: one empty slot until the first key is noted.
    private var slots: UnsafeMutablePointer<Slot>
    private var mask = 0
    private var used = 0
    private var text: UnsafeMutablePointer<UInt8>?
    private var textCount = 0
    private var textCapacity = 0

    static let maxNames = 4096
    static let maxTextBytes = 1 << 18

    init() {
        slots = UnsafeMutablePointer<Slot>.allocate(capacity: 1)
        slots.initialize(to: .empty)
    }

    /// Frees the table: its owner's `deinit` calls this, once.
    func deallocate() {
        slots.deallocate()
        text?.deallocate()
    }

    /// Whether `type` is an enum, read from its metadata: the first word of a value type's
    /// metadata is its kind, 0x201 for an enum in the Swift ABI (`MetadataKind::Enum`; a
    /// struct is 0x200, `Optional` 0x202). Two loads, where a `Mirror` would cost a
    /// conformance scan the first time. (The tests check the answer for enums and structs.)
    @inline(__always)
    static func isEnum(_ type: Any.Type) -> Bool {
        unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: UInt.self) == 0x201
    }

    /// Whether no more keys are noted.
    var isFull: Bool { used >= Self.maxNames || textCount >= Self.maxTextBytes }

    @inline(__always)
    private static func hash(_ type: UInt, _ bits: UInt64) -> Int {
        let mixed = (UInt64(truncatingIfNeeded: type) >> 4 ^ bits) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed >> 32)
    }

    /// The `stringValue` of the key of type `type` whose bytes are `bits`, or nil when it was
    /// not noted (``insert(type:bits:name:)``). Its buffer is valid until the next key is noted.
    @inline(__always)
    func wanted(type: UInt, bits: UInt64) -> WantedKey? {
        var index = Self.hash(type, bits) & mask
        while true {
            let slot = slots[index]
            if slot.type == type && slot.bits == bits, let text { return Self.wanted(slot, text) }
            if slot.type == 0 { return nil }
            index = (index &+ 1) & mask
        }
    }

    @inline(__always)
    private static func wanted(_ slot: Slot, _ text: UnsafeMutablePointer<UInt8>) -> WantedKey {
        WantedKey(
            utf8: UnsafeBufferPointer(start: text + Int(slot.offset), count: Int(slot.count)),
            filterBits: (Int(slot.firstBit), Int(slot.secondBit)), isASCII: slot.isASCII)
    }

    /// Notes `name`, the text of the key of type `type` whose bytes are `bits`, and returns it
    /// as ``wanted(type:bits:)`` does; nil when the table is full.
    @inline(never)
    mutating func insert(type: UInt, bits: UInt64, name: String) -> WantedKey? {
        var name = name
        return name.withUTF8 { bytes -> WantedKey? in
            guard type != 0, used < Self.maxNames, textCount &+ bytes.count <= Self.maxTextBytes else { return nil }
            if text == nil || textCount &+ bytes.count > textCapacity {
                var capacity = max(textCapacity &* 2, 1024)
                while capacity < textCount &+ bytes.count { capacity &*= 2 }
                let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
                if let text {
                    grown.update(from: text, count: textCount)
                    text.deallocate()
                }
                text = grown
                textCapacity = capacity
            }
            guard let text else { return nil }
            if let base = bytes.baseAddress { (text + textCount).update(from: base, count: bytes.count) }
            let key = WantedKey(UnsafeBufferPointer(start: text + textCount, count: bytes.count))
            let slot = Slot(
                type: type, bits: bits, offset: Int32(textCount), count: Int32(bytes.count),
                firstBit: UInt16(key.filterBits.0), secondBit: UInt16(key.filterBits.1), isASCII: key.isASCII)
            textCount &+= bytes.count
            if (used &+ 1) &* 2 > mask &+ 1 { grow() }
            place(slot)
            used &+= 1
            return key
        }
    }

    private mutating func place(_ slot: Slot) {
        var index = Self.hash(slot.type, slot.bits) & mask
        while slots[index].type != 0 { index = (index &+ 1) & mask }
        slots[index] = slot
    }

    private mutating func grow() {
        let old = slots
        let oldCapacity = mask &+ 1
        let capacity = max(oldCapacity &* 2, 64)
        slots = UnsafeMutablePointer<Slot>.allocate(capacity: capacity)
        slots.initialize(repeating: .empty, count: capacity)
        mask = capacity &- 1
        for index in 0..<oldCapacity where old[index].type != 0 { place(old[index]) }
        old.deallocate()
    }
}
