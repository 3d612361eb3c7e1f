import Foundation
import RawYajl
import BandCatalog
import Spool

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `spool-bench MODE FILE`: one measurement per process, so peak RSS belongs to one mode.
///
/// - `yajl`: raw yajl with counting callbacks (the peer).
/// - `cursor`: Spool's JSONReader pulling every token (kinds only).
/// - `cursor-text`: the same, also reading the bytes of every key, string and number.
/// - `cursor-direct`: `cursor` with parsing on the reader's own thread (`parsesInBackground = false`).
/// - `stream`: every band of `objects` streamed as a typed model (with its date transformer).
/// - `decode`: the whole catalog into Spool models (`BandResponse.decodeValue(from: .file(path))`).
/// - `jsondecoder`: the whole catalog into Codable structs with Foundation's `JSONDecoder`.
/// - `jsonserialization`: `JSONSerialization` plus manual extraction into the same structs.
/// - `codable-decode`, `codable-stream`: the same Codable structs with StreamingJSONDecoder,
///   the whole catalog, or its bands streamed one at a time; `jsondecoder-dates`,
///   `codable-decode-dates`, `codable-stream-dates`: with parsed birth dates (CodableBench.swift);
///   `codable-stream-direct`: `codable-stream` parsing on the reading thread;
///   `jsondecoder-snake`, `codable-decode-snake`, `codable-stream-snake`: camelCase models
///   without `CodingKeys`, read with `.convertFromSnakeCase`.
/// - `gen-yajl-c OUT [N]`, `gen-yajl OUT [N]`, `gen-writer OUT [N]`: N small objects (default
///   1,000,000) written to OUT by yajl_gen from C, by yajl_gen driven from Swift, and by
///   JSONWriter (the measurement behind JSONWriter's design, WriterChoice.swift).
/// - `encode-spool CATALOG OUT`, `encode-foundation CATALOG OUT` (and `-sorted`): the catalog,
///   decoded into Codable models (not timed), encoded to `Data` by StreamingJSONEncoder or
///   JSONEncoder and written to OUT; `encode-spool-stream`: encoded straight into a file writer.
/// - `numbers COUNT`: COUNT random number texts converted to Double and Float the old way
///   (`Double(String)`, i.e. strtod) and by Spool's parser, alternately (NumberBench.swift).
/// - `lines OUT MB`, `lines-foundation OUT MB`: MB megabytes of JSON Lines from a generated
///   sequence of bands, through `writeLines` or one JSONEncoder call and write(2) per line.
/// - `corpus-foundation DOC FILE [ITERATIONS]`, `corpus-spool DOC FILE [ITERATIONS]`: DOC
///   (twitter, citm, canada, twitter-snake, catalog) read into `Data`, then decoded ITERATIONS
///   times by JSONDecoder or StreamingJSONDecoder, each decode timed; `corpus-read DOC FILE`
///   reads it only; `corpus-check DOC FILE` asserts both decode it `==` (CorpusBench.swift).
/// - `fallback-foundation COUNT`, `fallback-codable COUNT`, `fallback-operators COUNT`: the
///   `try?` fallback idiom over COUNT strings, each tried as an Int first (FallbackBench.swift).
/// - `scan-simd PATH FILE [CHUNK]`, `scan-scalar PATH FILE [CHUNK]`: the element pre-scan of the
///   parallel pipeline over FILE in memory (64-byte SIMD blocks, or the byte loop), timed alone:
///   elements, bytes, seconds, GB/s (PATH `--ndjson`: the top-level values of NDJSON);
///   `scan-sse2`, `scan-avx2`, `scan-avx512`: `scan-simd` with those masks, not the CPU's
///   widest; `scan-read PATH FILE` reads the file only, the callgrind baseline (ScanBench.swift).
/// - `codable-parallel FILE WORKERS [BATCH-BYTES]`: the `codable-stream` bands decoded by the
///   parallel elements engine on WORKERS threads, in batches of BATCH-BYTES (default 1 MiB).
/// - `codable-counts FILE WORKERS`: `codable-jobs` with each band dropped on the thread that
///   decoded it and only its member count handed on; WORKERS 0 is today's two-thread stream,
///   -1 the stream on one thread (CodableBench.swift).
/// - `cross-core ROUND-TRIPS`: nanoseconds per cache-line round trip between CPUs 0 and 1
///   (CrossCoreBench.swift), which bench.py --parallel prints beside its times.
/// - `codable-jobs FILE WORKERS`: the `codable-stream` bands through the public API,
///   `elements(of:at:decoder:parallelism:)` with `.workers(WORKERS)` (1: `.serial`), then
///   `finish()`, which reads the input after the array (CodableBench.swift).
/// - `stream-jobs FILE WORKERS`: the `stream` bands (operator models) through the public API,
///   `elements(of:at:parallelism:)` with `.workers(WORKERS)` (1: `.serial`), then `finish()`.
func fail(_ message: String, code: Int32) -> Never {
    var text = message + "\n"
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(code)
}

func pullEveryToken(_ path: String, readText: Bool, inBackground: Bool = true) throws -> (tokens: Int, tally: Int) {
    var options = JSONParsingOptions()
    options.parsesInBackground = inBackground
    let reader = JSONReader(.file(path), options: options)
    var tokens = 0
    var tally = 0
    while let token = try reader.next() {
        tokens &+= 1
        switch token {
        case .key, .string, .number:
            tally &+= readText ? reader.withUTF8 { $0.count } : 1
        default:
            break
        }
    }
    return (tokens, tally)
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    fail("usage: spool-bench yajl|cursor|cursor-text|cursor-direct|stream|decode|jsondecoder|jsonserialization FILE\n"
        + "       spool-bench gen-yajl-c|gen-yajl|gen-writer OUT [N]\n"
        + "       spool-bench encode-spool|encode-spool-stream|encode-foundation[-sorted] CATALOG OUT\n"
        + "       spool-bench lines|lines-foundation OUT MEGABYTES\n"
        + "       spool-bench corpus-foundation|corpus-spool|corpus-read|corpus-check DOC FILE [ITERATIONS]\n"
        + "       spool-bench numbers COUNT\n"
        + "       spool-bench scan-simd|scan-sse2|scan-avx2|scan-avx512|scan-scalar|scan-read PATH|--ndjson FILE [CHUNK]\n"
        + "       spool-bench codable-parallel FILE WORKERS [BATCH-BYTES]\n"
        + "       spool-bench codable-jobs|stream-jobs|codable-counts FILE WORKERS\n"
        + "       spool-bench cross-core ROUND-TRIPS", code: 64)
}
let mode = arguments[1]
let path = arguments[2]

switch mode {
case "yajl":
    let events = raw_yajl_count_events(path, 65_536)
    guard events >= 0 else { fail("yajl: failed", code: 1) }
    print("events \(events)")
case "cursor", "cursor-text", "cursor-direct":
    do {
        let (tokens, tally) = try pullEveryToken(
            path, readText: mode == "cursor-text", inBackground: mode != "cursor-direct")
        print("events \(tokens) tally \(tally)")
    } catch {
        fail("\(mode): \(error)", code: 1)
    }
case "stream":
    do {
        let stream = JSONStream(.file(path))
        let bands = stream.elements(of: Band.self, at: "objects")
        var count = 0
        var members = 0
        while let band = try bands.next() {
            count &+= 1
            members &+= band.members.count
        }
        print("bands \(count) members \(members)")
    } catch {
        fail("stream: \(error)", code: 1)
    }
case "stream-jobs":
    // stream-jobs FILE WORKERS: the operator models' bands on WORKERS threads, and the rest of the file.
    let workers = arguments.count > 3 ? Int(arguments[3]) ?? 0 : 0
    guard workers >= 1 else { fail("usage: spool-bench stream-jobs FILE WORKERS", code: 64) }
    do {
        let stream = JSONStream(.file(path))
        let bands = stream.elements(
            of: Band.self, at: "objects", parallelism: workers == 1 ? .serial : .workers(workers))
        var count = 0
        var members = 0
        while let band = try bands.next() {
            count &+= 1
            members &+= band.members.count
        }
        try stream.finish()
        print("bands \(count) members \(members)")
    } catch {
        fail("\(mode): \(error)", code: 1)
    }
case "decode":
    do {
        let catalog = try BandResponse.decodeValue(from: .file(path))
        print("bands \(catalog.objects.count) members \(catalog.objects.reduce(0) { $0 + $1.members.count })")
    } catch {
        fail("decode: \(error)", code: 1)
    }
case "jsondecoder":
    do {
        let catalog = try JSONDecoder().decode(CodableCatalog.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        print("bands \(catalog.objects.count) members \(catalog.objects.reduce(0) { $0 + $1.members.count })")
    } catch {
        fail("jsondecoder: \(error)", code: 1)
    }
case "codable-decode", "codable-stream", "codable-stream-direct", "jsondecoder-dates", "codable-decode-dates",
    "codable-stream-dates", "jsondecoder-snake", "codable-decode-snake", "codable-stream-snake":
    do {
        let (bands, members) = try decodeCatalogCodable(mode: mode, path: path)
        print("bands \(bands) members \(members)")
    } catch {
        fail("\(mode): \(error)", code: 1)
    }
case "codable-parallel":
    // codable-parallel FILE WORKERS [BATCH-BYTES]: the Codable stream's bands decoded on WORKERS threads.
    let workers = CommandLine.arguments.count > 3 ? Int(CommandLine.arguments[3]) ?? 0 : 0
    let batch = CommandLine.arguments.count > 4 ? Int(CommandLine.arguments[4]) ?? 0 : 1 << 20
    guard workers >= 1, batch >= 1 else { fail("usage: spool-bench codable-parallel FILE WORKERS [BATCH-BYTES]", code: 64) }
    do {
        let (bands, members) = try decodeCatalogInParallel(path: path, workers: workers, batchBytes: batch)
        print("bands \(bands) members \(members)")
    } catch {
        fail("\(mode): \(error)", code: 1)
    }
case "codable-jobs":
    // codable-jobs FILE WORKERS: the public API's parallel elements, and the rest of the file.
    let workers = CommandLine.arguments.count > 3 ? Int(CommandLine.arguments[3]) ?? 0 : 0
    guard workers >= 1 else { fail("usage: spool-bench codable-jobs FILE WORKERS", code: 64) }
    do {
        let (bands, members) = try decodeCatalogWithJobs(path: path, workers: workers)
        print("bands \(bands) members \(members)")
    } catch {
        fail("\(mode): \(error)", code: 1)
    }
case "codable-counts":
    // codable-counts FILE WORKERS: codable-jobs, each band dropped where it was decoded.
    guard CommandLine.arguments.count > 3, let workers = Int(CommandLine.arguments[3]), workers >= -1 else {
        fail("usage: spool-bench codable-counts FILE WORKERS", code: 64)
    }
    do {
        let (bands, members) = try countCatalogWithJobs(path: path, workers: workers)
        print("bands \(bands) members \(members)")
    } catch {
        fail("\(mode): \(error)", code: 1)
    }
case "jsonserialization":
    do {
        let catalog = try ManualExtraction.catalog(Data(contentsOf: URL(fileURLWithPath: path)))
        print("bands \(catalog.objects.count) members \(catalog.objects.reduce(0) { $0 + $1.members.count })")
    } catch {
        fail("jsonserialization: \(error)", code: 1)
    }
case "numbers":
    guard let count = Int(path), count > 0 else { fail("usage: spool-bench numbers COUNT", code: 64) }
    benchmarkNumbers(count: count)
case "gen-yajl-c", "gen-yajl", "gen-writer":
    let count = arguments.count > 3 ? Int(arguments[3]) ?? 1_000_000 : 1_000_000
    let clock = ContinuousClock()
    let start = clock.now
    let written: Int
    switch mode {
    case "gen-yajl-c": written = Int(raw_yajl_gen_objects(path, Int64(count)))
    case "gen-yajl": written = generateWithYajl(path, count: count)
    default:
        do { written = try generateWithWriter(path, count: count) } catch { fail("gen-writer: \(error)", code: 1) }
    }
    guard written == count else { fail("\(mode): failed", code: 1) }
    let elapsed = clock.now - start
    print("objects \(count) seconds \(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)")
case "encode-spool", "encode-spool-sorted", "encode-spool-stream", "encode-foundation", "encode-foundation-sorted":
    guard arguments.count == 4 else { fail("usage: spool-bench \(mode) CATALOG OUT", code: 64) }
    do { try encodeCatalog(mode: mode, catalog: path, output: arguments[3]) } catch { fail("\(mode): \(error)", code: 1) }
case "lines", "lines-foundation":
    guard arguments.count == 4, let megabytes = Double(arguments[3]) else { fail("usage: spool-bench \(mode) OUT MEGABYTES", code: 64) }
    do {
        if mode == "lines" {
            try writeLinesWithSpool(to: path, megabytes: megabytes)
        } else {
            try writeLinesWithFoundation(to: path, megabytes: megabytes)
        }
    } catch {
        fail("\(mode): \(error)", code: 1)
    }
case "corpus-foundation", "corpus-spool", "corpus-read", "corpus-check":
    runCorpusMode(mode, Array(arguments.dropFirst(2)))
case "fallback-foundation", "fallback-codable", "fallback-operators":
    runFallbackMode(mode, Array(arguments.dropFirst(2)))
case "cross-core":
    // cross-core ROUND-TRIPS: nanoseconds per cache-line round trip between CPUs 0 and 1.
    guard let trips = Int(path), trips > 0 else { fail("usage: spool-bench cross-core ROUND-TRIPS", code: 64) }
    let nanoseconds = crossCoreRoundTrip(trips)
    guard nanoseconds > 0 else { fail("cross-core: CPUs 0 and 1 are not both this process's", code: 1) }
    print("cross-core-ns \(String(format: "%.1f", nanoseconds))")
case "scan-simd", "scan-sse2", "scan-avx2", "scan-avx512", "scan-scalar", "scan-read":
    runScanMode(mode, Array(arguments.dropFirst(2)))
default:
    fail("unknown mode \(mode)", code: 64)
}
