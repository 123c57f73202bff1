"""Evaluation results as text for people: tables, comparison lines, miss diagnostics."""
from __future__ import annotations

from .evaluate import Comparison, EvalResult, miss_summary


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
