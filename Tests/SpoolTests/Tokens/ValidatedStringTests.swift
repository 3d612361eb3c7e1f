import Foundation
import Testing
@testable import Spool

/// Strings longer than 15 bytes whose text the parser checked as UTF-8 are made without a
/// second check (``TokenTape/validatedString(_:)``); text it did not check is checked (and
/// repaired) as before.
@Suite("Token tape: strings made from checked text")
struct ValidatedStringTests {
    /// Strings around the inline limit (15 bytes), ASCII or not, with escapes and surrogate
    /// pairs, combining marks and four-byte characters.
    static let strings = [
        "fifteen bytes!!", "sixteen bytes!!!", "a longer ASCII string, well past the inline limit",
        "日本語のテキスト、十六バイトを超える", "café au lait, cafe\u{301} au lait", "emoji 🎉🎉🎉 and more emoji 🧵",
        "Kelvin \u{212A} and ß and \u{0}", "ascii prefix then é", "é then a long ascii suffix, long enough",
    ]

    static var document: Data {
        // Every other string escaped, so that the parser's decoded text is checked as well.
        let encoded = strings.enumerated().map { index, text -> String in
            guard index % 2 == 1 else { return String(decoding: (try? JSONEncoder().encode(text)) ?? Data(), as: UTF8.self) }
            return "\"" + text.unicodeScalars.map { scalar in
                scalar.isASCII && scalar.value >= 0x20 && scalar != "\"" && scalar != "\\" ? String(scalar)
                    : String(scalar.utf16.map { String(format: "\\u%04X", $0) }.joined())
            }.joined() + "\""
        }
        return Data(("[" + encoded.joined(separator: ",") + "]").utf8)
    }

    @Test(arguments: [1, 7, 65536])
    func theStringsAreTheSameAsFoundationsAndBehaveAsStrings(_ chunkSize: Int) throws {
        let decoder = StreamingJSONDecoder()
        decoder.options.chunkSize = chunkSize
        let decoded = try decoder.decode([String].self, from: Self.document)
        #expect(decoded == (try JSONDecoder().decode([String].self, from: Self.document)))
        #expect(decoded == Self.strings)
        for (made, expected) in zip(decoded, Self.strings) {
            // The flags a string keeps (ASCII, NFC) must not be wrong: counting, hashing and
            // comparing go through them.
            #expect(made.count == expected.count)
            #expect(made.unicodeScalars.count == expected.unicodeScalars.count)
            #expect(made.utf16.count == expected.utf16.count)
            #expect(Set([made, expected]).count == 1)
            #expect(made.lowercased() == expected.lowercased())
            #expect(made.hasPrefix(String(expected.prefix(3))))
        }
    }

    @Test func theFastWayKeepsTheASCIIFlagRight() {
        for text in Self.strings {
            var copy = text
            let made = copy.withUTF8 { TokenTape.validatedString($0) }
            #expect(made == text)
            #expect(made.count == text.count)
            #expect(made.utf8.elementsEqual(text.utf8))
        }
    }

    @Test func textTheParserDidNotCheckIsRepairedNotTrusted() throws {
        // A string longer than 15 bytes with a byte that is not UTF-8, read without checks.
        let bytes = Array("[\"a long string with a bad byte: ".utf8) + [0xFF] + Array(" and more\"]".utf8)
        var options = JSONParsingOptions()
        options.validatesUTF8 = false
        let reader = JSONReader(.bytes(bytes), options: options)
        _ = try reader.next()
        _ = try reader.next()
        #expect(!reader.tape.textIsValidUTF8)
        #expect(reader.text == "a long string with a bad byte: \u{FFFD} and more")
        let decoder = StreamingJSONDecoder()
        decoder.options = options
        #expect(try decoder.decode([String].self, from: Data(bytes)) == ["a long string with a bad byte: \u{FFFD} and more"])
    }

    @Test func aBatchThatDoesNotVouchForItsTextClearsTheTapesWord() {
        let tape = TokenTape()
        tape.textIsValidUTF8 = true
        let batch = TokenTape()
        batch.textIsValidUTF8 = false
        tape.moveContents(of: batch)
        #expect(!tape.textIsValidUTF8)
        let vouched = TokenTape()
        vouched.textIsValidUTF8 = true
        let checked = TokenTape()
        checked.textIsValidUTF8 = true
        vouched.moveContents(of: checked)
        #expect(vouched.textIsValidUTF8)
    }
}
