#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A JSON input read once, front to back, handing out the elements of one array (or the
/// members of one object) at a path as typed values, in constant memory.
///
/// ```swift
/// let stream = JSONStream(.file("bands.json"))
/// let bands = stream.elements(of: Band.self, at: "objects")
/// while let band = try bands.next() {
///     print(band.name)
/// }
/// let updated = try stream.remainder().value("last_updated", .iso8601)
/// ```
///
/// Each element's tokens are decoded and then dropped, so memory is bounded by the largest
/// element, never by the file; for a large file, reading and parsing run ahead on a
/// background thread while your code handles the elements. Stopping early (not calling
/// `next()` again, dropping the stream) stops reading. With `parallelism:`, several threads
/// decode the elements of a file or of bytes in memory at once, handed out in document order
/// (``elements(of:at:onError:parallelism:)``).
///
/// The values beside the streamed array are not lost: ``remainder()`` holds the document with
/// the array's elements left out, once the elements have been read.
///
/// A stream is a single-threaded object: use it from one thread or task at a time.
public final class JSONStream {
    let core: StreamCore
    /// The input, for the threads that decode elements in parallel; nil for a stream resumed
    /// at an element, which reads serially.
    private let input: JSONInput?
    /// The rest of the input after elements decoded in parallel, once asked for so.
    private(set) var parallelRest: ParallelRest?
    /// About how many bytes of elements each batch of a parallel request holds (a hook for
    /// tests and fuzzing, which cut small inputs into many batches). Not API:
    /// `@_spi(Testing)`, and it may change or go at any time.
    /// Nil: ``ElementBatch/defaultBytes(holdingTokens:)``.
    @_spi(Testing) public var parallelBatchBytes: Int?

    /// Reads `input` (a file, a descriptor, standard input, bytes in memory) once, front to
    /// back, as elements are asked for. A file that cannot be opened is reported by the first
    /// call that reads, as an ``InputError``.
    public convenience init(_ input: JSONInput, options: JSONParsingOptions = .init()) {
        self.init(core: StreamCore(reader: JSONReader(input, options: options, work: .models)), input: input)
    }

    /// Reads `input` from `location`, where `element` starts (an element of an array, such as
    /// `objects[41]`): a stream of that array's elements from there on, which gives what a
    /// stream from the start gives for them, with the same paths, indices, locations and
    /// errors (an error's excerpt shows no input before the point). A ``Located`` element's
    /// ``Located/start`` and ``Located/path`` resume a stream after a crash:
    ///
    /// ```swift
    /// let stream = JSONStream(.file(path), resumingAt: checkpoint.start, element: checkpoint.path)
    /// let bands = stream.elements(of: Located<Band>.self, at: "objects", decoder: decoder)
    /// ```
    ///
    /// A regular file or input in memory starts there at once; other input is read and dropped
    /// up to it. Nothing after the array is read: the stream has no ``remainder()``, and
    /// ``finish()`` checks only the array. Its one request is
    /// ``elements(of:at:onError:parallelism:)`` (or ``count(at:)``) at the array's path; any
    /// other request, an `element` whose last component is not an index, a path with a
    /// wildcard, NDJSON options, or a location that cannot be an element's start is refused by
    /// the first `next()` with a ``UsageError``. A location the bytes before which do not end with the `[` or `,`
    /// before an element (whitespace aside) is refused with an ``InputError``; another that is
    /// not where an element starts gives the ``ParseError`` the bytes there give. The limits
    /// (``JSONParsingOptions/maxDepth``) count from the document's root, as the whole stream
    /// does; an error about the array's end names it by its path and the point resumed at (its
    /// `[` was never read).
    public convenience init(_ input: JSONInput, options: JSONParsingOptions = .init(), resumingAt location: SourceLocation, element: JSONKeyPath) {
        let point = ResumePoint(location: location)
        var components = element.components
        let last = components.popLast()
        let container = JSONKeyPath(components)
        let refusal: UsageError?
        if case .index(let index)? = last, !container.hasWildcard, !options.allowsMultipleValues, point.isPossible(forElement: index) {
            self.init(core: StreamCore(reader: JSONReader(input, options: options, resumingAt: point, in: container, index: index), resumedIn: container, at: index, refusal: nil))
            return
        } else if options.allowsMultipleValues {
            refusal = UsageError(message: "a stream resumes inside one array, not with allowsMultipleValues (NDJSON)")
        } else if case .index(let index)? = last, !point.isPossible(forElement: index) {
            refusal = UsageError(
                message: "\(location) (byte \(location.byteOffset)) cannot be where element \(index) of an array starts")
        } else if container.hasWildcard {
            refusal = UsageError(message: "a stream resumes inside one array: \(element) has a wildcard")
        } else {
            refusal = UsageError(message: "\(element) is not an element of an array by its index (such as objects[41])")
        }
        self.init(core: StreamCore(reader: JSONReader(input, options: options, work: .models), resumedIn: container, at: 0, refusal: refusal))
    }

    /// Reads `input`, with several top-level values (`options` must allow them: NDJSON), from
    /// `location`, where top-level value `index` starts: a stream of the top-level values from
    /// there on (the empty path), with the paths, locations and errors a stream from the start
    /// gives them. For the parallel engine, which resumes only where its scan found a value.
    convenience init(_ input: JSONInput, options: JSONParsingOptions, resumingAtValue location: SourceLocation, index: Int, limit: Int? = nil) {
        let reader = JSONReader(input, options: options, resumingAtValue: ResumePoint(topLevelValueAt: location), index: index, limit: limit)
        self.init(core: StreamCore(reader: reader, resumedIn: .root, at: index, refusal: nil))
    }

    /// A stream resumed at `location`, where element `index` of the array at `container` starts
    /// (`inObject`: member `index` of the object there), as
    /// ``init(_:options:resumingAt:element:)`` reads it, for a point known to be possible;
    /// with `limit`, the input ends there: a batch of the parallel engine, which must parse no
    /// more than its elements and the start of the next one.
    convenience init(
        _ input: JSONInput, options: JSONParsingOptions, resumingAt location: SourceLocation, in container: JSONKeyPath, index: Int,
        limit: Int?, inObject: Bool = false
    ) {
        let point = ResumePoint(location: location, inObject: inObject)
        let reader = JSONReader(input, options: options, resumingAt: point, in: container, index: index, limit: limit)
        self.init(core: StreamCore(reader: reader, resumedIn: container, at: index, inObject: inObject, refusal: nil))
    }

    private init(core: StreamCore, input: JSONInput? = nil) {
        self.core = core
        self.input = input
    }

    var reader: JSONReader { core.reader }

    /// The elements of the array at `path`, each decoded as `T`. The empty path streams a
    /// root array; with ``JSONParsingOptions/allowsMultipleValues`` (NDJSON), the empty path
    /// streams every top-level value, and another path streams the array at that path in every
    /// top-level value in turn (as `jq -c '.objects[]'` does), each element's path then starting
    /// with its value's index: `[1].objects[0]`. Every value must hold the path.
    ///
    /// A stream reads its input once, so it hands out one sequence: the sequence a second
    /// `elements`, ``members(of:at:parallelism:)`` or ``count(at:)`` call returns throws a
    /// ``UsageError`` from its first `next()`.
    ///
    /// With `parallelism` of more than one worker (``Parallelism``), several threads decode the
    /// elements at once, each a batch of whole elements with a parser of its own, and the
    /// sequence still hands them out one at a time, in document order: the same values, and
    /// the same first error after the same elements, as the serial stream (with `.skip`, the
    /// same reports, on your thread, each between the same elements). That happens when
    /// all of these hold; otherwise the stream reads serially, as without the argument:
    /// - the input is a regular file, a file URL or bytes in memory (not a descriptor or
    ///   standard input, which cannot be read at several places at once);
    /// - `path` has no wildcard, and the options do not allow comments;
    /// - with several top-level values (NDJSON), `path` is empty: the values are the
    ///   elements, cut at the ends of values (a value that touches a number or literal before
    ///   it, as in `1"a"`, is read serially from there, and fails there);
    /// - this is the stream's first request (the stream is not resumed at an element).
    ///
    /// What it costs: a thread that cuts the array (reading the input a second time, ahead of
    /// the workers), and up to two batches of decoded elements per worker held ahead of your
    /// code, about 256 KiB of input each (64 KiB for a ``JSONDecodable`` model, whose batch
    /// keeps its tokens): memory stays bounded by the batch size, not by the input. Dropping
    /// the sequence (or reaching the end, or an error) stops every thread. ``remainder()`` and
    /// ``finish()`` after the last element read only what comes before the array's first
    /// element and after its `]` (after NDJSON's last value, nothing); after an error or an
    /// early stop they read the whole input again, serially. ``onProgress`` is called as each
    /// batch is handed out.
    public func elements<T: JSONDecodable>(
        of type: T.Type, at path: JSONKeyPath = .root, onError policy: ElementErrorPolicy = .stop,
        parallelism: Parallelism = .serial
    ) -> JSONElements<T> {
        let request: StreamRequest<T> = .elements(of: type, at: path, onError: policy, in: core)
        let threads = parallelRequest(request, at: path, policy: policy, parallelism, JSONDecodableElements<T>())
        return JSONElements(request, parallel: threads)
    }

    /// The members of the object at `path`, each value decoded as `T` as it arrives (for an
    /// object too big to hold, like ijson's `kvitems`). The empty path streams a root object.
    ///
    /// One request per stream, as for ``elements(of:at:onError:parallelism:)``. With
    /// `parallelism` of more than one worker, several threads decode the members at once, in
    /// batches of whole members, under the conditions (and at the costs) that
    /// ``elements(of:at:onError:parallelism:)`` gives (not with several top-level values), and
    /// the sequence hands them out in document order, with the serial stream's values and
    /// first error.
    public func members<T: JSONDecodable>(
        of type: T.Type, at path: JSONKeyPath = .root, parallelism: Parallelism = .serial
    ) -> JSONMembers<T> {
        let request: StreamRequest<(key: String, value: T)> = .members(of: type, at: path, in: core)
        return JSONMembers(request, parallel: parallelRequest(request, at: path, policy: .stop, parallelism, JSONDecodableMembers<T>()))
    }

    /// The elements of the array at `path`, each decoded as the `Decodable` `T` by `decoder`
    /// (with its key, date, data and float strategies), in constant memory as for
    /// ``JSONDecodable`` models. A `DecodingError` in an element ends the stream (or, with
    /// `.skip`, is reported with its located ``DecodeError`` and skipped); its `codingPath` starts
    /// at the document root (`objects`, `Index 1`, `members`, ...). A type that is also
    /// ``JSONDecodable`` is decoded through that conformance. A decoder whose `.pattern` date
    /// strategy has a field Spool does not read makes the first `next()` throw a
    /// ``UsageError``, before the stream reads anything for this request.
    ///
    /// `parallelism` decodes the elements on several threads, in document order, with the
    /// values and errors of the serial stream, under the conditions (and at the costs) that
    /// ``elements(of:at:onError:parallelism:)`` gives; each thread decodes with `decoder`'s
    /// strategies.
    @_disfavoredOverload
    public func elements<T: Decodable>(
        of type: T.Type, at path: JSONKeyPath = .root, decoder: StreamingJSONDecoder = StreamingJSONDecoder(),
        onError policy: ElementErrorPolicy = .stop, parallelism: Parallelism = .serial
    ) -> JSONElements<T> {
        let request: StreamRequest<T> = .elements(of: type, at: path, configuration: decoder.configuration, onError: policy, in: core)
        let threads = parallelRequest(request, at: path, policy: policy, parallelism, DecodableElements<T>(decoder: decoder))
        return JSONElements(request, parallel: threads)
    }

    /// The threads that decode `request`'s elements, when `parallelism` asks for more than one
    /// worker and the engine can read the input, options and path; nil to read serially (also
    /// when the request was refused: its sequence throws the refusal).
    private func parallelRequest<T>(
        _ request: StreamRequest<T>, at path: JSONKeyPath, policy: ElementErrorPolicy, _ parallelism: Parallelism,
        _ elements: some ElementRequest<T>
    ) -> ParallelRequest<T>? {
        let workers = parallelism.workerCount
        guard workers > 1, !request.isRefused, let input, parallelRest == nil else { return nil }
        let options = reader.options
        // (A file that is not a regular one, or cannot be opened, has no size.)
        guard reader.totalBytes != nil,
            ParallelRequest<T>.isPossible(input: input, at: path, members: elements.isMembers, options: options)
        else {
            return nil
        }
        var report: ((SkippedElement) -> Void)?
        if case .skip(let closure) = policy { report = closure }
        let batchBytes = parallelBatchBytes ?? ElementBatch.defaultBytes(holdingTokens: elements.holdsTokens)
        let streams = ElementStreams(
            input: input, options: options, path: path, batchBytes: batchBytes, request: elements, skips: report != nil)
        let rest = ParallelRest(core: core, input: streams.input, path: path, members: elements.isMembers, options: options)
        parallelRest = rest
        return ParallelRequest(streams, workers: workers, batchBytes: batchBytes, rest: rest, report: report)
    }

    /// The members of the object at `path`, each value decoded as the `Decodable` `T` by
    /// `decoder`; `parallelism` as for ``members(of:at:parallelism:)``, each thread decoding
    /// with `decoder`'s strategies.
    @_disfavoredOverload
    public func members<T: Decodable>(
        of type: T.Type, at path: JSONKeyPath = .root, decoder: StreamingJSONDecoder = StreamingJSONDecoder(),
        parallelism: Parallelism = .serial
    ) -> JSONMembers<T> {
        let request: StreamRequest<(key: String, value: T)> = .members(of: type, at: path, configuration: decoder.configuration, in: core)
        let threads = parallelRequest(request, at: path, policy: .stop, parallelism, DecodableMembers<T>(decoder: decoder))
        return JSONMembers(request, parallel: threads)
    }

    /// The number of elements of the array, or members of the object, at `path`, counted while
    /// streaming (nothing is decoded; memory stays bounded by the largest element). With
    /// ``JSONParsingOptions/allowsMultipleValues`` and the empty path, the number of top-level values.
    /// - Throws: ``UsageError`` when the stream already handed out elements, members or a count.
    public func count(at path: JSONKeyPath = .root) throws -> Int {
        if let refusal = core.begin(.count, at: path) { throw refusal }
        guard let count = try core.countStep() else { return core.count }
        return count
    }

    /// Called with ``bytesRead`` each time a chunk of input has been taken in (on the thread
    /// that iterates the stream): a cheap hook for a progress bar.
    public var onProgress: ((_ bytesRead: Int) -> Void)? {
        get { reader.onProgress }
        set { reader.onProgress = newValue }
    }

    /// Bytes read so far, for progress. For elements decoded in parallel, the bytes up to the
    /// last batch of elements handed out.
    public var bytesRead: Int { parallelRest.map { max($0.bytesRead, reader.bytesRead) } ?? reader.bytesRead }

    /// The input's size in bytes, when known (files, memory).
    public var totalBytes: Int? { reader.totalBytes }

    /// Reads the rest of the input, checking that it is valid JSON (and recording the
    /// ``remainder()``). Call it after the last element to be sure nothing after it is broken.
    public func finish() throws {
        if let parallelRest { return try parallelRest.readRest() }
        _ = try core.readRest()
    }

    /// The document without the streamed elements (the array at the path is left empty), for
    /// the values beside it, e.g. a catalog's `last_updated`. Reads the rest of the input if
    /// the elements have not all been read. With several top-level values, the first one's.
    /// - Throws: ``ParseError`` or ``InputError`` from reading the rest; ``DecodeError`` when
    ///   the document holds no value.
    public func remainder() throws -> Extractor {
        if let parallelRest { return try parallelRest.remainder() }
        _ = try core.readRest()
        return try core.remainder()
    }
}
