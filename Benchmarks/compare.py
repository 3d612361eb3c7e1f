#!/usr/bin/env python3
"""Before/after: the same contenders from two checkouts of Spool, alternating.

    python3 Benchmarks/compare.py OLD_CHECKOUT NEW_CHECKOUT [--sizes 100 1000] [--rounds 9]

Each checkout must have its release builds already (`swift build -c release --product spool`
at its root, `swift build -c release` in its Benchmarks/). Every round runs each contender
from the old checkout and then from the new one, on the same catalog (this checkout's
Benchmarks/data/), each in its own process; the table gives the median wall time of each, the
median of the per-round ratios new/old (below 1.00: the new one is faster) and both peak RSS.
Instruction counts, which do not depend on the machine's load, come from callgrind; see
README.md.
"""
import argparse
import os
import statistics
import sys

from bench import catalog, measure


def contenders(checkout):
    spool = os.path.join(checkout, ".build", "release", "spool")
    bench = os.path.join(checkout, "Benchmarks", ".build", "release", "SpoolBench")
    return [
        ("spool validate FILE", lambda f: [spool, "validate", "--quiet", f], None),
        ("spool validate < FILE (stdin)", lambda f: [spool, "validate", "--quiet"], "stdin"),
        ("JSONReader, every token (background)", lambda f: [bench, "cursor", f], None),
        ("JSONReader, one thread", lambda f: [bench, "cursor-direct", f], None),
        ("JSONStream, every Band typed", lambda f: [bench, "stream", f], None),
        ("Codable models streamed", lambda f: [bench, "codable-stream", f], None),
        ("Codable models decoded whole", lambda f: [bench, "codable-decode", f], None),
    ]


def run(command, path, stdin):
    if stdin is None:
        return measure(command)
    with open(path, "rb") as handle:
        return measure(command, stdin=handle)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000])
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    old, new = contenders(args.old), contenders(args.new)
    print(f"{'size':>6}  {'contender':<38} {'old s':>8} {'new s':>8} {'new/old':>8} {'old RSS':>9} {'new RSS':>9}")
    for size in args.sizes:
        path = catalog(size)
        for (name, old_command, stdin), (_, new_command, _) in zip(old, new):
            times = {"old": [], "new": []}
            rss = {"old": 0.0, "new": 0.0}
            ratios = []
            for _ in range(args.rounds):
                round_times = {}
                for label, command in (("old", old_command), ("new", new_command)):
                    elapsed, peak, _ = run(command(path), path, stdin)
                    times[label].append(elapsed)
                    rss[label] = max(rss[label], peak)
                    round_times[label] = elapsed
                ratios.append(round_times["new"] / round_times["old"])
            print(f"{size:>4}MB  {name:<38} {statistics.median(times['old']):>8.3f} {statistics.median(times['new']):>8.3f} "
                  f"{statistics.median(ratios):>8.3f} {rss['old']:>5.1f} MiB {rss['new']:>5.1f} MiB")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
