/// An input that could not be opened: every read throws the ``InputError`` the opening gave,
/// so that a reader, stream or decode made from it reports the failure where it reads, as it
/// reports any other input failure.
final class UnopenedSource: ByteSource {
    let name: String
    var totalSize: Int? { nil }
    private let error: InputError

    init(_ error: InputError) {
        self.error = error
        name = error.source
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        throw error
    }

    func rewind() -> Bool { false }
}
