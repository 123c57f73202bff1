"""Re-measure the shipped defaults on the benchmark folder and write bench/baseline.json.

    .venv/bin/python scripts/update_baseline.py

Run it only with an evaluation that supports the change (docs/retrieval-tuning.md): the CI gate
(tests/test_quality_gate.py) fails when quality falls more than 0.05 below these figures.
"""
from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "bench"
        subprocess.run([sys.executable, str(ROOT / "bench" / "make_bench.py"), str(folder)], check=True)
        env = {**os.environ, "SCENT_HOME": str(Path(tmp) / "home")}
        scent = Path(sys.executable).with_name("scent")
        result, typos, reverse_pt, reverse_es, written_fr = (json.loads(subprocess.run(
            [str(scent), "eval", str(ROOT / "bench" / queries), "--folder", str(folder), "--json"],
            check=True, capture_output=True, text=True, env=env).stdout)
            for queries in ("queries.jsonl", "queries-typos.jsonl", "queries-reverse-pt.jsonl",
                            "queries-reverse-es.jsonl", "queries-written-fr.jsonl"))
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
    baseline = {
        "measured": dt.date.today().isoformat(),
        "commit": commit.strip(),
        "command": "scripts/update_baseline.py (scent eval bench/queries.jsonl --folder <make_bench.py output>)",
        "overall": result["overall"],
        "hard": result["hard"],
        "by_category": result["by_category"],
        "typos": typos["overall"],  # bench/queries-typos.jsonl: the same queries, one letter dropped
        # bench/queries-reverse-*.jsonl: the same queries machine-translated (tools/translate_queries.py)
        "reverse_pt": reverse_pt["overall"],
        "reverse_es": reverse_es["overall"],
        # bench/queries-written-fr.jsonl: questions written in French (Apertium reads French only through
        # Catalan, so a machine-translated French set would be a far poorer floor)
        "written_fr": written_fr["overall"],
    }
    path = ROOT / "bench" / "baseline.json"
    path.write_text(json.dumps(baseline, indent=2) + "\n")
    print(f"wrote {path}: overall mrr@10 {result['overall']['mrr@10']:.3f}, hit@5 {result['overall']['hit@5']:.3f}, "
          f"hard mrr@10 {result['hard']['mrr@10']:.3f}, typos mrr@10 {typos['overall']['mrr@10']:.3f}, "
          f"reverse pt / es mrr@10 {reverse_pt['overall']['mrr@10']:.3f} / {reverse_es['overall']['mrr@10']:.3f}, "
          f"written fr mrr@10 {written_fr['overall']['mrr@10']:.3f}")


if __name__ == "__main__":
    main()
