import Testing

@testable import Spool

/// The strict UTF-8 check of string text (``StringChecks/check(_:validateUTF8:)``) checks the
/// common two- and three-byte sequences in place and the rest out of line: every lead byte
/// with every second byte, and every three-byte lead with every second and third byte, is
/// judged as the standard library's strict UTF-8 validation judges it (RFC 3629: no overlong
/// forms, no encoded surrogates, nothing above U+10FFFF, no stray or missing continuation).
@Suite("String checks: UTF-8")
struct StringChecksUTF8Tests {
    /// Whether `bytes` is valid UTF-8 for the check, which passes escapes and ASCII through.
    static func accepted(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { StringChecks.check($0, validateUTF8: true) == nil }
    }

    static func valid(_ bytes: [UInt8]) -> Bool {
        String(validating: bytes, as: UTF8.self) != nil
    }

    @Test("every lead byte with every second byte, alone and before an ASCII byte")
    func twoBytes() {
        var disagreements: [[UInt8]] = []
        for lead in UInt8(0x80)...0xFF {
            for second in UInt8(0)...0xFF {
                for bytes in [[lead, second], [lead, second, 0x41]] where Self.accepted(bytes) != Self.valid(bytes) {
                    disagreements.append(bytes)
                }
            }
        }
        #expect(disagreements.count == 0, "first: \(disagreements.prefix(5))")
    }

    @Test("every three-byte lead with every second and third byte")
    func threeBytes() {
        var disagreements: [[UInt8]] = []
        for lead in UInt8(0xE0)...0xEF {
            for second in UInt8(0)...0xFF {
                for third in UInt8(0)...0xFF {
                    let bytes = [lead, second, third]
                    if Self.accepted(bytes) != Self.valid(bytes) { disagreements.append(bytes) }
                }
            }
        }
        #expect(disagreements.count == 0, "first: \(disagreements.prefix(5))")
    }

    @Test("a sequence cut short at the end of the text is refused, with its index")
    func truncated() throws {
        for bytes: [UInt8] in [[0xC3], [0x41, 0xE4, 0xB8], [0xE4], [0xF0, 0x9F, 0x98]] {
            let failure = try #require(bytes.withUnsafeBufferPointer { StringChecks.check($0, validateUTF8: true) })
            #expect(failure.index == (bytes[0] == 0x41 ? 1 : 0))
            #expect(failure.message == "invalid UTF-8 in string: truncated sequence")
        }
    }

    @Test("a sequence cut short by the end of the text is refused though continuation bytes follow in memory")
    func truncatedBeforeContinuationBytes() throws {
        // The text is a prefix of a buffer whose next bytes would complete the sequence: a
        // bounds check off by one would read them and accept it.
        for (bytes, length) in [([0xC3, 0xA9] as [UInt8], 1), ([0xE4, 0xB8, 0x80], 1), ([0xE4, 0xB8, 0x80], 2), ([0x41, 0xE4, 0xB8, 0x80], 3)] {
            let failure = try #require(bytes.withUnsafeBufferPointer {
                StringChecks.check(UnsafeBufferPointer(rebasing: $0[0..<length]), validateUTF8: true)
            })
            #expect(failure.message == "invalid UTF-8 in string: truncated sequence", "\(bytes) cut at \(length)")
            #expect(failure.index == (bytes[0] == 0x41 ? 1 : 0))
        }
    }

    @Test("after sequences checked in place, a bad one is refused at its own index")
    func backToBack() throws {
        let cases: [([UInt8], Int, String)] = [
            ([0xE4, 0xB8, 0x80, 0xE0, 0x80, 0x80], 3, "overlong encoding"),
            ([0xC3, 0xA9, 0xED, 0xA0, 0x80], 2, "encoded UTF-16 surrogate"),
            ([0xC3, 0xA9, 0xE4, 0xB8, 0x80, 0xC3, 0x41], 5, "bad continuation byte"),
            ([0xE4, 0xB8, 0x80, 0x80], 3, "unexpected byte 0x80"),
        ]
        for (bytes, index, what) in cases {
            let failure = try #require(bytes.withUnsafeBufferPointer { StringChecks.check($0, validateUTF8: true) })
            #expect(failure.index == index, "\(bytes)")
            #expect(failure.message == "invalid UTF-8 in string: \(what)", "\(bytes)")
        }
    }

    @Test("CJK text and two-byte text with escapes between them pass")
    func mixedText() {
        let text = Array("一二三 é ü \\n \\u00e9 漢字かな".utf8)
        #expect(Self.accepted(text))
    }
}
