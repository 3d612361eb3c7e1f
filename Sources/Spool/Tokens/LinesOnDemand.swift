#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The lines of an input held whole in memory, counted when a location is asked for instead of
/// as tokens are written.
///
/// A reader of bytes in memory on one thread (``PipelineFactory``) has the whole input at hand
/// for as long as it lives, so its tape and writer need not note where each line starts: a
/// pretty-printed document has a line per member, and noting them (a `memchr` and a line entry
/// per key) cost twitter.json 2M instructions of a 48M decode that asked for no location.
/// Locations are asked for by errors, ``Located`` values and a stream's remainder.
///
/// Counting goes forward from the last place counted to (a stream asks in document order), a
/// word of 8 bytes at a time; a place before it is counted from the nearest checkpoint, one
/// every 64 KiB, so no question reads more than 64 KiB it has read before.
final class LinesOnDemand {
    private let source: any ByteSource
    /// Counted up to `counted`: the line there is `line`, which starts at `lineStart`.
    private var counted = 0
    private var line = 1
    private var lineStart = 0
    /// The state at every multiple of ``checkpointSpacing`` counted past, in order.
    private var checkpoints: [(offset: Int, line: Int, lineStart: Int)] = []
    private static let checkpointSpacing = 1 << 16

    /// Nil unless `source` holds its bytes whole in memory (``ByteSource/withWholeInput(_:)``).
    init?(_ source: any ByteSource) {
        guard source.withWholeInput({ _ in true }) == true else { return nil }
        self.source = source
    }

    /// The line holding `offset` and where it starts. An offset past the input counts as its end.
    func lineStart(of offset: Int) -> TokenTape.LineStart {
        source.withWholeInput { input in
            guard let base = input.baseAddress else { return TokenTape.LineStart(line: 1, offset: 0) }
            let target = max(0, min(offset, input.count))
            if target < counted { goBack(to: target) }
            while counted < target {
                let blockEnd = min(target, (counted / Self.checkpointSpacing + 1) * Self.checkpointSpacing)
                count(base, to: blockEnd)
                if blockEnd % Self.checkpointSpacing == 0 && blockEnd > (checkpoints.last?.offset ?? 0) {
                    checkpoints.append((blockEnd, line, lineStart))
                }
            }
            return TokenTape.LineStart(line: line, offset: lineStart)
        } ?? TokenTape.LineStart(line: 1, offset: 0)
    }

    /// Where the line holding `offset` starts, and its location.
    func location(of offset: Int) -> SourceLocation {
        let start = lineStart(of: offset)
        return SourceLocation(byteOffset: offset, line: start.line, column: offset - start.offset + 1)
    }

    /// Moves the count back to the last checkpoint at or before `target` (or the start).
    private func goBack(to target: Int) {
        var low = 0
        var high = checkpoints.count
        while low < high {
            let middle = (low + high) / 2
            if checkpoints[middle].offset <= target { low = middle + 1 } else { high = middle }
        }
        if low > 0 {
            (counted, line, lineStart) = checkpoints[low - 1]
        } else {
            (counted, line, lineStart) = (0, 1, 0)
        }
    }

    /// Counts the newlines from `counted` to `end`, 8 bytes at a time.
    private func count(_ base: UnsafeRawPointer, to end: Int) {
        var i = counted
        var newlines = 0
        while i &+ 8 <= end {
            // A byte of `x` is zero exactly where the input holds a newline.
            let x = base.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ 0x0A0A_0A0A_0A0A_0A0A
            let nonZero = ((x & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | x
            newlines &+= (~nonZero & 0x8080_8080_8080_8080).nonzeroBitCount
            i &+= 8
        }
        while i < end {
            if base.load(fromByteOffset: i, as: UInt8.self) == 0x0A { newlines &+= 1 }
            i &+= 1
        }
        if newlines > 0 {
            line &+= newlines
            // The last newline before `end` ends the line before the current one.
            var p = end &- 1
            while base.load(fromByteOffset: p, as: UInt8.self) != 0x0A { p &-= 1 }
            lineStart = p &+ 1
        }
        counted = end
    }
}
