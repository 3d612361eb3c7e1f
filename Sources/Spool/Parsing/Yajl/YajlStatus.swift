/// How a call into yajl ended.
enum YajlStatus {
    case ok
    /// A callback returned 0; the writer holds the reason.
    case cancelled
    /// yajl found an error: its kind and the offset it reports in the last buffer.
    case failed(YajlError, consumed: Int)

    /// What a call reports when `yajl_alloc` failed.
    static let noParser = YajlStatus.failed(.unknown("out of memory: cannot allocate a yajl parser"), consumed: 0)
}
