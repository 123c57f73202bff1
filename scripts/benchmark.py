"""Measure what issue #2 asks for: index time and peak RSS for examples/, warm query latency
(p50/p95, query embedding included), unchanged re-index time (examples/ and 1,000 files),
and index size. Prints a table and, with --json FILE, writes the figures.

    .venv/bin/python scripts/benchmark.py [--folder examples] [--queries tests/examples_queries.jsonl] [--as USER]

--as USER times the queries as USER asks them: through the readers filter (scent.access) in every
candidate list, where a search by root has none.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

EXTRA_QUERIES = [
    "meeting notes", "budget", "what did we decide", "travel", "recipe with garlic", "python function",
    "invoice total", "photo", "summer trip", "pdf page about pets", "expenses in march", "config file",
    "how to parse a header", "who attended", "rent increase", "beach", "train times", "error handling",
    "deposit", "kitchen inventory", "coffee", "weekend plans", "database schema", "shell script backup",
    "notes in spanish", "french note", "table of costs", "contact email", "password policy", "deadline",
]


def index_in_subprocess(folder: Path, index_dir: Path) -> tuple[float, float]:
    """Index in a child process; returns (seconds, that process's own peak RSS in MiB).

    The peak is the child's VmHWM, read by itself: RUSAGE_CHILDREN's maxrss is a running maximum
    over all children and starts at the parent's size when it forks, so it overstates."""
    code = ("import sys, time; from scent import Index; t = time.perf_counter(); "
            "Index(sys.argv[1], index_dir=sys.argv[2]).update(); print(time.perf_counter() - t); "
            "print(next(l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')))")
    out = subprocess.run([sys.executable, "-c", code, str(folder), str(index_dir)],
                         check=True, capture_output=True, text=True)
    seconds, peak_kib = out.stdout.strip().splitlines()[-2:]
    return float(seconds), int(peak_kib) / 1024


def dir_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def make_folder(root: Path, n: int) -> None:
    rnd = random.Random(7)
    words = ("alpha budget cabin delta engine forest garden harbor invoice journal kettle lantern meadow "
             "notebook orchard pepper quartz river saddle timber umbrella velvet walnut yellow zephyr").split()
    for i in range(n):
        sub = root / f"d{i % 20:02d}"
        sub.mkdir(parents=True, exist_ok=True)
        (sub / f"note{i:04d}.txt").write_text(" ".join(rnd.choice(words) for _ in range(30)) + f" ref N{i:05d}\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--folder", default=str(ROOT / "examples"))
    ap.add_argument("--queries", default=str(ROOT / "tests" / "examples_queries.jsonl"))
    ap.add_argument("--many", type=int, default=1000, help="files in the synthetic re-index folder")
    ap.add_argument("--json", help="write the figures to this file")
    ap.add_argument("--as", dest="as_user", help="time the queries as this user asks them (default: you)")
    args = ap.parse_args()

    from scent import Index

    figures: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        folder = Path(args.folder)
        idx_dir = tmp / "idx"
        figures["index_seconds"], figures["index_peak_rss_mib"] = index_in_subprocess(folder, idx_dir)
        figures["index_bytes"] = dir_bytes(idx_dir)

        idx = Index(folder, index_dir=idx_dir)
        t = time.perf_counter()
        report = idx.update()
        figures["reindex_unchanged_seconds"] = time.perf_counter() - t
        figures["files"], figures["units"] = idx.status()["files"], idx.status()["units"]
        assert report.embedded == 0 and report.updated == 0, report

        queries = [json.loads(line)["query"] for line in open(args.queries, encoding="utf-8") if line.strip()]
        queries += EXTRA_QUERIES
        for q in queries[:5]:  # warm: model loaded, vector matrix cached, pages in the OS cache
            idx.search(q, as_user=args.as_user)
        times = []
        figures["as_user"] = args.as_user or "(you)"
        for q in queries:
            t = time.perf_counter()
            idx.search(q, as_user=args.as_user)
            times.append((time.perf_counter() - t) * 1000)
        times.sort()
        figures["queries"] = len(times)
        figures["query_p50_ms"] = statistics.median(times)
        figures["query_p95_ms"] = times[int(0.95 * (len(times) - 1))]
        idx.close()

        many = tmp / "many"
        make_folder(many, args.many)
        many_idx = tmp / "many-idx"
        figures["many_files"] = args.many
        figures["many_index_seconds"], _ = index_in_subprocess(many, many_idx)
        with Index(many, index_dir=many_idx) as big:
            t = time.perf_counter()
            report = big.update()
            figures["many_reindex_unchanged_seconds"] = time.perf_counter() - t
            assert report.unchanged == args.many, report

    width = max(map(len, figures))
    for name, value in figures.items():
        print(f"{name:<{width}}  {value:.3f}" if isinstance(value, float) else f"{name:<{width}}  {value}")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    os.environ.setdefault("SCENT_HOME", tempfile.mkdtemp())
    main()
