#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Why JSON is written in Swift, not with yajl's generator (yajl_gen).
//
// Measured in release builds on this 2-core shared machine (Benchmarks: `SpoolBench gen-yajl-c`,
// `gen-yajl`, `gen-writer`, WriterChoice.swift): an array of 1,000,000 small objects
// (`{"id":…,"name":…,"active":…,"rating":…,"tags":[…],"homepage":"https:\/\/…"}`, 143 MB) to
// /dev/null, 7 alternating rounds, median CPU time (user + sys; wall time moved with the load):
//
//   yajl_gen, all in C (numbers by snprintf)                 0.46 s   311 MB/s
//   yajl_gen driven from Swift token by token                0.41 s   349 MB/s
//   JSONWriter (this file)                                   0.31 s   462 MB/s
//
// (A first run, before the writer's stored properties were `@exclusivity(unchecked)`, gave
// 0.48 s, 0.44 s and 0.39 s.)
//
// The Swift writer is the fastest of the three, and yajl_gen could not give the output Spool
// needs anyway: it escapes control characters in uppercase hex (`\u001F`; JSONEncoder writes
// `\u001f`), formats doubles with `%.20g` (`0.10000000000000000555`, not the shortest
// round-trip text), lays pretty output out as `"key": value` (JSONEncoder: `"key" : value`),
// has no JSON Lines mode, and would put C calls on every token. Decision: a Swift writer over
// one reusable buffer; yajl stays the parser only.

/// Writes JSON as a stream, token by token, to a file descriptor, a file or memory.
///
/// ```swift
/// let writer = try JSONWriter(toFile: "band.json", format: .pretty())
/// try writer.beginObject()
/// try writer.key("name")
/// try writer.string("Sigur Rós")
/// try writer.key("formed")
/// try writer.number(1994)
/// try writer.endObject()
/// try writer.finish()                     // checks balance, flushes, closes the file
/// ```
///
/// Bytes gather in one reusable buffer that is written out whenever it fills (about 64 KiB),
/// so memory stays flat however much is written. A partial `write(2)` is continued, `EINTR`
/// retried, and a non-blocking descriptor that is full (`EAGAIN`) waited for with `poll`.
/// A failed write throws a ``WriteError`` with the `errno`, and every later call throws it
/// again. (`EPIPE` reaches the writer only when the process ignores `SIGPIPE`; by default the
/// signal ends the process first.)
///
/// Calls are checked as they come: a value where a key is due, a key where a value is due, an
/// unbalanced end, a second top-level value outside ``Format/lines``, or any call after
/// ``finish()`` throws ``WriteError/Code-swift.struct/misuse`` or
/// ``WriteError/Code-swift.struct/closed`` and writes nothing, so the output is always well-formed
/// up to its last complete value. Values JSON cannot hold (NaN, infinity, invalid UTF-8,
/// malformed number text) are refused the same way.
///
/// Strings are escaped as `JSONEncoder` escapes them: `\"`, `\\`, `\/` (unless
/// ``Format/escapesSlashes`` is off), `\b \f \n \r \t`, other control characters as `\u00xx`
/// (lowercase hex), everything else as UTF-8. Doubles are written in their shortest form that
/// reads back to the same value, without a trailing `.0` (`100`, `0.1`, `1e+21`, `5e-324`).
///
/// To write `Encodable` values, pass the writer to ``StreamingJSONEncoder/encode(_:to:)``, or
/// write a whole sequence with `writeArray(_:encoder:)` or `writeLines(_:encoder:)`.
///
/// A writer is not thread-safe; use it from one task at a time.
public final class JSONWriter {
    /// One open container, or the top level.
    struct Frame {
        enum Kind: UInt8 { case root, object, array }
        var kind: Kind
        /// In an object: a key was written, and its value is due.
        var awaitingValue = false
        /// An object whose members are sorted by key when it ends (an encoder's `.sortedKeys`).
        var sorted = false
        /// An object an encoder writes: a key written again replaces the earlier member, or
        /// continues its container (JSONWriter+Members.swift).
        var checksKeys = false
        /// Its keys are indexed in ``keyIndexes`` at its depth (an object of many members).
        var indexed = false
        /// Some of its keys were copied to ``flushedKeys`` at its depth before their bytes were
        /// flushed.
        var keysFlushed = false
        // Record indices in 32 bits keep a frame at 32 bytes, which keeps pushing and popping
        // frames cheap. (2^31 records would take 80 GB.)
        private var memberBase32: Int32 = -1
        private var replacedMember32: Int32 = -1
        /// Values (top level, array) or members (object) begun so far.
        var count = 0
        /// Bits of its keys' hashes (``keyBit(_:count:)``): a key whose bit is clear is new.
        var keyBloom: UInt64 = 0

        init(kind: Kind) { self.kind = kind }

        /// For an object whose members are recorded (sorted, or checking keys): the index in
        /// ``members`` of its first member's record, else -1.
        var memberBase: Int {
            @inline(__always) get { Int(memberBase32) }
            set { memberBase32 = Int32(truncatingIfNeeded: newValue) }
        }

        /// The record of an earlier member with the key written last, to take out once the new
        /// member is complete; else -1.
        var replacedMember: Int {
            @inline(__always) get { Int(replacedMember32) }
            set { replacedMember32 = Int32(truncatingIfNeeded: newValue) }
        }
    }

    /// The buffer, `capacity` bytes, the first `count` of them written and not yet flushed.
    @exclusivity(unchecked) var buffer: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) var capacity: Int
    @exclusivity(unchecked) var count = 0
    let output: Output
    /// Bytes handed to the descriptor so far.
    @exclusivity(unchecked) var bytesFlushed = 0

    /// How the output is laid out.
    public let format: Format
    /// Each element and member on its own line, indented.
    let pretty: Bool
    /// Any number of top-level values, each followed by a line feed (``Format/lines``, jq's
    /// layout), unless the writer's top level is nested in another writer's output.
    let lines: Bool
    /// jq's way (``Format/jq(indent:)``): its layout, `"key": value` and empty containers as
    /// `[]` and `{}` (the line feed after an opening bracket comes with the first element),
    /// and its escapes, U+007F written as `\u007f`.
    let jqStyle: Bool
    /// Every object's members are sorted by key when it ends (``Format/sortsKeys``).
    let sortsKeys: Bool
    let escapesSlashes: Bool
    let indentWidth: Int
    /// The widest indentation (``Format/maxIndentation``, in whole levels), or `Int.max`.
    let indentationLimit: Int
    /// The nesting level of this writer's top level: non-zero for the side writers an encoder
    /// uses for `superEncoder()`, whose output is spliced in deeper.
    var baseLevel = 0

    /// The innermost open container (or the top level), and the ones around it.
    @exclusivity(unchecked) var current = Frame(kind: .root)
    @exclusivity(unchecked) var outer = LevelStack<Frame>(capacity: 16)

    /// The members of the open objects that record them (sorted, or checking keys), innermost
    /// last.
    @exclusivity(unchecked) var members = LevelStack<MemberRecord>(capacity: 32)
    /// Reasons not to flush: open sorted objects (their bytes get reordered) and members waiting
    /// to replace an earlier one (whose bytes get taken out).
    @exclusivity(unchecked) var flushHolds = 0
    /// The records before this index have their keys out of the buffer (copied when flushed).
    @exclusivity(unchecked) var keysInBufferFrom = 0
    /// By depth: the keys of an open object's members whose bytes were flushed.
    @exclusivity(unchecked) var flushedKeys: [[UInt8]] = []
    /// By depth: the key index of an open object of many members.
    @exclusivity(unchecked) var keyIndexes: [KeyIndex] = []
    /// Reused while sorting.
    @exclusivity(unchecked) var sortScratch: [Int] = []

    // Stored properties are `@exclusivity(unchecked)`, as on the token tape: the writer is used
    // from one task at a time, and dynamic exclusivity checks cost a tenth of its time.

    /// Set by `finish()` or by a failure: every later call throws it.
    @exclusivity(unchecked) var blocked: WriteError?
    private var finished = false

    /// Lines up to this many bytes go out whole (see the public property).
    private var lineLimit = 0
    /// The last byte written out was not a line feed: part of the unfinished line is out.
    private var outputEndsInsideLine = false

    /// A writer to `output`. A `nested` writer's top level sits inside another writer's
    /// output (the side writers of `superEncoder()`): its values end without a line feed.
    init(output: Output, format: Format, initialCapacity: Int, nested: Bool = false) {
        self.output = output
        self.format = format
        pretty = format.isPretty
        lines = format.writesLines && !nested
        jqStyle = format.isJQ
        sortsKeys = format.sortsKeys
        escapesSlashes = format.escapesSlashes
        indentWidth = format.indentWidth
        indentationLimit = format.indentationLimit
        capacity = max(initialCapacity, 64)
        if let memory = malloc(capacity) {
            buffer = memory.assumingMemoryBound(to: UInt8.self)
        } else {
            // No memory for even a small buffer: a writer that refuses every call.
            capacity = 0
            buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
            blocked = WriteError(code: .output, errno: ENOMEM, message: "cannot allocate the writer's buffer")
        }
    }

    /// A writer that keeps its output in memory; read it with ``bytes`` or ``data``.
    public convenience init(format: Format = .compact) {
        self.init(output: .memory, format: format, initialCapacity: 1024)
    }

    /// A writer to an open file descriptor (a file, a pipe, a socket). The caller keeps owning
    /// the descriptor: ``finish()`` flushes but does not close it.
    public convenience init(fileDescriptor: Int32, format: Format = .compact) {
        self.init(
            output: .descriptor(fileDescriptor, name: "fd \(fileDescriptor)", closes: false), format: format,
            initialCapacity: Self.flushSize)
    }

    /// A writer to the file at `path`, created (or truncated, when it exists) now and closed by
    /// ``finish()``.
    /// - Throws: ``WriteError`` with code ``WriteError/Code-swift.struct/output`` and the
    ///   `errno` when the file cannot be opened.
    public convenience init(toFile path: String, format: Format = .compact) throws(WriteError) {
        let descriptor = try Self.openForWriting(path)
        self.init(output: .descriptor(descriptor, name: path, closes: true), format: format, initialCapacity: Self.flushSize)
    }

    /// A writer to standard output (descriptor 1), which stays open after ``finish()``.
    public static func standardOutput(format: Format = .compact) -> JSONWriter {
        JSONWriter(output: .descriptor(1, name: "<stdout>", closes: false), format: format, initialCapacity: flushSize)
    }

    /// The buffer size at which a descriptor writer writes out.
    static let flushSize = 1 << 16

    deinit {
        if case .descriptor(let descriptor, let name, let closes) = output {
            // Best effort for a writer dropped without finish(): nothing is left to report to.
            if !finished && blocked == nil && count > 0 {
                var written = 0
                try? Self.writeAll(buffer, count: count, to: descriptor, name: name, offset: &written)
            }
            if closes && !finished { close(descriptor) }
        }
        if capacity > 0 { free(buffer) } else { buffer.deallocate() }
        members.deallocate()
        outer.deallocate()
    }

    // MARK: - Reading the output

    /// What a memory writer holds: everything written so far (also before ``finish()``), or
    /// since the last ``takeOutput()``. For a descriptor writer, the bytes not yet flushed
    /// (after a failed write, those the descriptor did not take).
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: buffer, count: count)) }

    /// For a memory writer: the bytes written since the last call (or since the start), handed
    /// over and forgotten, so that a long output (an HTTP response body) goes out piece by
    /// piece in bounded memory. Bytes an encoder holds back (an object it sorts, a member that
    /// may still be replaced) stay until it lets them go. Empty for a descriptor writer.
    ///
    /// ```swift
    /// let writer = JSONWriter()
    /// try writer.beginArray()
    /// try writer.number(1)
    /// let first = writer.takeOutput()       // [1
    /// try writer.number(2)
    /// try writer.endArray()
    /// try writer.finish()
    /// let rest = writer.takeOutput()        // ,2]
    /// ```
    public func takeOutput() -> [UInt8] {
        var taken: [UInt8] = []
        moveOut(into: &taken)
        return taken
    }

    /// ``bytes`` as `Data`.
    public var data: Data { Data(bytes: buffer, count: count) }

    /// The number of containers open now: 0 at the top level.
    public var depth: Int { outer.count }

    /// Whether ``finish()`` has completed.
    public var isFinished: Bool { finished }

    /// The bytes the output has taken so far. For a memory writer, all of them (``bytes`` and
    /// those taken by ``takeOutput()``).
    /// For a descriptor writer, those `write(2)` accepted, and not those still in the buffer,
    /// which ``flush()``, ``finish()`` or a full buffer write out (``bytes`` holds them): after
    /// ``finish()``, the size of the output; after a failed write, exactly what reached the
    /// descriptor before the failure (a partial write included), never the bytes it refused.
    public var bytesWritten: Int {
        if case .memory = output { return bytesFlushed &+ count }
        return bytesFlushed
    }

    /// Where the buffer's end is in the whole output: the bytes flushed plus those buffered.
    /// Offsets in ``members`` and an encoder's value starts are counted this way.
    var outputPosition: Int { bytesFlushed &+ count }

    /// Lines up to this many bytes long go out whole. When its buffer fills, a descriptor
    /// writer normally writes all of it out, ending wherever the last value ended. With a
    /// positive limit it writes out only up to its last line feed and keeps the unfinished
    /// line, letting the buffer grow while that line is at most `wholeLineLimit` bytes; a
    /// longer line may go out in pieces. The buffer grows to about twice the limit at most.
    ///
    /// With ``finishAtLineBoundary()``, output that an error stops then ends with whole
    /// lines: in ``Format/lines``, whole values. Default 0 (off). `spool` uses 1 MiB.
    public var wholeLineLimit: Int {
        get { lineLimit }
        set { lineLimit = max(newValue, 0) }
    }

    // MARK: - Containers

    /// Writes `{`: an object begins, and ``key(_:)`` is due.
    public func beginObject() throws(WriteError) {
        try openContainer(.object, sorted: false)
    }

    /// Writes `}`, ending the innermost container, which must be an object whose last key has
    /// its value.
    public func endObject() throws(WriteError) {
        try closeContainer(.object)
    }

    /// Writes `[`: an array begins.
    public func beginArray() throws(WriteError) {
        try openContainer(.array, sorted: false)
    }

    /// Writes `]`, ending the innermost container, which must be an array.
    public func endArray() throws(WriteError) {
        try closeContainer(.array)
    }

    /// Writes an object key; its value is due next.
    public func key(_ key: String) throws(WriteError) {
        try beginKey()
        let start = count
        try writeQuoted(key)
        if current.memberBase >= 0 { recordKey(start: start, escaped: count - start - 2 != key.utf8.count) }
        try writeColon()
    }

    /// Writes an object key given as UTF-8 bytes; they must be valid UTF-8.
    /// - Throws: ``WriteError/Code-swift.struct/invalidValue`` for invalid UTF-8, before
    ///   anything is written.
    public func key<Bytes: Collection>(utf8 bytes: Bytes) throws(WriteError) where Bytes.Element == UInt8 {
        try withContiguousBytes(bytes) { (text) throws(WriteError) in
            try Self.validateUTF8(text, what: "key")
            try writeKey(text)
        }
    }

    /// Writes an object key whose UTF-8 is known to be valid.
    func writeKey(_ text: UnsafeBufferPointer<UInt8>) throws(WriteError) {
        try beginKey()
        let start = count
        try writeQuoted(text)
        if current.memberBase >= 0 { recordKey(start: start, escaped: count - start - 2 != text.count) }
        try writeColon()
    }

    // MARK: - Scalars

    /// Writes `true` or `false`.
    public func bool(_ value: Bool) throws(WriteError) {
        try beginValue()
        try reserve(5)
        if value { appendASCII("true") } else { appendASCII("false") }
        try endValue()
    }

    /// Writes `null`.
    public func null() throws(WriteError) {
        try beginValue()
        try reserve(4)
        appendASCII("null")
        try endValue()
    }

    // MARK: - Ending

    /// Writes out what the buffer holds now, rather than when it fills. Does nothing for a
    /// memory writer, after ``finish()``, or while an encoder holds bytes back (a sorted object
    /// is open, or a member about to replace one written with the same key).
    public func flush() throws(WriteError) {
        if finished { return }
        if let blocked { throw blocked }
        if flushHolds == 0 { try writeOut() }
    }

    /// Ends the output: checks that every container is closed and a value was written (any
    /// number of values, none included, for ``Format/lines``), flushes, and closes a file the
    /// writer opened. Later calls that write throw; a second `finish()` does nothing.
    /// - Throws: ``WriteError/Code-swift.struct/misuse`` when the document is incomplete (the
    ///   writer stays usable, so it can be completed), or an output error.
    public func finish() throws(WriteError) {
        if finished { return }
        if let blocked { throw blocked }
        guard outer.isEmpty else {
            throw misuse(
                "finish() with \(outer.count) container\(outer.count == 1 ? "" : "s") still open: end \(outer.count == 1 ? "it" : "them") first")
        }
        guard lines || current.count > 0 else { throw misuse("finish() before any value was written") }
        try finishWriting()
    }

    /// Writes out the buffer, closes a file the writer opened, and marks the writer finished.
    private func finishWriting() throws(WriteError) {
        try writeOut()
        if case .descriptor(let descriptor, let name, let closes) = output, closes {
            if close(descriptor) != 0 && errno != EINTR {
                let error = Self.outputError(errno, operation: "close", name: name)
                blocked = error
                finished = true
                throw error
            }
        }
        finished = true
        blocked = WriteError(code: .closed, message: "the writer is finished: nothing more can be written")
    }

    /// Ends output that an error stopped (an invalid input being copied, a value that failed)
    /// at a line boundary: writes out the buffer up to its last line feed and drops the
    /// unfinished line after it, so the output ends with the last whole line. If part of that
    /// line was written out already (it was longer than ``wholeLineLimit``), the rest of it
    /// is written and a line feed ends it. Nothing is written when nothing was. A memory
    /// writer keeps ``bytes`` up to the last line feed.
    ///
    /// The members of a sorted object still open (``Format/sortsKeys``) are not in order yet:
    /// the output ends before the line of the first of them.
    ///
    /// The writer is finished, as by ``finish()``, whether or not the document was complete:
    /// later calls that write throw ``WriteError/Code-swift.struct/closed``.
    /// - Throws: the output error that stopped the writer, or one met now.
    public func finishAtLineBoundary() throws(WriteError) {
        if finished { return }
        if let blocked, blocked.code == .output { throw blocked }
        var end = count
        if let held = firstSortedMemberStart() { end = min(end, max(held &- bytesFlushed, 0)) }
        let lineStart = Self.lineStart(buffer, count: end)
        let endsLine = lineStart == 0 && outputEndsInsideLine
        if endsLine {
            count = end
            try reserve(1)
            append(0x0A)
        } else {
            count = lineStart
        }
        blocked = nil
        try finishWriting()
    }

    /// Where the first member of the outermost open sorted object starts (an offset in the
    /// output, in the buffer: nothing is flushed while a sorted object is open), or nil.
    private func firstSortedMemberStart() -> Int? {
        for level in 0...outer.count {
            let frame = level < outer.count ? outer[level] : current
            if frame.sorted && frame.memberBase >= 0 {
                return frame.memberBase < members.count ? members[frame.memberBase].start : nil
            }
        }
        return nil
    }

    /// The index after the last line feed in the first `count` bytes at `bytes`, or 0.
    static func lineStart(_ bytes: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        // Pretty output and JSON Lines have a line feed near the end; look there first.
        var index = count
        let near = max(count &- 256, 0)
        while index > near {
            if bytes[index &- 1] == 0x0A { return index }
            index &-= 1
        }
        // Then the last line feed before that, if any, from the front (memchr is fast).
        var found = 0
        var from = 0
        while from < near, let hit = memchr(bytes + from, 0x0A, near &- from) {
            found = bytes.distance(to: hit.assumingMemoryBound(to: UInt8.self)) &+ 1
            from = found
        }
        return found
    }

    // MARK: - Internals: structure

    /// Checks that a value is due here, and writes the separator and indentation before it.
    @inline(__always)
    func beginValue() throws(WriteError) {
        if let blocked { throw blocked }
        switch current.kind {
        case .object:
            guard current.awaitingValue else { throw valueWhereKeyIsDue() }
            current.awaitingValue = false
        case .array:
            try writeSeparator()
            current.count &+= 1
        case .root:
            guard current.count == 0 || lines else { throw secondTopLevelValue() }
            current.count &+= 1
        }
    }

    /// After a value: a line feed ends a top-level value in ``Format/lines``.
    @inline(__always)
    func endValue() throws(WriteError) {
        if lines && current.kind == .root {
            try reserve(1)
            append(0x0A)
        }
    }

    /// Checks that a key is due here, and writes the separator and indentation before it.
    @inline(__always)
    func beginKey() throws(WriteError) {
        if let blocked { throw blocked }
        guard current.kind == .object, !current.awaitingValue else { throw keyNotDue() }
        if current.sorted || current.replacedMember >= 0 { endLastMember() }
        try writeSeparator()
        current.count &+= 1
    }

    @inline(__always)
    func writeColon() throws(WriteError) {
        if pretty {
            try reserve(3)
            if !jqStyle { append(0x20) }
            append(UInt8(ascii: ":"))
            append(0x20)
        } else {
            try reserve(1)
            append(UInt8(ascii: ":"))
        }
        current.awaitingValue = true
    }

    /// `,` before every element or member but the first; in pretty output, also a line feed,
    /// and the indentation before every one. (In jq's layout, the first one's line feed too:
    /// an empty container has none.)
    @inline(__always)
    func writeSeparator() throws(WriteError) {
        if pretty {
            let indent = indentation(atLevel: baseLevel &+ outer.count)
            try reserve(indent &+ 2)
            if current.count > 0 {
                append(UInt8(ascii: ","))
                append(0x0A)
            } else if jqStyle {
                append(0x0A)
            }
            appendSpaces(indent)
        } else if current.count > 0 {
            try reserve(1)
            append(UInt8(ascii: ","))
        }
    }

    /// Writes `{` or `[` as the value due here. An object can be `sorted` (its members
    /// reordered by key when it ends) and can check its keys (`checksKeys`: a key written again
    /// replaces or continues the earlier member, see JSONWriter+Members.swift).
    func openContainer(_ kind: Frame.Kind, sorted: Bool, checksKeys: Bool = false) throws(WriteError) {
        try beginValue()
        try reserve(2)
        append(kind == .object ? UInt8(ascii: "{") : UInt8(ascii: "["))
        if pretty && !jqStyle { append(0x0A) }
        pushFrame(kind, sorted: sorted, checksKeys: checksKeys)
    }

    /// Makes a container whose opening bracket is written the one on top. An object is
    /// sorted when asked, or when the format sorts every object.
    @inline(__always)
    func pushFrame(_ kind: Frame.Kind, sorted: Bool, checksKeys: Bool) {
        let sorted = sorted || (sortsKeys && kind == .object)
        outer.push(current)
        current = Frame(kind: kind)
        if sorted || checksKeys {
            current.memberBase = members.count
            current.sorted = sorted
            current.checksKeys = checksKeys
            if sorted { flushHolds &+= 1 }
        }
    }

    func closeContainer(_ kind: Frame.Kind) throws(WriteError) {
        if let blocked { throw blocked }
        guard current.kind == kind, let parent = outer.last else { throw unbalancedEnd(kind) }
        guard !current.awaitingValue else {
            throw misuse("endObject() right after a key: write the key's value first")
        }
        if current.memberBase >= 0 {
            if current.sorted || current.replacedMember >= 0 || current.keysFlushed || current.indexed {
                try endMembers()
            } else {
                members.removeSubrange(current.memberBase...)
                if keysInBufferFrom > members.count { keysInBufferFrom = members.count }
            }
        }
        if pretty && !(jqStyle && current.count == 0) {
            let indent = indentation(atLevel: baseLevel &+ outer.count &- 1)
            try reserve(indent &+ 2)
            append(0x0A)
            appendSpaces(indent)
        } else {
            try reserve(1)
        }
        append(kind == .object ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        outer.removeTop()
        current = parent
        try endValue()
    }

    /// The length of the end of a container this writer wrote, whose closing bracket is
    /// the byte before buffer position `end`: the bracket, after a line feed and `indent`
    /// spaces in pretty output (but not for an empty container in jq's layout, `[]`, `{}`).
    func closingLength(endingAt end: Int, indent: Int) -> Int {
        guard pretty else { return 1 }
        if jqStyle && end >= 2 && (buffer[end &- 2] == UInt8(ascii: "{") || buffer[end &- 2] == UInt8(ascii: "[")) { return 1 }
        return 2 &+ indent
    }

    /// The width of the colon after a key: ` : ` in pretty output, `: ` in jq's, else `:`.
    var colonWidth: Int { pretty ? (jqStyle ? 2 : 3) : 1 }

    /// The spaces before a line at nesting `level` in pretty output.
    @inline(__always)
    func indentation(atLevel level: Int) -> Int {
        min(level &* indentWidth, indentationLimit)
    }

    // MARK: - Internals: bytes

    /// Makes room for `needed` more bytes.
    @inline(__always)
    func reserve(_ needed: Int) throws(WriteError) {
        if capacity &- count < needed { try makeRoom(needed) }
    }

    /// Writes out a descriptor writer's buffer (unless sorted objects are open), then grows it
    /// if that was not enough.
    @inline(never)
    func makeRoom(_ needed: Int) throws(WriteError) {
        if case .descriptor = output, flushHolds == 0, count > 0 { try writeOut(keepingUnfinishedLine: lineLimit > 0) }
        guard capacity - count < needed else { return }
        let (doubled, overflow) = capacity.multipliedReportingOverflow(by: 2)
        let wanted = max(overflow ? Int.max : doubled, count + needed)
        guard let grown = realloc(buffer, wanted) else {
            let error = WriteError(code: .output, errno: ENOMEM, message: "cannot grow the writer's buffer to \(wanted) bytes")
            blocked = error
            throw error
        }
        buffer = grown.assumingMemoryBound(to: UInt8.self)
        capacity = wanted
    }

    /// Writes the buffer to the descriptor and empties it; a failure blocks the writer.
    /// `keepingUnfinishedLine`: writes only up to the last line feed, keeping the line after
    /// it, or nothing while that line is all there is and is at most ``wholeLineLimit``
    /// bytes; a line that went out in part already goes on going out.
    func writeOut(keepingUnfinishedLine: Bool = false) throws(WriteError) {
        guard case .descriptor(let descriptor, let name, _) = output, count > 0 else { return }
        var length = count
        if keepingUnfinishedLine {
            let lineStart = Self.lineStart(buffer, count: count)
            if lineStart > 0 {
                length = lineStart
            } else if !outputEndsInsideLine && count <= lineLimit {
                return  // the buffer grows instead
            }
        }
        if keysInBufferFrom < members.count { moveKeysOutOfBuffer() }
        var written = 0
        do {
            try Self.writeAll(buffer, count: length, to: descriptor, name: name, offset: &written)
        } catch {
            // What the descriptor took before failing is written (``bytesWritten``); the buffer
            // keeps only what it refused (``bytes``).
            if written > 0 {
                memmove(buffer, buffer + written, count - written)
                bytesFlushed &+= written
                count -= written
            }
            blocked = error
            throw error
        }
        outputEndsInsideLine = buffer[length &- 1] != 0x0A
        bytesFlushed &+= length
        count &-= length
        if count > 0 { memmove(buffer, buffer + length, count) }
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        buffer[count] = byte
        count &+= 1
    }

    @inline(__always)
    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        (buffer + count).update(from: source, count: bytes.count)
        count &+= bytes.count
    }

    @inline(__always)
    func appendASCII(_ text: StaticString) {
        (buffer + count).update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        count &+= text.utf8CodeUnitCount
    }

    @inline(__always)
    func appendSpaces(_ n: Int) {
        guard n > 0 else { return }
        (buffer + count).update(repeating: 0x20, count: n)
        count &+= n
    }

    /// Runs `body` on the bytes of `collection`, copying them only when they are not contiguous.
    func withContiguousBytes<Bytes: Collection>(
        _ collection: Bytes, _ body: (UnsafeBufferPointer<UInt8>) throws(WriteError) -> Void
    ) throws(WriteError) where Bytes.Element == UInt8 {
        let result: Result<Void, WriteError>? = collection.withContiguousStorageIfAvailable { text in
            do throws(WriteError) {
                try body(text)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        if let result { return try result.get() }
        let copy = Array(collection)
        let copied: Result<Void, WriteError> = copy.withUnsafeBufferPointer { text in
            do throws(WriteError) {
                try body(text)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try copied.get()
    }

    /// Moves the output out as `Data` without copying it; the writer is left empty.
    func takeData() -> Data {
        guard capacity > 0, count > 0 else { return Data() }
        let size = count
        guard let shrunk = realloc(buffer, size) else { return data }
        let result = Data(bytesNoCopy: shrunk, count: size, deallocator: .free)
        if let fresh = malloc(64) {
            buffer = fresh.assumingMemoryBound(to: UInt8.self)
            capacity = 64
        } else {
            buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
            capacity = 0
        }
        count = 0
        return result
    }
}

extension JSONWriter {
    /// Writes `bytes`, a whole value another writer of the same format produced, as the value
    /// due here.
    func appendEncodedValue(_ bytes: [UInt8]) throws(WriteError) {
        try beginValue()
        try reserve(bytes.count)
        bytes.withUnsafeBufferPointer { append($0) }
        try endValue()
    }
}
