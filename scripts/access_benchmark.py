"""What the readers filter (scent.access) costs a warm query: each query of the examples set is
run as root (no filter) and as another user (the filter in every candidate list), alternately,
in one process, so both see the same machine load. Prints wall and CPU milliseconds (p50/p95) of
each, and whether both got the same results (they must, where the user may read every file).

    .venv/bin/python scripts/access_benchmark.py [--folder examples] [--as bob] [--rounds 3]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def p95(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[int(0.95 * (len(xs) - 1))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--folder", default=str(ROOT / "examples"))
    ap.add_argument("--queries", default=str(ROOT / "tests" / "examples_queries.jsonl"))
    ap.add_argument("--index", help="an index of --folder to reuse (default: built in a temporary folder)")
    ap.add_argument("--as", dest="as_user", default="bob", help="the user whose queries go through the filter")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--json", help="write the figures to this file")
    args = ap.parse_args()

    from scent import Index

    tmp = Path(tempfile.mkdtemp())
    try:
        index_dir = Path(args.index) if args.index else tmp / "idx"
        idx = Index(args.folder, index_dir=index_dir)
        idx.update()
        queries = [json.loads(line)["query"] for line in open(args.queries, encoding="utf-8") if line.strip()]
        for q in queries[:5]:
            idx.search(q)
            idx.search(q, as_user=args.as_user)
        wall: dict[str, list[float]] = {"root": [], args.as_user: []}
        cpu: dict[str, list[float]] = {"root": [], args.as_user: []}
        same = True
        for n in range(args.rounds):
            for i, q in enumerate(queries):
                order = ["root", args.as_user] if (i + n) % 2 == 0 else [args.as_user, "root"]
                got = {}
                for who in order:
                    t, c = time.perf_counter(), time.process_time()
                    got[who] = [(r.path, r.page) for r in idx.search(q, as_user=who)]
                    wall[who].append((time.perf_counter() - t) * 1000)
                    cpu[who].append((time.process_time() - c) * 1000)
                same &= got["root"] == got[args.as_user]
        idx.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    figures = {"queries": len(wall["root"]), "same_results": same, "as": args.as_user}
    for who in wall:
        figures[f"{who}_wall_p50_ms"] = statistics.median(wall[who])
        figures[f"{who}_wall_p95_ms"] = p95(wall[who])
        figures[f"{who}_cpu_p50_ms"] = statistics.median(cpu[who])
        figures[f"{who}_cpu_p95_ms"] = p95(cpu[who])
    width = max(map(len, figures))
    for name, value in figures.items():
        print(f"{name:<{width}}  {value:.2f}" if isinstance(value, float) else f"{name:<{width}}  {value}")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    os.environ.setdefault("SCENT_HOME", tempfile.mkdtemp())
    main()
