"""Evaluation results as text for people: tables, comparison lines, miss diagnostics."""
from __future__ import annotations

import json
from pathlib import Path

from .errors import ScentError
from .evaluate import Comparison, EvalResult, GridReport, list_places, miss_summary


def table(result: EvalResult) -> str:
    metrics = [m for m in result.overall if m != "n"]
    rows = [("overall", result.overall)]
    rows += [(f"  {cat}", vals) for cat, vals in result.by_category.items()] if len(result.by_category) > 1 else []
    if result.hard.get("n"):
        rows.append(("hard", result.hard))
    width = max(len(name) for name, _ in rows)
    head = f"{'':<{width}}  {'n':>4}  " + "  ".join(f"{m:>11}" for m in metrics)
    lines = [head]
    for name, vals in rows:
        lines.append(f"{name:<{width}}  {vals['n']:>4}  " + "  ".join(f"{vals[m]:>11.3f}" for m in metrics))
    return "\n".join(lines)


def comparison_line(label: str, c: Comparison) -> str:
    verdict = "noise" if c.noise else ("better" if c.diff > 0 else "worse")
    return (f"{label}: {c.metric} {c.baseline:.3f} -> {c.variant:.3f} ({c.diff:+.3f}, 95% CI {c.low:+.3f} .. "
            f"{c.high:+.3f}) {verdict}; {c.better} queries better, {c.worse} worse")


def misses(result: EvalResult, limit: int = 20) -> str:
    lines = miss_summary(result)
    shown = [o for o in result.queries if o.rank != 1][:limit]
    for o in shown:
        lines.append(f"  {o.id} [{o.category}] {o.query!r}: {o.why}")
        if o.list_ranks:
            lines.append(f"      before combining: {list_places(o)}")
    return "\n".join(lines)


def run_lines(run: dict) -> list[str]:
    """What was measured, with what: so a report read later can be reproduced."""
    changed = run.get("settings") or {}
    return [f"- folder: `{run.get('folder')}`", f"- queries: `{run.get('queries_file')}` ({run.get('queries')} queries)",
            f"- index: `{run.get('index')}` ({run.get('backend')}, model {run.get('model')})",
            f"- scent {run.get('version')}, written {run.get('written')}",
            "- settings: " + (", ".join(f"`{k}={v}`" for k, v in changed.items()) if changed
                              else "all defaults")]


def grid_text(g: GridReport) -> str:
    s = g.summary()
    lines = [f"grid: {len(g.configs)} settings combinations, {s['folds']} split-half folds, metric {g.metric}"]
    order = sorted(range(len(g.configs)), key=lambda i: -g.full[i])
    for i in order[:10]:
        label = ", ".join(f"{k}={v}" for k, v in g.configs[i].items())
        lines.append(f"  {g.full[i]:.3f}  {label}{'  (first grid point)' if i == 0 else ''}")
    h, b = s["held_out"], s["baseline_held_out"]
    lines.append(f"held-out {g.metric} of the point picked on the other half: mean {h['mean']:.3f} "
                 f"(95% of folds {h['low']:.3f} .. {h['high']:.3f}); first grid point on the same halves "
                 f"{b['mean']:.3f}")
    for name, counts in s["chosen"].items():
        picks = ", ".join(f"{v} {n}/{s['folds']}" for v, n in sorted(counts.items(), key=lambda kv: -kv[1]))
        lines.append(f"  {name} chosen: {picks}")
    return "\n".join(lines)


def write(folder: Path, result: EvalResult, comparisons: list[tuple[str, Comparison]],
          grid: GridReport | None = None, run: dict | None = None) -> Path:
    """report.md plus PNG charts (per-category bars, comparison intervals) in `folder`; `run`
    (folder, queries, index, version, settings changed from the defaults) is recorded in both."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ScentError("the report's charts need matplotlib: pip install 'scent[report]'") from None
    folder.mkdir(parents=True, exist_ok=True)
    metric = next(iter(comparisons))[1].metric if comparisons else ("mrr@10" if "mrr@10" in result.overall else "ndcg@10")

    cats = list(result.by_category)
    values = [result.by_category[c][metric] for c in cats]
    fig, ax = plt.subplots(figsize=(8, 0.4 * len(cats) + 1.5))
    bars = ax.barh([f"{c} (n={result.by_category[c]['n']})" for c in cats], values, color="#4c72b0")
    ax.bar_label(bars, labels=[f"{v:.3f}" for v in values], padding=3)  # the value, not only a length
    ax.set_xlim(0, 1.12)
    ax.invert_yaxis()
    ax.set_xlabel(f"{metric} (1 = every answer first)")
    ax.set_title(f"{metric} per category: overall {result.overall[metric]:.3f} over {result.overall['n']} queries")
    fig.tight_layout()
    fig.savefig(folder / "categories.png", dpi=110)
    plt.close(fig)

    if comparisons:
        fig, ax = plt.subplots(figsize=(8, 0.45 * len(comparisons) + 1.5))
        labels = [f"{label} ({c.metric})" for label, c in comparisons]
        for y, (_, c) in enumerate(comparisons):
            color = "#999999" if c.noise else ("#55a868" if c.diff > 0 else "#c44e52")
            ax.errorbar([c.diff], [y], xerr=[[c.diff - c.low], [c.high - c.diff]], fmt="o", color=color, capsize=4)
            ax.annotate(f"{c.diff:+.3f}: {c.better} better, {c.worse} worse", (c.diff, y), xytext=(0, 7),
                        textcoords="offset points", ha="center", fontsize=8)
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_yticks(range(len(labels)), labels)
        ax.set_ylim(len(labels) - 0.4, -0.7)
        ax.set_xlabel("difference from the baseline, 95% paired-bootstrap interval (grey: could be chance)")
        fig.tight_layout()
        fig.savefig(folder / "comparisons.png", dpi=110)
        plt.close(fig)

    md = ["# scent evaluation report", ""]
    if run:
        md += ["## What was measured", "", *run_lines(run), ""]
    md += ["## Scores", "", _markdown_table(result), "", "![per category](categories.png)", ""]
    if comparisons:
        md += ["## Comparisons", ""] + [f"- {comparison_line(label, c)}" for label, c in comparisons]
        md += ["", "![comparisons](comparisons.png)", ""]
    if grid:
        md += ["## Grid and cross-validation", "", "```", grid_text(grid), "```", ""]
    md += ["## Misses", "", "```", misses(result, limit=50), "```", ""]
    path = folder / "report.md"
    path.write_text("\n".join(md), encoding="utf-8")
    body = {"run": run or {}, **result.to_dict()}
    (folder / "report.json").write_text(json.dumps(body, ensure_ascii=False, indent=1), encoding="utf-8")
    return path


def _markdown_table(result: EvalResult) -> str:
    metrics = [m for m in result.overall if m != "n"]
    rows = [("overall", result.overall), *result.by_category.items()]
    if result.hard.get("n"):
        rows.append(("hard", result.hard))
    out = ["| | n | " + " | ".join(metrics) + " |", "|---" * (len(metrics) + 2) + "|"]
    for name, vals in rows:
        out.append(f"| {name} | {vals['n']} | " + " | ".join(f"{vals[m]:.3f}" for m in metrics) + " |")
    return "\n".join(out)
