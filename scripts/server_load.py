"""`scent serve` under load (issue #12): indexes examples/ with the real model into a temporary
SCENT_HOME, starts the real `scent serve` on a free port, and sends REQUESTS requests with
CONCURRENCY of them in flight at once (httpx + asyncio): searches, status, suggestions, files,
thumbnails, and requests the guard must refuse (another Host, another Origin, a wrong token).
Prints, per server mode, the requests, the failures (a 5xx, a connection error, or any status
other than the one expected) and p50/p95/max latency.

    .venv/bin/python scripts/server_load.py [--requests 1000] [--concurrency 200] [--mode local|remote|both] [--json]

`local` is `scent serve` (loopback, with the token its address carries); `remote` is `scent serve --host 0.0.0.0
--allow-remote` with a token from `scent token add`, every request sent with it except the
ones meant to be refused. Latency is each request's wall time as the client sees it, queueing
included: on a machine with few cores it is throughput-bound; compare runs on one machine only.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
QUERIES = ["apartment lease deposit", "canal photo amsterdam", "invoice total", "python http header",
           "meeting notes", "recipe tomato", "receipt", "budget 2024", "train ticket", "README install"]


def scent(*args: str) -> list[str]:
    # this interpreter, so the scent on its path (PYTHONPATH included) is the one measured
    return [sys.executable, "-c", "from scent.cli import main; main()", *args]


def requests_for(i: int, token: str, local: bool, files: list[str], pictures: list[str]) -> tuple[str, dict, int, str]:
    """The i-th request: (url, headers, expected status, label)."""
    auth = {"authorization": f"Bearer {token}"} if token else {}
    q = QUERIES[i % len(QUERIES)]
    mix = [
        (f"/api/search?q={q}&k=10", auth, 200, "search"),
        (f"/api/search?q={q}&k=10", auth, 200, "search"),
        (f"/api/search?q={q}&k=5&explain=true", auth, 200, "search"),
        ("/api/status", auth, 200, "status"),
        ("/api/suggestions?limit=12", auth, 200, "suggestions"),
        (f"/api/file?path={files[i % len(files)]}", auth, 200, "file"),
        (f"/api/thumb?path={pictures[i % len(pictures)]}", auth, 200, "thumb"),
        ("/api/status", {**auth, "origin": "http://evil.example"}, 403, "refused: origin"),
        ("/api/search?q=x&k=1000", auth, 400, "refused: k"),
    ]
    mix.append(("/api/status", {"authorization": "Bearer wrong"}, 401, "refused: token"))
    if local:  # a remote-facing server takes any Host
        mix.append(("/api/status", {**auth, "host": "evil.example"}, 403, "refused: host"))
    return mix[i % len(mix)]


async def load(url: str, token: str, local: bool, n: int, concurrency: int, files, pictures) -> list[tuple]:
    # A fresh connection per request: a kept-alive one the server closes after its idle timeout
    # while a request is being sent on it fails in the client (browsers retry; httpx does not),
    # which would count a client-side race as a server failure.
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=0)
    gate = asyncio.Semaphore(concurrency)
    async with httpx.AsyncClient(base_url=url, timeout=300, limits=limits) as client:
        async def one(i):
            path, headers, want, label = requests_for(i, token, local, files, pictures)
            async with gate:
                started = time.perf_counter()
                try:
                    status = (await client.get(path, headers=headers)).status_code
                except httpx.HTTPError as err:
                    status = f"{type(err).__name__}"
                return label, want, status, time.perf_counter() - started
        return await asyncio.gather(*(one(i) for i in range(n)))


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))]


def run_mode(mode: str, folder: Path, env: dict, args) -> dict:
    token = None
    command = ["serve", "--folder", str(folder), "--port", "0"]
    if mode == "remote":
        token = subprocess.run(scent("token", "add", f"load-{os.getpid()}"), env=env, check=True,
                               capture_output=True, text=True).stdout.strip()
        command += ["--host", "0.0.0.0", "--allow-remote"]
    server = subprocess.Popen(scent(*command), env=env, stderr=subprocess.PIPE, text=True)
    try:
        line = ""
        while not line.startswith("scent: serving"):  # bound before it prints: this port is listening
            line = server.stderr.readline()
            if not line and server.poll() is not None:
                raise SystemExit(f"scent serve exited with {server.returncode}")
        found = re.search(r":(\d+)/(?:#token=([\w-]+))? ", line)
        port, token = found.group(1), token or found.group(2)
        logged: list[str] = []  # the server's own complaints, if any, for the report
        threading.Thread(target=lambda: logged.extend(x for x in server.stderr if not x.startswith("scent: open")),
                         daemon=True).start()
        url = f"http://127.0.0.1:{port}"
        files = sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.suffix in (".md", ".txt", ".pdf"))
        pictures = sorted(str(p.relative_to(folder)) for p in folder.rglob("*.jpg"))
        headers = {"authorization": f"Bearer {token}"} if token else {}
        httpx.get(f"{url}/api/search?q=warm+up", headers=headers, timeout=300)  # the model loads on the first search
        started = time.perf_counter()
        done = asyncio.run(load(url, token, mode == "local", args.requests, args.concurrency, files, pictures))
        wall = time.perf_counter() - started
    finally:
        server.terminate()
        server.wait(30)
    failures = [(label, want, got) for label, want, got, _ in done if got != want]
    times = [t for *_, t in done]
    by_label: dict[str, list[float]] = {}
    for label, *_, t in done:
        by_label.setdefault(label, []).append(t)
    return {"mode": mode, "requests": len(done), "concurrency": args.concurrency, "failures": len(failures),
            "server_errors": sum(1 for *_, got in failures if not isinstance(got, int) or got >= 500),
            "p50_s": round(statistics.median(times), 3), "p95_s": round(percentile(times, 95), 3),
            "max_s": round(max(times), 3), "wall_s": round(wall, 2), "requests_per_s": round(len(done) / wall, 1),
            "by_kind": {k: {"n": len(v), "p50_s": round(statistics.median(v), 3)} for k, v in by_label.items()}, "failed": sorted({f"{label}: wanted {want}, got {got}" for label, want, got in failures})[:10],
            "server_log": logged[:10], "cpus": os.cpu_count()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--requests", type=int, default=1000)
    ap.add_argument("--concurrency", type=int, default=200)
    ap.add_argument("--mode", choices=("local", "remote", "both"), default="both")
    ap.add_argument("--folder", type=Path, default=ROOT / "examples")
    ap.add_argument("--json", action="store_true", help="One JSON object per mode.")
    args = ap.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="scent-load-"))
    # The remote mode asks as a token's user, who may read only what everyone may (docs/access.md):
    # the folder is made readable to all, as examples/ is in a checkout.
    tmp.chmod(0o755)
    env = {**os.environ, "SCENT_HOME": str(tmp / "home")}
    env.pop("SCENT_CONFIG", None)
    try:
        folder = tmp / "folder"
        shutil.copytree(args.folder, folder)
        subprocess.run(scent("index", str(folder), "-q"), env=env, check=True)
        for mode in (("local", "remote") if args.mode == "both" else (args.mode,)):
            out = run_mode(mode, folder, env, args)
            if args.json:
                print(json.dumps(out))
                continue
            print(f"{mode}: {out['requests']} requests, {out['concurrency']} at once, on {out['cpus']} CPUs: "
                  f"{out['failures']} failures ({out['server_errors']} 5xx or connection errors); "
                  f"p50 {out['p50_s']} s, p95 {out['p95_s']} s, max {out['max_s']} s, {out['requests_per_s']} req/s")
            print("  " + ", ".join(f"{k} {v['n']} (p50 {v['p50_s']} s)" for k, v in sorted(out["by_kind"].items())))
            for f in out["failed"]:
                print(f"  failed: {f}")
            for line in out["server_log"]:
                print(f"  server said: {line.rstrip()}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
