extension JSONWriter {
    /// How a ``JSONWriter`` lays its output out.
    ///
    /// ```swift
    /// let formats: [JSONWriter.Format] = [
    ///     .compact,                           // {"name":"Sigur Rós","members":[1,2]}
    ///     .pretty(),                          // JSONEncoder's .prettyPrinted layout
    ///     .lines,                             // one compact value per line (JSON Lines)
    ///     JSONWriter.Format(.compact, escapesSlashes: false),
    /// ]
    /// ```
    public struct Format: Hashable, Sendable {
        /// Where whitespace goes.
        public enum Layout: Hashable, Sendable {
            /// No whitespace at all, and exactly one top-level value.
            case compact
            /// `JSONEncoder`'s `.prettyPrinted` layout: each element and member on its own line,
            /// indented by `indent` spaces per level (`JSONEncoder` uses 2), `"key" : value`,
            /// and empty containers as an opening and a closing bracket with an empty line
            /// between them. Exactly one top-level value. The width is clamped to 0...32.
            case pretty(indent: Int)
            /// JSON Lines (NDJSON): any number of top-level values, each compact and followed
            /// by a line feed.
            case lines
        }

        /// Where whitespace goes.
        public var layout: Layout
        /// Whether `/` is written as `\/`, as `JSONEncoder` does unless told
        /// `.withoutEscapingSlashes` (so the output can sit inside an HTML `<script>`).
        /// Default `true`.
        public var escapesSlashes: Bool
        /// In pretty output, the widest indentation, in spaces: a level that would be indented
        /// further lines up with the deepest level that fits, so however deep the nesting, no
        /// line starts with more spaces, and deeply nested input cannot multiply the output's
        /// size by its depth. The JSON is the same. `nil` (the default) indents every level,
        /// as `JSONEncoder` does; `spool fmt` uses 64.
        public var maxIndentation: Int?

        /// A format with `layout`, escaping slashes unless told otherwise.
        public init(_ layout: Layout = .compact, escapesSlashes: Bool = true, maxIndentation: Int? = nil) {
            self.layout = layout
            self.escapesSlashes = escapesSlashes
            self.maxIndentation = maxIndentation
        }

        /// No whitespace, one top-level value.
        public static let compact = Format(.compact)

        /// One compact value per line (JSON Lines / NDJSON).
        public static let lines = Format(.lines)

        /// `JSONEncoder`'s `.prettyPrinted` layout, with `indent` spaces per level.
        public static func pretty(indent: Int = 2) -> Format { Format(.pretty(indent: indent)) }

        /// Spaces per nesting level; 0 unless pretty.
        var indentWidth: Int {
            if case .pretty(let indent) = layout { return min(max(indent, 0), 32) }
            return 0
        }

        /// The widest indentation written: a whole number of levels, at most ``maxIndentation``.
        var indentationLimit: Int {
            let width = indentWidth
            guard let maxIndentation, width > 0 else { return Int.max }
            return max(maxIndentation, 0) / width * width
        }

        var isPretty: Bool {
            if case .pretty = layout { return true }
            return false
        }

        var isLines: Bool { layout == .lines }
    }
}
