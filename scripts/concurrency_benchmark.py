"""Latency of `scent serve` under concurrent searches (issue #13): indexes examples/ into a
temporary SCENT_HOME, starts `scent serve` on a free port, fires CLIENTS concurrent clients at
/api/search for REQUESTS requests in all, and prints p50/p95 latency and the error count.

    .venv/bin/python scripts/concurrency_benchmark.py [--clients 50] [--requests 200] [--json]
        [--while index|rebuild|watch]

--while runs a writer beside the load: `scent index` after every text file was changed, `scent index
--rebuild`, or `scent watch` while 20 files are saved one by one; the writer's exit status is printed
with the figures (its errors are the server's errors plus a writer that did not end well).

Latency is each request's wall time as its client sees it (queueing included). The figures are
throughput-bound on a machine with few cores; compare runs on the same machine only.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from scent.serve.tokens import own_token

ROOT = Path(__file__).resolve().parent.parent
QUERIES = ["apartment lease deposit", "canal photo amsterdam", "invoice total", "python http header",
           "meeting notes", "recipe tomato", "receipt", "budget 2024", "train ticket", "README install"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


HEADERS: dict[str, str] = {}  # the server's own token, once it is made (main)


def scent(*args: str) -> list[str]:
    # this interpreter, so the scent on its path (PYTHONPATH included) is the one measured
    return [sys.executable, "-c", "from scent.cli import main; main()", *args]


def wait_ready(url: str, proc: subprocess.Popen, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"scent serve exited with {proc.returncode}")
        try:
            urllib.request.urlopen(urllib.request.Request(url + "/api/status", headers=HEADERS), timeout=5).read()
            return
        except (urllib.error.URLError, OSError):
            time.sleep(0.3)
    raise SystemExit("scent serve did not answer in time")


def one(url: str, i: int) -> tuple[float, str | None]:
    q = urllib.parse.urlencode({"q": QUERIES[i % len(QUERIES)], "k": 10})
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(urllib.request.Request(f"{url}/api/search?{q}", headers=HEADERS), timeout=300) as r:
            r.read()
            error = None if r.status == 200 else f"HTTP {r.status}"
    except (urllib.error.URLError, OSError) as err:
        error = str(err)
    return time.perf_counter() - started, error


def start_writer(kind: str | None, folder: Path, env: dict) -> subprocess.Popen | None:
    if kind is None:
        return None
    if kind == "index":  # every text file changed: the run re-reads and rewrites them all
        for path in folder.rglob("*"):
            if path.suffix in (".md", ".txt") and path.is_file():
                path.write_text(path.read_text(encoding="utf-8", errors="replace") + "\nChanged for the benchmark.\n",
                                encoding="utf-8")
        return subprocess.Popen(scent("index", str(folder), "-q"), env=env)
    if kind == "rebuild":
        return subprocess.Popen(scent("index", str(folder), "--rebuild", "-q"), env=env)
    return subprocess.Popen(scent("watch", str(folder), "-q"), env=env)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--requests", type=int, default=200)
    ap.add_argument("--folder", type=Path, default=ROOT / "examples")
    ap.add_argument("--json", action="store_true", help="Print one JSON object.")
    ap.add_argument("--while", dest="writer", choices=("index", "rebuild", "watch"),
                    help="Write the index beside the load.")
    args = ap.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="scent-conc-"))
    env = {**os.environ, "SCENT_HOME": str(tmp / "home")}
    env.pop("SCENT_CONFIG", None)
    server = writer = None
    writer_rc = None
    try:
        folder = tmp / "folder"
        shutil.copytree(args.folder, folder)
        subprocess.run(scent("index", str(folder), "-q"), env=env, check=True)
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        # made here, before the server does, in the same file: the server asks for it
        HEADERS["Authorization"] = "Bearer " + own_token(tmp / "home" / "serve-token")
        server = subprocess.Popen(scent("serve", "--folder", str(folder), "--port", str(port)), env=env)
        wait_ready(url, server)
        one(url, 0)  # the model loads on the first search; not part of the figures
        writer = start_writer(args.writer, folder, env)
        started = time.perf_counter()
        with ThreadPoolExecutor(args.clients) as pool:
            load = pool.map(lambda i: one(url, i), range(args.requests))
            if args.writer == "watch":
                for n in range(20):  # saved while the load runs
                    (folder / f"saved-{n:02d}.md").write_text(f"# Saved {n}\n\nA note saved during the load, {n}.\n")
                    time.sleep(0.2)
            done = list(load)
        wall = time.perf_counter() - started
        if writer is not None:
            if args.writer == "watch":
                writer.send_signal(signal.SIGTERM)
            writer_rc = writer.wait(600)
            writer = None
    finally:
        if writer is not None:
            writer.kill()
        if server is not None:
            server.terminate()
            server.wait(30)
        shutil.rmtree(tmp, ignore_errors=True)
    times = [t for t, _ in done]
    errors = [e for _, e in done if e]
    out = {"clients": args.clients, "requests": args.requests, "errors": len(errors),
           "p50_s": round(statistics.median(times), 3), "p95_s": round(percentile(times, 95), 3),
           "max_s": round(max(times), 3), "wall_s": round(wall, 2),
           "requests_per_s": round(args.requests / wall, 1), "cpus": os.cpu_count(),
           "while": args.writer, "writer_exit": writer_rc}
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{args.requests} requests from {args.clients} clients on {out['cpus']} CPUs: "
              f"p50 {out['p50_s']} s, p95 {out['p95_s']} s, max {out['max_s']} s, "
              f"{out['requests_per_s']} req/s, {out['errors']} errors"
              + (f"; while `scent {args.writer}` wrote the index (exit {writer_rc})" if args.writer else ""))
        for e in sorted(set(errors))[:5]:
            print(f"  error: {e}")


if __name__ == "__main__":
    main()
