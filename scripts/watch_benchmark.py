"""How fast `scent watch` makes a written file searchable, with the real model, on a real folder.

    .venv/bin/python scripts/watch_benchmark.py [--files 100] [--burst 5000] [--json]

Writes `--files` notes one at a time into a watched folder (each after the last was found) and
measures write -> first search that finds it (median, p95); then writes `--burst` notes at once
(as a git checkout would) and measures until the last is searchable, with the watching process's
peak RSS. A temporary folder and SCENT_HOME; the machine's load is part of every figure.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import threading
import time
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--files", type=int, default=100)
    ap.add_argument("--burst", type=int, default=5000)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="scent-watch-"))
    os.environ["SCENT_HOME"] = str(work / "home")
    from scent import Index
    from scent.watch import watch

    folder = work / "notes"
    folder.mkdir()
    (folder / "start.md").write_text("The first note.\n")
    idx = Index(folder)
    idx.update()
    reader = idx.reader()
    stop = threading.Event()
    thread = threading.Thread(target=watch, args=(idx, stop), daemon=True)
    thread.start()
    time.sleep(0.5)

    def found(word: str, path: str) -> bool:
        return any(r.path == path for r in reader.search(word, k=3, strategy="keyword"))

    def wait_for(word: str, path: str, timeout: float = 600) -> float:
        started = time.monotonic()
        while not found(word, path):
            if time.monotonic() - started > timeout:
                raise SystemExit(f"{path} not searchable after {timeout} s")
            time.sleep(0.02)
        return time.monotonic() - started

    latencies = []
    for i in range(args.files):
        name = f"one/n{i:04d}.md"
        (folder / "one").mkdir(exist_ok=True)
        (folder / name).write_text(f"Meeting note {i}: the word zq{i:04d}x marks it.\n")
        latencies.append(wait_for(f"zq{i:04d}x", name))
    burst_s = None
    if args.burst:
        started = time.monotonic()
        (folder / "burst").mkdir()
        for i in range(args.burst):
            (folder / "burst" / f"b{i:05d}.md").write_text(f"Checked-out file {i} with the token bq{i:05d}y.\n")
        last = args.burst - 1
        wait_for(f"bq{last:05d}y", f"burst/b{last:05d}.md")
        wait_for("bq00000y", "burst/b00000.md")
        burst_s = time.monotonic() - started
    stop.set()
    thread.join(timeout=30)
    with open("/proc/self/status") as fh:
        rss = next(int(line.split()[1]) for line in fh if line.startswith("VmHWM")) / 1024
    out = {"files": args.files, "median_s": round(statistics.median(latencies), 3),
           "p95_s": round(sorted(latencies)[int(0.95 * (len(latencies) - 1))], 3), "max_s": round(max(latencies), 3),
           "burst_files": args.burst, "burst_s": burst_s and round(burst_s, 1), "peak_rss_mb": round(rss, 1)}
    print(json.dumps(out) if args.json else "\n".join(f"{k}: {v}" for k, v in out.items()))


if __name__ == "__main__":
    main()
