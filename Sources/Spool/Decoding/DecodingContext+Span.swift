extension DecodingContext {
    /// Where the value at `index` lies in the input: its path from the document root, where it
    /// starts, and where it ends (just past its last byte), read on until it is whole. The end
    /// is nil for a string, whose length in the input is not kept once its escapes are decoded.
    func span(ofValueAt index: Int) throws -> (path: JSONKeyPath, start: SourceLocation, end: SourceLocation?) {
        let last = try lastIndex(ofValueAt: index)
        let start = tape.location(at: index)
        let token = tape[last]
        let length: Int?
        switch token.kind {
        case .arrayEnd, .objectEnd: length = 1
        case .number: length = Int(token.length)
        case .true, .null: length = 4
        case .false: length = 5
        case .string, .key, .arrayStart, .objectStart: length = nil
        }
        let end = length.map { length in
            // (No JSON token holds a line break: the end is on its last token's line.)
            let from = last == index ? start : tape.location(at: last)
            return SourceLocation(byteOffset: from.byteOffset + length, line: from.line, column: from.column + length)
        }
        return (path(of: index), start, end)
    }
}
