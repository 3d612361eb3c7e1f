/// The key a member lookup looks for: its UTF-8, and what the notes of the keys passed
/// (``DecodingContext/KeysPassed``) need of it, worked out once: its two filter bits and
/// whether it is ASCII.
///
/// A lookup that finds its key at the first member it reads (most of them) notes that member
/// with the key's filter bits, and asks whether an earlier member may have the same key: both
/// need the bits and the ASCII test of the key, which equal the wanted key's. Worked out once
/// per distinct key of a `Decodable` model (``KeyNames``), they cost a lookup nothing; about 25
/// instructions a lookup otherwise.
struct WantedKey {
    let utf8: UnsafeBufferPointer<UInt8>
    /// ``DecodingContext/KeysPassed``'s filter bits for the key.
    let filterBits: (Int, Int)
    let isASCII: Bool

    /// The key `utf8`, its bits and ASCII test worked out now.
    @inline(__always)
    init(_ utf8: UnsafeBufferPointer<UInt8>) {
        self.utf8 = utf8
        filterBits = DecodingContext.KeysPassed.filterBits(utf8)
        isASCII = StringChecks.isASCII(utf8)
    }

    /// The key `utf8`, with the bits and the ASCII test worked out before for the same bytes.
    @inline(__always)
    init(utf8: UnsafeBufferPointer<UInt8>, filterBits: (Int, Int), isASCII: Bool) {
        self.utf8 = utf8
        self.filterBits = filterBits
        self.isASCII = isASCII
    }
}
