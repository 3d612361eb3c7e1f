#!/usr/bin/env python3
"""Upload throughput and the server's peak memory: the band server streaming an upload into
SQLite (POST /bands, Spool's AsyncJSONStream over the body's ByteBuffers) against the same
server taking it the usual way (--collecting: the body collected whole, decoded by
JSONDecoder), in the same run, rounds alternating.

    python3 Examples/Server/bench.py FILE [--rounds N]

Each round starts a release band-server on a fresh database, uploads FILE with curl, reads
the server's peak RSS (VmHWM) and stops it. Both modes store the same bands the same way."""
import argparse, os, re, signal, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))


def run_round(binary, path, collecting):
    with tempfile.TemporaryDirectory() as folder:
        args = [binary, "--port", "0", "--database", os.path.join(folder, "bands.sqlite")]
        if collecting:
            args.append("--collecting")
        server = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            line = server.stdout.readline()
            port = re.search(r"127\.0\.0\.1:(\d+)", line)
            if not port:
                sys.exit(f"band-server did not start: {line!r}")
            url = f"http://127.0.0.1:{port.group(1)}/bands"
            start = time.monotonic()
            result = subprocess.run(["curl", "-sS", "-X", "POST", "-T", path, "-H", "Content-Type: application/json",
                                     "-H", "Expect:", url], capture_output=True, text=True)
            seconds = time.monotonic() - start
            if result.returncode != 0 or '"count"' not in result.stdout:
                sys.exit(f"upload failed: {result.stdout[:300]} {result.stderr[:300]}")
            with open(f"/proc/{server.pid}/status") as status:
                peak = int(re.search(r"VmHWM:\s+(\d+) kB", status.read()).group(1)) / 1024
            count = int(re.search(r'"count":(\d+)', result.stdout).group(1))
            return seconds, peak, count
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    subprocess.run(["swift", "build", "-c", "release", "--product", "band-server", "--package-path", HERE], check=True,
                   stdout=subprocess.DEVNULL)
    binary = os.path.join(HERE, ".build", "release", "band-server")
    megabytes = os.path.getsize(args.file) / 1e6
    results = {False: [], True: []}
    for _ in range(args.rounds):
        for collecting in (False, True):
            results[collecting].append(run_round(binary, args.file, collecting))
    print(f"{args.file}: {megabytes:,.0f} MB, {results[False][0][2]:,} bands, {args.rounds} rounds, medians")
    print("| upload | time | MB/s | server peak RSS |")
    print("|---|---|---|---|")
    for collecting, label in ((False, "streamed (AsyncJSONStream)"), (True, "collected + JSONDecoder")):
        seconds = statistics.median(r[0] for r in results[collecting])
        peak = statistics.median(r[1] for r in results[collecting])
        print(f"| {label} | {seconds:.2f} s | {megabytes / seconds:.1f} | {peak:.1f} MiB |")


if __name__ == "__main__":
    main()
