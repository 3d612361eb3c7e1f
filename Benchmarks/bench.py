#!/usr/bin/env python3
"""Spool's benchmark driver: alternates Spool and its peers in one run, one process per
measurement, and reports median wall time, throughput, ratio to raw yajl and peak RSS.

    python3 Benchmarks/bench.py                 # 10 MB and 100 MB catalogs, 5 rounds
    python3 Benchmarks/bench.py --sizes 10 100 1000 --rounds 5
    python3 Benchmarks/bench.py --encode --sizes 100 --lines-mb 1000   # writing JSON
    python3 Benchmarks/bench.py --corpus --rounds 7 --callgrind         # ordinary documents, Codable
    python3 Benchmarks/bench.py --parallel --sizes 100 1000 --rounds 3  # worker threads (issue 25)

--parallel times, per catalog, today's serial stream against the parallel elements with each
worker count (--jobs; default 1, 2 and os.cpu_count() if larger): the Codable stream
(`codable-stream` vs `codable-jobs N`), the operator stream (`stream` vs `stream-jobs N`) and
`spool items objects` (without and with `--jobs N`, output to /dev/null). It prints the median
wall time, min-max, the median per-round ratio this / today's, the median CPU (user + system)
and the peak RSS; with --callgrind, instructions per band of the 10 MB catalog (all threads).
Before and after, it prints the cross-core round trip of a cache line (`SpoolBench
cross-core`): on a shared VM it changes with the host's placement of the vCPUs, and so
does every ratio of threads against one thread.

Catalogs are generated deterministically into Benchmarks/data/ (kept out of git).
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DATA = os.path.join(HERE, "data")


def build():
    # SwiftPM can miss files added to a path dependency, so the benchmark package starts clean.
    subprocess.run(["swift", "package", "clean"], cwd=HERE, check=True, stdout=subprocess.DEVNULL)
    for cwd in (ROOT, HERE):
        subprocess.run(["swift", "build", "-c", "release"], cwd=cwd, check=True,
                       stdout=subprocess.DEVNULL)


def binary(package_dir, name):
    return os.path.join(package_dir, ".build", "release", name)


def catalog(megabytes):
    os.makedirs(DATA, exist_ok=True)
    path = os.path.join(DATA, f"catalog-{megabytes}mb.json")
    if not os.path.exists(path):
        subprocess.run([binary(HERE, "GenerateCatalog"), str(megabytes), path], check=True,
                       stdout=subprocess.DEVNULL)
    return path


def measure(command, output=None, stdin=None):
    """Runs command once; returns (wall seconds, peak RSS in MiB, its standard output). Peak
    RSS comes from /usr/bin/time, whose child is a fresh process (a child forked from Python
    would count Python's own memory). An output file the command wrote is deleted."""
    elapsed, peak, _, stdout = measure_cpu(command, output, stdin)
    return elapsed, peak, stdout


def measure_cpu(command, output=None, stdin=None, stdout=subprocess.PIPE):
    """measure, also returning the CPU seconds (user + system, every thread) that
    /usr/bin/time reports: (wall, peak RSS MiB, CPU, standard output or None)."""
    with tempfile.NamedTemporaryFile("r") as report:
        start = time.perf_counter()
        result = subprocess.run(["/usr/bin/time", "-f", "%M %U %S", "-o", report.name] + command,
                                stdout=stdout, stdin=stdin, text=True)
        elapsed = time.perf_counter() - start
        if result.returncode != 0:
            sys.exit(f"failed: {' '.join(command)}")
        peak_kib, user, system = report.read().strip().splitlines()[-1].split()
    if output and os.path.exists(output):
        os.remove(output)
    return elapsed, int(peak_kib) / 1024.0, float(user) + float(system), result.stdout


def reported(stdout, name):
    """A `name value` pair from a SpoolBench line such as `bytes 91201432 encode-seconds 0.94`."""
    words = stdout.split()
    return float(words[words.index(name) + 1])


def encode_benchmarks(args, bench):
    """Writing JSON: the catalog's models encoded by StreamingJSONEncoder and JSONEncoder (the
    time of encoding only, from SpoolBench; decoding the catalog first is not counted), then
    JSON Lines from a generated sequence of models. Output goes to Benchmarks/data/ and is
    deleted after each run."""
    out = os.path.join(DATA, "encode-output.json")
    catalog_contenders = [
        ("JSONEncoder -> Data", "encode-foundation"),
        ("StreamingJSONEncoder -> Data", "encode-spool"),
        ("StreamingJSONEncoder -> file writer", "encode-spool-stream"),
        ("JSONEncoder .sortedKeys -> Data", "encode-foundation-sorted"),
        ("StreamingJSONEncoder .sortedKeys -> Data", "encode-spool-sorted"),
    ]
    lines_contenders = [
        ("JSON Lines: JSONEncoder + write(2) per line", "lines-foundation"),
        ("JSON Lines: JSONWriter.writeLines", "lines"),
    ]
    print(f"{'size':>7}  {'contender':<42} {'median s':>9} {'MB/s':>7} {'vs JSONEncoder':>14} {'peak RSS':>10}")

    def run(label, contenders, command, baseline):
        times = {name: [] for name, _ in contenders}
        ratios = {name: [] for name, _ in contenders}
        rss = {name: 0.0 for name, _ in contenders}
        size = 0
        for _ in range(args.rounds):
            round_times = {}
            for name, mode in contenders:
                _, peak, stdout = measure(command(mode), output=out)
                seconds = reported(stdout, "encode-seconds")
                size = reported(stdout, "bytes")
                times[name].append(seconds)
                round_times[name] = seconds
                rss[name] = max(rss[name], peak)
            for name, _ in contenders:
                ratios[name].append(round_times[baseline] / round_times[name])
        for name, _ in contenders:
            median = statistics.median(times[name])
            ratio = statistics.median(ratios[name])
            print(f"{label:>7}  {name:<42} {median:>9.3f} {size / 1e6 / median:>7.0f} {ratio:>13.2f}x {rss[name]:>6.1f} MiB")
        sys.stdout.flush()

    for size in args.sizes:
        path = catalog(size)
        run(f"{size}MB", catalog_contenders, lambda mode: [bench, mode, path, out], catalog_contenders[0][0])
    if args.lines_mb:
        run(f"{args.lines_mb}MB", lines_contenders, lambda mode: [bench, mode, out, str(args.lines_mb)],
            lines_contenders[0][0])


CORPUS = os.path.join(os.path.dirname(ROOT), "shared", "testdata", "corpus")
# Each document of --corpus: its SpoolBench name and its file in the corpus directory (the
# catalog's comes from GenerateCatalog instead).
CORPUS_DOCUMENTS = {
    "twitter": "twitter.json",
    "citm": "citm_catalog.json",
    "canada": "canada.json",
    "twitter-snake": "twitter.json",
    "catalog": None,
}


def callgrind_instructions(command):
    """The instructions `command` executes under callgrind, all threads together (valgrind runs
    them one at a time and counts every one): the `==PID== Collected : N` line it prints."""
    result = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + command,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1"))
    found = re.search(r"^==\d+== Collected : (\d+)$", result.stderr, re.MULTILINE)
    if result.returncode != 0 or not found:
        sys.exit(f"failed under callgrind: {' '.join(command)}\n{result.stderr[-2000:]}")
    return int(found.group(1))


def stripped(binary_path):
    """A copy of binary_path without debug information, in Benchmarks/data/: valgrind cannot
    read the DWARF 5 the release builds carry."""
    os.makedirs(DATA, exist_ok=True)
    copy = os.path.join(DATA, os.path.basename(binary_path) + ".stripped")
    subprocess.run(["objcopy", "--strip-debug", binary_path, copy], check=True)
    return copy


def corpus_benchmarks(args, bench):
    """The ordinary documents: each file read into Data, then decoded whole into full Codable
    models by JSONDecoder and by StreamingJSONDecoder (CorpusBench.swift).

    Timing: in each round, one process per decoder and document (JSONDecoder first, then
    Spool), each decoding the file `--iterations` times (the catalog `--catalog-iterations`)
    and timing every decode alone; a round's time is the median of its decodes, the table
    gives the median of the rounds' times and of the rounds' ratios JSONDecoder / Spool.

    With --callgrind, each decoder also runs once under callgrind decoding once, minus a run
    that only reads the file (`corpus-read`): the instructions of a first decode, all threads
    counted. A second table gives those of a later decode: decoding twice minus once."""
    documents = []
    for name in args.documents:
        if name == "catalog":
            documents += [(f"catalog {size} MB", "catalog", catalog(size), args.catalog_iterations)
                          for size in args.catalog_mb]
        else:
            documents.append((name, name, os.path.join(args.corpus_dir, CORPUS_DOCUMENTS[name]), args.iterations))
    for label, doc, path, _ in documents:
        if not os.path.exists(path):
            sys.exit(f"missing {path} (--corpus-dir)")
        result = subprocess.run([bench, "corpus-check", doc, path], stdout=subprocess.PIPE, text=True)
        if result.returncode != 0:
            sys.exit(f"corpus-check {doc}: the decoders disagree (above)")
        print(f"corpus-check {result.stdout.strip()}", file=sys.stderr)

    contenders = ("corpus-foundation", "corpus-spool")
    times = {(label, mode): [] for label, *_ in documents for mode in contenders}
    ratios = {label: [] for label, *_ in documents}
    for round_number in range(args.rounds):
        for label, doc, path, iterations in documents:
            for mode in contenders:  # A B A B ...
                _, _, stdout = measure([bench, mode, doc, path, str(iterations)])
                times[(label, mode)].append(reported(stdout, "median-seconds"))
            ratios[label].append(times[(label, contenders[0])][-1] / times[(label, contenders[1])][-1])
        print(f"round {round_number + 1} of {args.rounds} done", file=sys.stderr)

    first, later = {}, {}
    if args.callgrind:
        bench_copy = stripped(bench)
        for label, doc, path, _ in documents:
            read = callgrind_instructions([bench_copy, "corpus-read", doc, path])
            for mode in contenders:
                once = callgrind_instructions([bench_copy, mode, doc, path, "1"])
                twice = callgrind_instructions([bench_copy, mode, doc, path, "2"])
                first[(label, mode)] = once - read
                later[(label, mode)] = twice - once
            print(f"callgrind {label} done", file=sys.stderr)

    def size(path):
        return f"{os.path.getsize(path) / 1e6:.2f} MB"

    def millions(count):
        return f"{count / 1e6:,.1f}M"

    print()
    header = "| document | size | JSONDecoder | Spool | ratio (time) |"
    rule = "|---|---:|---:|---:|---:|"
    if args.callgrind:
        header += " instructions JSONDecoder | Spool | ratio |"
        rule += "---:|---:|---:|"
    print(header)
    print(rule)
    for label, doc, path, _ in documents:
        foundation = statistics.median(times[(label, contenders[0])]) * 1e3
        spool = statistics.median(times[(label, contenders[1])]) * 1e3
        row = f"| {label} | {size(path)} | {foundation:.2f} ms | {spool:.2f} ms | {statistics.median(ratios[label]):.2f}x |"
        if args.callgrind:
            a, b = first[(label, contenders[0])], first[(label, contenders[1])]
            row += f" {millions(a)} | {millions(b)} | {a / b:.2f}x |"
        print(row)
    if args.callgrind:
        print()
        print("| document | later decode: instructions JSONDecoder | Spool | ratio |")
        print("|---|---:|---:|---:|")
        for label, *_ in documents:
            a, b = later[(label, contenders[0])], later[(label, contenders[1])]
            print(f"| {label} | {millions(a)} | {millions(b)} | {a / b:.2f}x |")
    sys.stdout.flush()


def parallel_contenders(bench, spool, jobs):
    """--parallel's contenders: (name, today's contender it is compared with, command(FILE)).
    Each group starts with today's serial stream; `codable-jobs 1` and `stream-jobs 1` ask for
    `.serial` through the parallel API (and call finish()), `spool items --jobs 1` is `spool
    items`, so it is left out. `codable-counts N` is `codable-jobs N` with each band dropped on
    the worker that decoded it: the gap between the two is what handing the models to the
    consumer's thread costs (its cache lines, and frees into the workers' malloc arenas)."""
    items = [spool, "items", "--no-progress"]
    contenders = []
    for today, parallel in (("codable-stream", "codable-jobs"), ("stream", "stream-jobs")):
        contenders.append((today, today, lambda f, m=today: [bench, m, f]))
        contenders += [(f"{parallel} {n}", today, lambda f, m=parallel, n=n: [bench, m, f, str(n)]) for n in jobs]
        if parallel == "codable-jobs":
            contenders += [(f"codable-counts {n}", today, lambda f, n=n: [bench, "codable-counts", f, str(n)])
                           for n in jobs if n > 1]
    contenders.append(("spool items objects", "spool items objects", lambda f: items + ["objects", f]))
    contenders += [(f"spool items --jobs {n} objects", "spool items objects",
                    lambda f, n=n: items + ["--jobs", str(n), "objects", f]) for n in jobs if n > 1]
    return contenders


def cross_core(bench):
    """The median of 5 measurements of a cache line's round trip between CPUs 0 and 1, where
    the process may run on both."""
    allowed = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else set(range(os.cpu_count() or 1))
    if not {0, 1} <= allowed:
        return "n/a (CPUs 0 and 1 are not both this process's)"
    trips = []
    for _ in range(5):
        result = subprocess.run([bench, "cross-core", "1000000"], stdout=subprocess.PIPE, text=True)
        if result.returncode != 0:
            return "n/a (SpoolBench cross-core failed)"
        trips.append(reported(result.stdout, "cross-core-ns"))
    return f"{statistics.median(trips):.0f} ns (min {min(trips):.0f}, max {max(trips):.0f})"


def parallel_benchmarks(args, bench):
    """Issue 25's parallel elements against today's serial stream, in alternating rounds, one
    process per measurement. The SpoolBench modes must all print the same `bands N members M`;
    `spool items` writes to /dev/null."""
    spool = binary(ROOT, "spool")
    jobs = args.jobs or sorted({1, 2, os.cpu_count() or 1})
    contenders = parallel_contenders(bench, spool, jobs)
    # What moving a cache line between cores costs now: on a shared VM it changes with where
    # the host places the vCPUs, and the threads' speed-up with it (CrossCoreBench.swift).
    print(f"cross-core round trip before: {cross_core(bench)}")
    for size in args.sizes:
        path = catalog(size)
        wall = {name: [] for name, *_ in contenders}
        cpu = {name: [] for name, *_ in contenders}
        ratios = {name: [] for name, *_ in contenders}
        rss = {name: 0.0 for name, *_ in contenders}
        counts = set()
        for round_number in range(args.rounds):
            for name, _, command in contenders:  # A B C A B C ...
                to_null = name.startswith("spool")
                elapsed, peak, seconds, stdout = measure_cpu(
                    command(path), stdout=subprocess.DEVNULL if to_null else subprocess.PIPE)
                wall[name].append(elapsed)
                cpu[name].append(seconds)
                rss[name] = max(rss[name], peak)
                if not to_null:
                    counts.add(stdout.strip())
            for name, today, _ in contenders:
                ratios[name].append(wall[name][-1] / wall[today][-1])
            print(f"{size} MB: round {round_number + 1} of {args.rounds} done", file=sys.stderr)
        if len(counts) != 1:
            sys.exit(f"{size} MB: the modes disagree: {sorted(counts)}")
        print(f"\n{size} MB catalog ({counts.pop()}), {args.rounds} rounds,"
              " ratio = this wall / today's (median per round):\n")
        print("| contender | median wall | min-max | ratio | median CPU | peak RSS |")
        print("|---|---:|---:|---:|---:|---:|")
        for name, *_ in contenders:
            print(f"| {name} | {statistics.median(wall[name]):.3f} s | {min(wall[name]):.3f}-{max(wall[name]):.3f}"
                  f" | {statistics.median(ratios[name]):.2f}x | {statistics.median(cpu[name]):.3f} s"
                  f" | {rss[name]:.1f} MiB |")
        sys.stdout.flush()
    print(f"\ncross-core round trip after: {cross_core(bench)}")

    if args.callgrind:
        # Instructions of the whole process, all threads counted, over the bands it decodes.
        path = catalog(10)
        bands = reported(measure([bench, "stream", path])[2], "bands")
        contenders = parallel_contenders(stripped(bench), stripped(spool), [1, 2])
        counts = {name: callgrind_instructions(command(path)) for name, _, command in contenders}
        print(f"\n10 MB catalog under callgrind ({bands:.0f} bands), ratio = this / today's:\n")
        print("| contender | instructions | per band | ratio |")
        print("|---|---:|---:|---:|")
        for name, today, _ in contenders:
            print(f"| {name} | {counts[name] / 1e6:,.0f}M | {counts[name] / bands:,.0f}"
                  f" | {counts[name] / counts[today]:.3f}x |")
        sys.stdout.flush()


def fallback_benchmarks(args, bench):
    """The `try?` fallback idiom (an Int tried first, then a String) over arrays of strings of
    each size: every element costs one refused value, whose error must cost O(1) in its index.
    Medians of alternating rounds, each the median of 5 decodes in one process."""
    contenders = [("JSONDecoder", "fallback-foundation"), ("StreamingJSONDecoder", "fallback-codable"),
                  ("JSONDecodable operators", "fallback-operators")]
    print("| elements | " + " | ".join(f"{name} ms" for name, _ in contenders) + " | Codable / JSONDecoder | operators / JSONDecoder |")
    print("|---|" + "---|" * (len(contenders) + 2))
    for count in args.fallback_sizes:
        seconds = {mode: [] for _, mode in contenders}
        for _ in range(args.rounds):
            for _, mode in contenders:
                _, _, stdout = measure([bench, mode, str(count)])
                seconds[mode].append(reported(stdout, "seconds"))
        medians = {mode: statistics.median(values) for mode, values in seconds.items()}
        foundation = medians["fallback-foundation"]
        cells = [f"{medians[mode] * 1000:.2f}" for _, mode in contenders]
        print(f"| {count:,} | " + " | ".join(cells)
              + f" | {medians['fallback-codable'] / foundation:.2f}x | {medians['fallback-operators'] / foundation:.2f}x |")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 100], help="catalog sizes in MB")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds per size")
    parser.add_argument("--skip-build", action="store_true")
    parser.add_argument("--decode", action="store_true",
                        help="compare whole-catalog decoding with JSONDecoder and JSONSerialization instead")
    parser.add_argument("--codable", action="store_true",
                        help="compare Codable decoding: StreamingJSONDecoder (whole and streamed) with JSONDecoder")
    parser.add_argument("--encode", action="store_true",
                        help="compare encoding (StreamingJSONEncoder, JSONEncoder) and JSON Lines writing instead")
    parser.add_argument("--corpus", action="store_true",
                        help="decode the ordinary documents (twitter, citm, canada, the catalog) into full Codable "
                             "models with JSONDecoder and StreamingJSONDecoder; prints a Markdown table")
    parser.add_argument("--callgrind", action="store_true",
                        help="with --corpus or --parallel: also count instructions under valgrind's callgrind")
    parser.add_argument("--parallel", action="store_true",
                        help="time the parallel elements (Codable, operators, spool items) against today's stream")
    parser.add_argument("--jobs", type=int, nargs="+", metavar="N",
                        help="with --parallel: the worker counts (default: 1, 2 and os.cpu_count() if larger)")
    parser.add_argument("--documents", nargs="+", default=list(CORPUS_DOCUMENTS), choices=list(CORPUS_DOCUMENTS),
                        metavar="DOC", help="with --corpus: the documents, of " + " ".join(CORPUS_DOCUMENTS))
    parser.add_argument("--corpus-dir", default=CORPUS,
                        help="with --corpus: where twitter.json, citm_catalog.json and canada.json are "
                             "(default: ../shared/testdata/corpus from the repository's root)")
    parser.add_argument("--catalog-mb", type=int, nargs="+", default=[10],
                        help="with --corpus: the sizes of the band catalogs decoded, in MB")
    parser.add_argument("--iterations", type=int, default=20,
                        help="with --corpus: decodes per process of each corpus file")
    parser.add_argument("--catalog-iterations", type=int, default=5,
                        help="with --corpus: decodes per process of a catalog")
    parser.add_argument("--skip", nargs="+", default=[], metavar="WORD",
                        help="leave out the contenders whose name contains one of these words (e.g. DateFormatter)")
    parser.add_argument("--fallback", action="store_true",
                        help="time the try? fallback idiom (Int, else String) per element against JSONDecoder")
    parser.add_argument("--fallback-sizes", type=int, nargs="+", default=[1000, 10000, 100000],
                        help="with --fallback: the array sizes")
    parser.add_argument("--lines-mb", type=int, default=1000,
                        help="with --encode: megabytes of JSON Lines to write (0 to skip)")
    args = parser.parse_args()
    if not args.skip_build:
        build()
    bench = binary(HERE, "SpoolBench")
    if args.encode:
        encode_benchmarks(args, bench)
        return
    if args.corpus:
        corpus_benchmarks(args, bench)
        return
    if args.fallback:
        fallback_benchmarks(args, bench)
        return
    if args.parallel:
        parallel_benchmarks(args, bench)
        return
    spool = binary(ROOT, "spool")
    contenders = [
        ("raw yajl (counting callbacks)", lambda f: [bench, "yajl", f]),
        ("spool validate", lambda f: [spool, "validate", "--quiet", f]),
        ("JSONReader, every token", lambda f: [bench, "cursor", f]),
        ("JSONReader, every token + text", lambda f: [bench, "cursor-text", f]),
        ("JSONReader, one thread", lambda f: [bench, "cursor-direct", f]),
        ("JSONStream, every Band typed", lambda f: [bench, "stream", f]),
    ]
    if args.decode:
        contenders = [
            ("JSONDecoder (Codable, date strings)", lambda f: [bench, "jsondecoder", f]),
            ("Spool decodeValue (models, dates)", lambda f: [bench, "decode", f]),
            ("Spool JSONStream (models, dates)", lambda f: [bench, "stream", f]),
            ("JSONSerialization + extraction", lambda f: [bench, "jsonserialization", f]),
        ]
    baselines = {}
    if args.codable:
        contenders = [
            ("JSONDecoder whole (date strings)", lambda f: [bench, "jsondecoder", f]),
            ("StreamingJSONDecoder whole (strings)", lambda f: [bench, "codable-decode", f]),
            ("StreamingJSONDecoder stream (strings)", lambda f: [bench, "codable-stream", f]),
            ("JSONDecoder whole (DateFormatter)", lambda f: [bench, "jsondecoder-dates", f]),
            ("StreamingJSONDecoder whole (.pattern)", lambda f: [bench, "codable-decode-dates", f]),
            ("StreamingJSONDecoder stream (.pattern)", lambda f: [bench, "codable-stream-dates", f]),
            ("JSONDecoder whole (snake case)", lambda f: [bench, "jsondecoder-snake", f]),
            ("StreamingJSONDecoder whole (snake)", lambda f: [bench, "codable-decode-snake", f]),
            ("StreamingJSONDecoder stream (snake)", lambda f: [bench, "codable-stream-snake", f]),
        ]
        # The rows with parsed dates are compared with JSONDecoder parsing them too, and the
        # snake-case rows with JSONDecoder converting the keys too.
        baselines = {name: "JSONDecoder whole (DateFormatter)" for name, _ in contenders[4:6]}
        baselines.update({name: "JSONDecoder whole (snake case)" for name, _ in contenders[7:]})
        contenders += [
            ("Spool JSONStream (operator models)", lambda f: [bench, "stream", f]),
        ]
    contenders = [(name, command) for name, command in contenders if not any(word in name for word in args.skip)]
    baseline = "vs JSONDecoder" if args.decode or args.codable else "vs yajl"
    print(f"{'size':>6}  {'contender':<36} {'median s':>9} {'MB/s':>7} {baseline:>14} {'peak RSS':>10}")
    for size in args.sizes:
        path = catalog(size)
        megabytes = os.path.getsize(path) / 1e6
        times = {name: [] for name, _ in contenders}
        rss = {name: 0.0 for name, _ in contenders}
        ratios = {name: [] for name, _ in contenders}
        for _ in range(args.rounds):
            round_times = {}
            for name, command in contenders:  # A B C A B C ...
                elapsed, peak, _ = measure(command(path))
                times[name].append(elapsed)
                round_times[name] = elapsed
                rss[name] = max(rss[name], peak)
            for name, _ in contenders:
                peer = baselines.get(name)
                if peer not in round_times:  # (no peer of its own, or it was skipped)
                    peer = contenders[0][0]
                ratios[name].append(round_times[peer] / round_times[name])
        for name, _ in contenders:
            median = statistics.median(times[name])
            ratio = statistics.median(ratios[name])
            print(f"{size:>4}MB  {name:<36} {median:>9.3f} {megabytes / median:>7.0f} {ratio:>13.2f}x {rss[name]:>6.1f} MiB")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
