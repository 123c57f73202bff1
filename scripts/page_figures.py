"""Which page a PDF result shows, measured on real judgments: Cranfield's abstracts bound into PDFs.

    .venv/bin/python scripts/page_figures.py make OUT_DIR [--cranfield DIR] [--per-file 10] [--files N]
    .venv/bin/python scripts/page_figures.py score OUT_DIR [--index DIR] [--compare SETTING=VALUE ...] [--json F]

(--cranfield defaults to ../shared/data/cranfield; the page map is written beside OUT_DIR.)

bench/ has 43 queries whose answer is a page, and almost all of them already show it: too few to
tell two ways of choosing the page apart. Cranfield's 1,400 abstracts, in id order, are bound
`--per-file` to a PDF (one abstract a page; a long one runs onto the next page), so its 225 queries
and their 1,837 graded human judgments become judgments of pages.

`score` searches every query (the first 10 files) and, for each result file that holds a judged
page, checks the page it shows: page accuracy (the shown page is judged relevant), and graded
accuracy (the shown page's grade over the best grade in that file). File order does not depend on
the page choice, so every variant is scored on the same (query, file) pairs; the paired 95%
interval resamples queries. Nothing here is copied into the repository (../shared/data/README.md).
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from scent import Index  # noqa: E402
from scent.evaluate import load_beir, paired_bootstrap  # noqa: E402

MAP_FILE = "pages.json"  # doc id -> [file, first page, last page]


def make(out: Path, cranfield: Path, per_file: int, files: int = 0) -> None:
    from fpdf import FPDF

    corpus, _, _ = load_beir(cranfield)
    ids = sorted(corpus, key=lambda d: int(d) if d.isdigit() else d)
    if files:
        ids = ids[:files * per_file]
    out.mkdir(parents=True, exist_ok=True)
    where = {}
    font = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    for n in range(0, len(ids), per_file):
        group = ids[n:n + per_file]
        name = f"cranfield-{int(group[0]):04d}-{int(group[-1]):04d}.pdf"
        pdf = FPDF(format="A4")
        pdf.set_creation_date(datetime(2026, 1, 15, tzinfo=timezone.utc))
        pdf.set_auto_page_break(auto=True, margin=18)
        pdf.set_margins(22, 20, 22)
        if font.is_file():
            pdf.add_font("body", "", str(font))
            face = "body"
        else:
            face = "Helvetica"
        for doc_id in group:
            d = corpus[doc_id]
            pdf.add_page()
            first = pdf.page_no()
            title, text = (d.get("title") or "").strip(), (d.get("text") or "").strip()
            if title and text.startswith(title):
                text = text[len(title):].strip()
            pdf.set_font(face, "", 13)
            pdf.multi_cell(0, 7, title or f"document {doc_id}", new_x="LMARGIN", new_y="NEXT")
            pdf.ln(2)
            pdf.set_font(face, "", 10)
            pdf.multi_cell(0, 5.2, " ".join(text.split()), new_x="LMARGIN", new_y="NEXT")
            where[doc_id] = [name, first, pdf.page_no()]
        pdf.output(str(out / name))
    (out.parent / f"{out.name}-{MAP_FILE}").write_text(json.dumps(where), encoding="utf-8")
    print(f"{len(ids)} abstracts in {(len(ids) + per_file - 1) // per_file} PDFs under {out}")


def score_run(idx: Index, queries: dict[str, str], qrels: dict, where: dict, **overrides) -> dict[str, list]:
    """Per query: a list of (shown page's grade, best grade in that file, file rank) for each of the first
    10 files that hold a judged page."""
    out = {}
    for qid, text in queries.items():
        pages = defaultdict(lambda: defaultdict(float))  # file -> page -> best grade of a doc on it
        for doc, grade in qrels[qid].items():
            if grade > 0 and doc in where:
                name, first, last = where[doc]
                for p in range(first, last + 1):
                    pages[name][p] = max(pages[name][p], grade)
        rows = []
        for r in idx.search(text, k=10, **overrides):
            if r.path in pages:
                rows.append((pages[r.path].get(r.page, 0.0), max(pages[r.path].values()), r.rank))
        out[qid] = rows
    return out


def summarise(run: dict[str, list]) -> dict:
    pairs = [row for rows in run.values() for row in rows]
    top = [rows[0] for rows in run.values() if rows and rows[0][2] == 1]
    return {"pairs": len(pairs), "page_accuracy": sum(g > 0 for g, _, _ in pairs) / len(pairs),
            "graded_accuracy": sum(g / b for g, b, _ in pairs) / len(pairs),
            "first_file_pairs": len(top), "first_file_page_accuracy": sum(g > 0 for g, _, _ in top) / max(1, len(top))}


def per_query(run: dict[str, list]) -> list[float]:
    """Each query's share of its (file, page) pairs shown right; queries with no pair count 0 in both runs."""
    return [sum(g > 0 for g, _, _ in rows) / len(rows) if rows else 0.0 for rows in run.values()]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("make")
    m.add_argument("out", type=Path)
    m.add_argument("--cranfield", type=Path, default=ROOT.parent / "shared" / "data" / "cranfield")
    m.add_argument("--per-file", type=int, default=10)
    m.add_argument("--files", type=int, default=0,
                   help="Only the first N PDFs (0: all 140, about an hour to index on a busy 2-core machine)")
    s = sub.add_parser("score")
    s.add_argument("out", type=Path)
    s.add_argument("--cranfield", type=Path, default=ROOT.parent / "shared" / "data" / "cranfield")
    s.add_argument("--index", type=Path)
    s.add_argument("--compare", action="append", default=[], help="SETTING=VALUE[,SETTING=VALUE]")
    s.add_argument("--json", type=Path)
    args = ap.parse_args()
    if args.cmd == "make":
        make(args.out, args.cranfield, args.per_file, args.files)
        return
    _, queries, qrels = load_beir(args.cranfield)
    where = json.loads((args.out.parent / f"{args.out.name}-{MAP_FILE}").read_text(encoding="utf-8"))
    with Index(args.out, index_dir=args.index) as idx:
        idx.update()
        base = score_run(idx, queries, qrels, where)
        report = {"baseline": summarise(base), "variants": {}}
        print("baseline", json.dumps(report["baseline"]))
        for spec in args.compare:
            values = dict(part.split("=", 1) for part in spec.split(","))
            run = score_run(idx, queries, qrels, where, **values)
            a, b = per_query(base), per_query(run)
            diff, low, high = paired_bootstrap(a, b)
            report["variants"][spec] = {**summarise(run), "diff": diff, "low": low, "high": high,
                                        "better": sum(y > x for x, y in zip(a, b)),
                                        "worse": sum(y < x for x, y in zip(a, b))}
            print(spec, json.dumps(report["variants"][spec]))
    if args.json:
        args.json.write_text(json.dumps(report, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
