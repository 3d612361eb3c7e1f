#!/usr/bin/env python3
"""Spool's benchmark driver: alternates Spool and its peers in one run, one process per
measurement, and reports median wall time, throughput, ratio to raw yajl and peak RSS.

    python3 Benchmarks/bench.py                 # 10 MB and 100 MB catalogs, 5 rounds
    python3 Benchmarks/bench.py --sizes 10 100 1000 --rounds 5

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


def measure(command):
    """Runs command once; returns (wall seconds, peak RSS in MiB). Peak RSS comes from
    /usr/bin/time, whose child is a fresh process (a child forked from Python would count
    Python's own memory)."""
    with tempfile.NamedTemporaryFile("r") as report:
        start = time.perf_counter()
        result = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", report.name] + command,
                                stdout=subprocess.DEVNULL)
        elapsed = time.perf_counter() - start
        if result.returncode != 0:
            sys.exit(f"failed: {' '.join(command)}")
        peak_kib = int(report.read().strip().splitlines()[-1])
    return elapsed, peak_kib / 1024.0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 100], help="catalog sizes in MB")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds per size")
    parser.add_argument("--skip-build", action="store_true")
    parser.add_argument("--decode", action="store_true",
                        help="compare whole-catalog decoding with JSONDecoder and JSONSerialization instead")
    args = parser.parse_args()
    if not args.skip_build:
        build()
    bench = binary(HERE, "SpoolBench")
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
    baseline = "vs JSONDecoder" if args.decode else "vs yajl"
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
                elapsed, peak = measure(command(path))
                times[name].append(elapsed)
                round_times[name] = elapsed
                rss[name] = max(rss[name], peak)
            for name, _ in contenders:
                ratios[name].append(round_times[contenders[0][0]] / round_times[name])
        for name, _ in contenders:
            median = statistics.median(times[name])
            ratio = statistics.median(ratios[name])
            print(f"{size:>4}MB  {name:<36} {median:>9.3f} {megabytes / median:>7.0f} {ratio:>13.2f}x {rss[name]:>6.1f} MiB")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
