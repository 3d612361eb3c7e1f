#!/usr/bin/env python3
"""Spool's benchmark driver: alternates Spool and its peers in one run, one process per
measurement, and reports median wall time, throughput, ratio to raw yajl and peak RSS.

    python3 Benchmarks/bench.py                 # 10 MB and 100 MB catalogs, 5 rounds
    python3 Benchmarks/bench.py --sizes 10 100 1000 --rounds 5
    python3 Benchmarks/bench.py --encode --sizes 100 --lines-mb 1000   # writing JSON

Catalogs are generated deterministically into Benchmarks/data/ (kept out of git).
"""
import argparse
import os
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
    with tempfile.NamedTemporaryFile("r") as report:
        start = time.perf_counter()
        result = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", report.name] + command,
                                stdout=subprocess.PIPE, stdin=stdin, text=True)
        elapsed = time.perf_counter() - start
        if result.returncode != 0:
            sys.exit(f"failed: {' '.join(command)}")
        peak_kib = int(report.read().strip().splitlines()[-1])
    if output and os.path.exists(output):
        os.remove(output)
    return elapsed, peak_kib / 1024.0, result.stdout


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
    parser.add_argument("--skip", nargs="+", default=[], metavar="WORD",
                        help="leave out the contenders whose name contains one of these words (e.g. DateFormatter)")
    parser.add_argument("--lines-mb", type=int, default=1000,
                        help="with --encode: megabytes of JSON Lines to write (0 to skip)")
    args = parser.parse_args()
    if not args.skip_build:
        build()
    bench = binary(HERE, "SpoolBench")
    if args.encode:
        encode_benchmarks(args, bench)
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
        ]
        # The rows with parsed dates are compared with JSONDecoder parsing them too.
        baselines = {name: "JSONDecoder whole (DateFormatter)" for name, _ in contenders[4:]}
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
