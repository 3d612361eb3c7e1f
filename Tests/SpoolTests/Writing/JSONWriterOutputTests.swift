import Foundation
import Testing
@testable import Spool

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("JSONWriter output")
struct JSONWriterOutputTests {
    func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("spool-writer-\(getpid())-\(name)").path
    }

    @Test func aFileIsCreatedTruncatedAndClosedByFinish() throws {
        let path = temporaryPath("file.json")
        defer { unlink(path) }
        try Data(repeating: 0x41, count: 1000).write(to: URL(fileURLWithPath: path))
        let writer = try JSONWriter(toFile: path, format: .pretty())
        try writer.beginArray()
        try writer.string("one")
        try writer.endArray()
        try writer.finish()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "[\n  \"one\"\n]")
        #expect(writer.bytesWritten == 11)
    }

    @Test func aFileThatCannotBeOpenedThrowsWithItsErrno() throws {
        let path = temporaryPath("missing-dir") + "/out.json"
        let error = #expect(throws: WriteError.self) { try JSONWriter(toFile: path) }
        #expect(error?.code == .output)
        #expect(error?.errno == ENOENT)
        #expect(error?.message == "cannot open '\(path)': No such file or directory (ENOENT)")
    }

    @Test func theCallerKeepsItsDescriptorOpen() throws {
        let path = temporaryPath("fd.json")
        defer { unlink(path) }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(fd >= 0)
        let writer = JSONWriter(fileDescriptor: fd, format: .lines)
        try writer.number(1)
        try writer.finish()
        #expect(write(fd, "after\n", 6) == 6)
        close(fd)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "1\nafter\n")
    }

    @Test func aBadDescriptorThrowsEBADFAndKeepsThrowing() throws {
        let writer = JSONWriter(fileDescriptor: 987_654)
        try writer.string("lost?")
        let error = #expect(throws: WriteError.self) { try writer.finish() }
        #expect(error?.errno == EBADF)
        #expect(error?.message == "cannot write to 'fd 987654': Bad file descriptor (EBADF)")
        let again = #expect(throws: WriteError.self) { try writer.flush() }
        #expect(again == error)
        #expect(throws: WriteError.self) { try writer.null() }
    }

    @Test func aFullDiskThrowsENOSPC() throws {
        guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
        let writer = try JSONWriter(toFile: "/dev/full")
        try writer.beginArray()
        // The first 64 KiB go out while writing, and fail there.
        let error = #expect(throws: WriteError.self) {
            for index in 0..<100_000 { try writer.number(index) }
        }
        #expect(error?.errno == ENOSPC)
        #expect(error?.message == "cannot write to '/dev/full': No space left on device (ENOSPC)")
        #expect(throws: WriteError.self) { try writer.finish() }
    }

    @Test func aClosedPipeThrowsEPIPE() throws {
        signal(SIGPIPE, SIG_IGN)  // otherwise the signal ends the process before write(2) returns
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        close(ends[0])
        defer { close(ends[1]) }
        let writer = JSONWriter(fileDescriptor: ends[1])
        try writer.string("nobody reads this")
        let error = #expect(throws: WriteError.self) { try writer.finish() }
        #expect(error?.errno == EPIPE)
        #expect(error?.code == .output)
    }

    @Test func memoryStaysFlatWhileWritingMegabytes() throws {
        let fd = open("/dev/null", O_WRONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        let writer = JSONWriter(fileDescriptor: fd, format: .lines)
        for index in 0..<200_000 {
            try writer.beginObject()
            try writer.key("index")
            try writer.number(index)
            try writer.key("text")
            try writer.string("a line of JSON Lines with a \"quote\"")
            try writer.endObject()
        }
        try writer.finish()
        #expect(writer.bytesWritten > 10_000_000)
        #expect(writer.capacity == JSONWriter.flushSize)
    }

    @Test func aNonBlockingPipeIsWaitedForAndNothingIsLost() async throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let readEnd = ends[0]
        let writeEnd = ends[1]
        _ = fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK)
        // A slow reader: the pipe fills, write(2) says EAGAIN, the writer polls.
        let reader = Task.detached { () -> [UInt8] in
            var received: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                received.append(contentsOf: chunk[0..<count])
                if received.count % 65_536 < 4096 { usleep(1000) }
            }
            close(readEnd)
            return received
        }
        let writer = JSONWriter(fileDescriptor: writeEnd, format: .lines)
        var expected: [UInt8] = []
        for index in 0..<30_000 {
            let text = "record \(index) " + String(repeating: "x", count: index % 50)
            try writer.string(text)
            expected += Array("\"\(text)\"\n".utf8)
        }
        try writer.finish()
        close(writeEnd)
        let received = await reader.value
        #expect(received.count == expected.count)
        #expect(received == expected)
    }

    /// Writes `lines` values of JSON Lines to a file with `wholeLineLimit`, then the start of
    /// one more, unfinished (`unfinished` strings in an array), then ends at a line boundary.
    func linesStoppedByAnError(limit: Int, lines: Int, unfinished: Int) throws -> (written: String, whole: String) {
        let path = temporaryPath("lines-\(limit)-\(lines)-\(unfinished).json")
        defer { unlink(path) }
        let writer = try JSONWriter(toFile: path, format: .lines)
        writer.wholeLineLimit = limit
        var whole = ""
        for index in 0..<lines {
            try writer.beginObject()
            try writer.key("line")
            try writer.number(index)
            try writer.key("text")
            try writer.string("some text to fill the line")
            try writer.endObject()
            whole += #"{"line":\#(index),"text":"some text to fill the line"}"# + "\n"
        }
        try writer.beginArray()
        for _ in 0..<unfinished { try writer.string("an element of a value that never ends") }
        try writer.finishAtLineBoundary()
        #expect(writer.isFinished)
        #expect(throws: WriteError.self) { try writer.null() }
        return (try String(contentsOfFile: path, encoding: .utf8), whole)
    }

    @Test func anErrorDropsTheUnfinishedLineAndKeepsTheWholeOnes() throws {
        // Many buffers' worth of lines: each flush stopped at a line feed.
        let (written, whole) = try linesStoppedByAnError(limit: 1 << 20, lines: 20_000, unfinished: 5_000)
        #expect(written.count == whole.count)
        #expect(written == whole)
        // Without the limit, the buffer goes out wherever it ends, and the line is cut.
        let (cut, _) = try linesStoppedByAnError(limit: 0, lines: 20_000, unfinished: 5_000)
        #expect(cut.hasSuffix("\n"))
        #expect(cut.count > whole.count)
    }

    @Test func aLineLongerThanTheLimitIsEndedWhereItStopped() throws {
        let (written, whole) = try linesStoppedByAnError(limit: 1000, lines: 10, unfinished: 10_000)
        #expect(written.hasPrefix(whole + "["))
        #expect(written.hasSuffix("\"an element of a value that never ends\"\n"))
        #expect(written.filter { $0 == "\n" }.count == 11)
    }

    @Test func nothingWholeMeansNothingWritten() throws {
        let (written, _) = try linesStoppedByAnError(limit: 1 << 20, lines: 0, unfinished: 3)
        #expect(written.isEmpty)
    }

    @Test func prettyOutputStopsAtItsLastWholeLine() throws {
        let writer = JSONWriter(format: .pretty())
        try writer.beginObject()
        try writer.key("a")
        try writer.beginArray()
        try writer.number(1)
        try writer.number(2)
        try writer.finishAtLineBoundary()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "{\n  \"a\" : [\n    1,\n")
        try writer.finishAtLineBoundary()  // a second call does nothing
        #expect(throws: WriteError.self) { try writer.endArray() }
    }

    @Test func standardOutputIsDescriptorOne() {
        let writer = JSONWriter.standardOutput(format: .lines)
        if case .descriptor(let fd, let name, let closes) = writer.output {
            #expect(fd == 1)
            #expect(name == "<stdout>")
            #expect(!closes)
        } else {
            Issue.record("not a descriptor writer")
        }
    }
}

/// Issue 22, item 11: after a failed write, ``JSONWriter/bytesWritten`` is what reached the
/// descriptor, not what the writer had made (it said 1,114,086 for 1,048,576 bytes on disk).
@Suite("JSONWriter.bytesWritten after a failed write")
struct BytesWrittenAfterFailureTests {
    /// Writes numbers until a write fails.
    static func writeUntilFailure(_ writer: JSONWriter) -> WriteError? {
        do {
            for index in 0..<1_000_000 { try writer.number(index) }
            try writer.endArray()
            try writer.finish()
            return nil
        } catch {
            return error
        }
    }

    @Test func aDescriptorThatFailsPartwayCountsWhatReachedIt() throws {
        guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("spool-written-\(getpid()).json").path
        defer { unlink(path) }
        let file = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(file >= 0)
        defer { close(file) }
        let writer = JSONWriter(fileDescriptor: file)
        try writer.beginArray()
        for index in 0..<50_000 { try writer.number(index) }
        try writer.flush()
        let flushed = writer.bytesWritten
        #expect(flushed > 65_536)
        // The same descriptor now leads to a full device: the next write fails (ENOSPC).
        let full = open("/dev/full", O_WRONLY)
        try #require(full >= 0)
        try #require(dup2(full, file) == file)
        close(full)
        let error = Self.writeUntilFailure(writer)
        #expect(error?.errno == ENOSPC)
        let onDisk = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        #expect(onDisk == flushed)
        #expect(writer.bytesWritten == flushed)
        #expect(writer.bytesWritten + writer.bytes.count > flushed)  // the refused bytes stay in the buffer
    }

    #if os(Linux)
    /// What a writing thread saw.
    final class Outcome: @unchecked Sendable {
        var error: WriteError?
        let done = DispatchSemaphore(value: 0)
    }

    @Test func aWriteCutShortCountsTheBytesItTook() throws {
        signal(SIGPIPE, SIG_IGN)  // a write to a pipe without a reader: EPIPE, not the signal
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        defer { close(writeEnd) }
        // A pipe that holds one page (F_SETPIPE_SZ): the writer's 64 KiB write blocks once that
        // page is full, and when the reader goes away write(2) returns the page (a partial
        // write); the next one says EPIPE.
        let capacity = Int(fcntl(writeEnd, 1031 /* F_SETPIPE_SZ */, 4096))
        try #require(capacity > 0 && capacity < JSONWriter.flushSize)
        nonisolated(unsafe) let writer = JSONWriter(fileDescriptor: writeEnd)
        try writer.beginArray()
        let outcome = Outcome()
        Thread {
            outcome.error = Self.writeUntilFailure(writer)
            outcome.done.signal()
        }.start()
        // Once the pipe is full, exactly `capacity` bytes were taken: then the reader goes.
        var buffered: Int32 = 0
        for _ in 0..<10_000 where buffered < capacity {
            usleep(1000)
            try #require(ioctl(readEnd, 0x541B /* FIONREAD */, &buffered) == 0)
        }
        try #require(Int(buffered) == capacity)
        close(readEnd)
        outcome.done.wait()
        #expect(outcome.error?.errno == EPIPE)
        #expect(writer.bytesWritten == capacity)
    }
    #endif
}
