extension JSONWriter {
    /// Writes `elements` as one JSON array, each element encoded by `encoder` as it is pulled
    /// from the sequence: memory holds one element at a time, however long the sequence.
    ///
    /// ```swift
    /// let writer = try JSONWriter(toFile: "active.json")
    /// try writer.writeArray(bands.lazy.filter { $0.status == .active })
    /// try writer.finish()
    /// ```
    ///
    /// The array may be a top-level value or nested (after a key, inside another array).
    /// - Throws: the first element's error (`EncodingError`, ``WriteError``); the array is then
    ///   left open, and the failed element taken back out when it can be.
    public func writeArray<Elements: Sequence>(
        _ elements: Elements, encoder: StreamingJSONEncoder = StreamingJSONEncoder()
    ) throws where Elements.Element: Encodable {
        let session = encoder.session(for: self)
        try beginArray()
        for element in elements {
            try session.encodeRoot(element)
        }
        try endArray()
    }

    /// Writes `elements` as JSON Lines: each element encoded by `encoder` as one line, as it
    /// is pulled from the sequence, in constant memory. The writer's format must be
    /// ``Format/lines`` (or ``Format/Layout/jq(indent:)``, each value in jq's layout).
    ///
    /// ```swift
    /// let writer = try JSONWriter(toFile: "records.jsonl", format: .lines)
    /// try writer.writeLines(records)
    /// try writer.finish()
    /// ```
    /// - Throws: ``WriteError/Code-swift.struct/misuse`` for a writer in another format or
    ///   inside a container; otherwise the first element's error (earlier lines stay written).
    public func writeLines<Elements: Sequence>(
        _ elements: Elements, encoder: StreamingJSONEncoder = StreamingJSONEncoder()
    ) throws where Elements.Element: Encodable {
        try checkLinesAtTopLevel()
        let session = encoder.session(for: self)
        for element in elements {
            try session.encodeRoot(element)
        }
    }

    /// Writes the elements of an asynchronous sequence as one JSON array, awaiting each one
    /// and writing it before asking for the next: the descriptor's pace (a slow pipe, a full
    /// socket) is the producer's pace, and memory holds one element at a time.
    /// - Throws: the sequence's error or the first element's; the array is then left open.
    public func writeArray<Elements: AsyncSequence>(
        _ elements: Elements, encoder: StreamingJSONEncoder = StreamingJSONEncoder()
    ) async throws where Elements.Element: Encodable {
        let session = encoder.session(for: self)
        try beginArray()
        for try await element in elements {
            try session.encodeRoot(element)
        }
        try endArray()
    }

    /// Writes the elements of an asynchronous sequence as JSON Lines, awaiting each one and
    /// writing it before asking for the next. The writer's format must be ``Format/lines``.
    /// - Throws: ``WriteError/Code-swift.struct/misuse`` for a writer in another format or
    ///   inside a container; otherwise the sequence's error or the first element's.
    public func writeLines<Elements: AsyncSequence>(
        _ elements: Elements, encoder: StreamingJSONEncoder = StreamingJSONEncoder()
    ) async throws where Elements.Element: Encodable {
        try checkLinesAtTopLevel()
        let session = encoder.session(for: self)
        for try await element in elements {
            try session.encodeRoot(element)
        }
    }

    private func checkLinesAtTopLevel() throws(WriteError) {
        if let blocked { throw blocked }
        guard lines else {
            throw misuse("writeLines needs a writer whose format is .lines (or jq's layout); use writeArray for one JSON array")
        }
        guard outer.isEmpty else { throw misuse("writeLines inside a container: JSON Lines values are top-level values") }
    }
}
