import Testing
@testable import Spool

@Suite("JSONTestSuite conformance")
struct ConformanceTests {
    static let accepted = Fixtures.names(in: Fixtures.parsingDirectory, prefix: "y_")
    static let rejected = Fixtures.names(in: Fixtures.parsingDirectory, prefix: "n_")
    static let implementationDefined = Fixtures.names(in: Fixtures.parsingDirectory, prefix: "i_")
    static let all = accepted + rejected + implementationDefined
    static let transform = Fixtures.names(in: Fixtures.transformDirectory)

    @Test func suiteIsComplete() {
        #expect(Self.accepted.count == 95)
        #expect(Self.rejected.count == 188)
        #expect(Self.implementationDefined.count == 35)
        #expect(Self.transform.count == 22)
    }

    @Test(arguments: accepted)
    func acceptsEveryYFile(_ name: String) {
        let bytes = Fixtures.bytes(name)
        let outcome = readAll(bytes)
        #expect(outcome.error == nil, "\(name): \(outcome.error.map(String.init(describing:)) ?? "")")
        #expect(!outcome.tokens.isEmpty)
        expectTextIsExact(outcome, source: bytes, name: name)
    }

    @Test(arguments: rejected)
    func rejectsEveryNFile(_ name: String) {
        let outcome = readAll(Fixtures.bytes(name))
        #expect(outcome.error != nil, "\(name) was accepted")
    }

    /// i_ files may go either way, but never crash, and never yield altered text.
    @Test(arguments: implementationDefined)
    func implementationDefinedFilesAreExactOrRejected(_ name: String) {
        let bytes = Fixtures.bytes(name)
        let outcome = readAll(bytes)
        if outcome.error == nil { expectTextIsExact(outcome, source: bytes, name: name) }
    }

    @Test(arguments: transform)
    func transformFilesAreExactOrRejected(_ name: String) {
        let bytes = Fixtures.bytes(name, in: Fixtures.transformDirectory)
        let outcome = readAll(bytes)
        if outcome.error == nil { expectTextIsExact(outcome, source: bytes, name: name) }
    }

    @Test func surrogateTransformsAreRejectedNotAltered() {
        for name in [
            "string_1_escaped_invalid_codepoint.json", "string_2_escaped_invalid_codepoints.json",
            "string_3_escaped_invalid_codepoints.json", "string_1_invalid_codepoint.json",
            "string_2_invalid_codepoints.json", "string_3_invalid_codepoints.json",
        ] {
            let outcome = readAll(Fixtures.bytes(name, in: Fixtures.transformDirectory))
            #expect(outcome.error?.kind == .invalidString, "\(name)")
        }
        let nul = readAll(Fixtures.bytes("string_with_escaped_NULL.json", in: Fixtures.transformDirectory))
        #expect(nul.tokens.first(where: { $0.token == .string })?.text == [0x41, 0x00, 0x42])
    }

    @Test(arguments: [1, 2, 3, 7, 64, 4096])
    func tokensAndErrorsDoNotDependOnChunkSize(_ chunkSize: Int) {
        for name in Self.all {
            let bytes = Fixtures.bytes(name)
            let whole = readAll(bytes, chunkSize: 65_536)
            expectSameOutcome(readAll(bytes, chunkSize: chunkSize), whole, "\(name) at chunk size \(chunkSize)")
        }
    }

    /// Validating without tokens (`skipToEnd()`, lean callbacks) accepts and rejects exactly
    /// what the cursor does, with the same error.
    @Test(arguments: [1, 7, 65_536])
    func validationMatchesTheCursor(_ chunkSize: Int) {
        var options = JSONParsingOptions()
        options.chunkSize = chunkSize
        for name in Self.all {
            let bytes = Fixtures.bytes(name)
            let cursor = readAll(bytes, chunkSize: chunkSize).error
            var validation: ParseError?
            do {
                try JSONReader(.bytes(bytes), options: options).skipToEnd()
            } catch {
                validation = error as? ParseError
            }
            #expect(validation == cursor, "\(name) at chunk size \(chunkSize)")
        }
    }

    /// Every key and string equals an independent decoding of its source text, and every
    /// number is exactly its source text.
    private func expectTextIsExact(_ outcome: ReadOutcome, source: [UInt8], name: String) {
        for record in outcome.tokens {
            let offset = record.location.byteOffset
            switch record.token {
            case .key, .string:
                let expected = ReferenceDecoder.decodeString(source, at: offset)
                #expect(expected == record.text, "\(name): string at \(record.location)")
            case .number:
                let end = offset + record.text.count
                #expect(end <= source.count && Array(source[offset..<end]) == record.text, "\(name): number at \(record.location)")
            default:
                #expect(offset < source.count, "\(name)")
            }
        }
    }
}
