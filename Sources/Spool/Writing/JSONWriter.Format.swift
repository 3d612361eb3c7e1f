extension JSONWriter {
    /// How a ``JSONWriter`` lays its output out.
    ///
    /// ```swift
    /// let formats: [JSONWriter.Format] = [
    ///     .compact,                           // {"name":"Sigur Rós","members":[1,2]}
    ///     .pretty(),                          // JSONEncoder's .prettyPrinted layout
    ///     .lines,                             // one compact value per line (JSON Lines)
    ///     .jq(),                              // what jq . writes
    ///     JSONWriter.Format(.compact, escapesSlashes: false),
    ///     JSONWriter.Format(.jq(indent: 2), escapesSlashes: false, sortsKeys: true),   // jq -S .
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
            /// jq's layout, byte for byte what `jq .` writes (`jq --indent N .`): each element
            /// and member on its own line, indented by `indent` spaces per level, `"key": value`,
            /// and empty containers as `[]` and `{}`; with `indent` 0, no whitespace at all, as
            /// `jq -c` (and `jq --indent 0`). Any number of top-level values, each followed by a
            /// line feed, as jq writes them. Strings are escaped as jq escapes them: also
            /// U+007F as `\u007f`, and `/` as it is when ``escapesSlashes`` is off (as
            /// ``JSONWriter/Format/jq(indent:)`` makes it). The width is clamped to 0...32.
            ///
            /// Numbers keep their text, where jq 1.6 rewrites them as doubles (`1.0` → `1`,
            /// `1E2` → `100`, `123456789012345678` → `123456789012345680`): that is the one
            /// difference from jq's output.
            case jq(indent: Int)
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
        /// Whether the members of every object are written in the order of their keys: by
        /// Unicode code point, comparing the keys' UTF-8 bytes (unescaped), as `jq -S` orders
        /// them and ``StreamingJSONEncoder``'s `.sortedKeys` does. Members with
        /// the same key stay in the order they came. Default `false`: members as written.
        ///
        /// An object's members are held in the writer's buffer until it ends, then
        /// reordered, and nothing is written out while a sorted object is open: memory is
        /// bounded by the largest object (for a top-level object, the whole output), not
        /// constant.
        public var sortsKeys: Bool

        /// A format with `layout`, escaping slashes unless told otherwise.
        public init(_ layout: Layout = .compact, escapesSlashes: Bool = true, maxIndentation: Int? = nil, sortsKeys: Bool = false) {
            self.layout = layout
            self.escapesSlashes = escapesSlashes
            self.maxIndentation = maxIndentation
            self.sortsKeys = sortsKeys
        }

        /// No whitespace, one top-level value.
        public static let compact = Format(.compact)

        /// One compact value per line (JSON Lines / NDJSON).
        public static let lines = Format(.lines)

        /// `JSONEncoder`'s `.prettyPrinted` layout, with `indent` spaces per level.
        public static func pretty(indent: Int = 2) -> Format { Format(.pretty(indent: indent)) }

        /// jq's layout (``Layout/jq(indent:)``), with `indent` spaces per level, and `/` not
        /// escaped: what `jq .` writes, numbers kept as written.
        public static func jq(indent: Int = 2) -> Format { Format(.jq(indent: indent), escapesSlashes: false) }

        /// Spaces per nesting level; 0 unless pretty (or jq's layout).
        var indentWidth: Int {
            switch layout {
            case .pretty(let indent), .jq(let indent): return min(max(indent, 0), 32)
            case .compact, .lines: return 0
            }
        }

        /// The widest indentation written: a whole number of levels, at most ``maxIndentation``.
        var indentationLimit: Int {
            let width = indentWidth
            guard let maxIndentation, width > 0 else { return Int.max }
            return max(maxIndentation, 0) / width * width
        }

        /// Each element and member on its own line: pretty, or jq's layout with an indent.
        var isPretty: Bool {
            switch layout {
            case .pretty: return true
            case .jq: return indentWidth > 0
            case .compact, .lines: return false
            }
        }

        /// Any number of top-level values, each followed by a line feed.
        var writesLines: Bool {
            switch layout {
            case .lines, .jq: return true
            case .compact, .pretty: return false
            }
        }

        var isJQ: Bool {
            if case .jq = layout { return true }
            return false
        }
    }
}
