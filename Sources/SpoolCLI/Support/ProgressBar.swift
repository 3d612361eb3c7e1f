#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A one-line progress report on standard error, shown only when standard error is a
/// terminal and the work has run for about a second: percent, MB/s and time left when the
/// input's size is known, else bytes read and MB/s. Never written to a pipe or a file, and
/// never while a command streams its output to a terminal too.
final class ProgressBar {
    private let enabled: Bool
    private let total: Int?
    private let start = ProgressBar.now()
    private var lastDraw = 0.0
    private var shown = false
    /// Seconds before the first draw: 1, or `SPOOL_PROGRESS_AFTER` (a hook for tests).
    private let delay: Double

    init(enabled: Bool, total: Int?, streamsOutput: Bool) {
        self.enabled = enabled && isatty(2) == 1 && !(streamsOutput && isatty(1) == 1)
        self.total = total
        delay = getenv("SPOOL_PROGRESS_AFTER").flatMap { Double(String(cString: $0)) } ?? 1
    }

    /// Notes progress; cheap enough to call for every chunk.
    func update(bytesRead: Int) {
        guard enabled else { return }
        let now = ProgressBar.now()
        let elapsed = now - start
        guard elapsed >= delay, now - lastDraw >= 0.2 else { return }
        lastDraw = now
        let megabytes = Double(bytesRead) / 1_000_000
        let rate = megabytes / elapsed
        var text: String
        if let total, total > 0 {
            let fraction = min(1, Double(bytesRead) / Double(total))
            let left = rate > 0 ? (Double(total - bytesRead) / 1_000_000) / rate : 0
            text = "\(Int(fraction * 100))%  \(format(rate)) MB/s  ETA \(clock(left))"
        } else {
            text = "\(format(megabytes)) MB read  \(format(rate)) MB/s"
        }
        writeToStandardError("\r\u{1B}[K" + text)
        shown = true
    }

    /// Clears the line, if anything was drawn.
    func finish() {
        if shown { writeToStandardError("\r\u{1B}[K") }
        shown = false
    }

    private func format(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    private func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let minutes = total / 60
        let rest = total % 60
        return "\(minutes):\(rest < 10 ? "0" : "")\(rest)"
    }

    private static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
