"""Evaluation results as text for people: tables, comparison lines, miss diagnostics."""
from __future__ import annotations

import json
from pathlib import Path

from .errors import ScentError
from .evaluate import Comparison, EvalResult, GridReport, miss_summary


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
        where = ", ".join(f"{n} {r if r is not None else '-'}" for n, r in o.list_ranks.items())
        got = o.top[0]["path"] if o.top else "nothing"
        lines.append(f"  {o.id} [{o.category}] rank {o.rank or '-'} ({where}); first was {got}: {o.query}")
    return "\n".join(lines)


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
          grid: GridReport | None = None) -> Path:
    """report.md plus PNG charts (per-category bars, comparison intervals) in `folder`."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ScentError("the report's charts need matplotlib: pip install 'scent[report]'") from None
    folder.mkdir(parents=True, exist_ok=True)
    metric = next(iter(comparisons))[1].metric if comparisons else ("mrr@10" if "mrr@10" in result.overall else "ndcg@10")

    cats = list(result.by_category)
    fig, ax = plt.subplots(figsize=(8, 0.4 * len(cats) + 1.5))
    ax.barh(cats, [result.by_category[c][metric] for c in cats], color="#4c72b0")
    ax.set_xlim(0, 1)
    ax.invert_yaxis()
    ax.set_xlabel(metric)
    ax.set_title(f"{metric} per category (overall {result.overall[metric]:.3f}, n={result.overall['n']})")
    fig.tight_layout()
    fig.savefig(folder / "categories.png", dpi=110)
    plt.close(fig)

    if comparisons:
        fig, ax = plt.subplots(figsize=(8, 0.45 * len(comparisons) + 1.5))
        labels = [f"{label} ({c.metric})" for label, c in comparisons]
        for y, (_, c) in enumerate(comparisons):
            color = "#999999" if c.noise else ("#55a868" if c.diff > 0 else "#c44e52")
            ax.errorbar([c.diff], [y], xerr=[[c.diff - c.low], [c.high - c.diff]], fmt="o", color=color, capsize=4)
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_yticks(range(len(labels)), labels)
        ax.invert_yaxis()
        ax.set_xlabel("difference from the baseline, 95% paired-bootstrap interval")
        fig.tight_layout()
        fig.savefig(folder / "comparisons.png", dpi=110)
        plt.close(fig)

    md = ["# scent evaluation report", "", "## Scores", "", _markdown_table(result), "",
          "![per category](categories.png)", ""]
    if comparisons:
        md += ["## Comparisons", ""] + [f"- {comparison_line(label, c)}" for label, c in comparisons]
        md += ["", "![comparisons](comparisons.png)", ""]
    if grid:
        md += ["## Grid and cross-validation", "", "```", grid_text(grid), "```", ""]
    md += ["## Misses", "", "```", misses(result, limit=50), "```", ""]
    path = folder / "report.md"
    path.write_text("\n".join(md), encoding="utf-8")
    (folder / "report.json").write_text(json.dumps(result.to_dict(), ensure_ascii=False, indent=1), encoding="utf-8")
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
