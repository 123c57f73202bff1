"""Indexing throughput of pictures and PDF pages, and of the whole benchmark folder (issue #4):
pictures per second, PDF pages per second, seconds and peak RSS, each in a fresh process with
the shipped defaults (OCR, descriptions, detector, classifier, layout model as installed).

    .venv/bin/python scripts/throughput.py [--darknet /usr/share/darknet/data] [--json FILE]

Folders (made in a temporary directory):
- pictures: every .jpg/.png of bench/make_bench.py's folder (drawn photos, screenshots, receipt
  photos, charts), plus scikit-image's real sample photos and, if given, darknet's;
- pdfs: every PDF of the bench folder (text, vector charts, embedded photos, scans);
- bench: the whole bench folder, as `scent eval` indexes it (target: within 3 minutes).
Each run includes loading the models (as a user's first `scent index` does); peak RSS is each
indexing process's own (VmHWM).
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pypdfium2 as pdfium

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchmark import index_in_subprocess  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PICTURES = (".jpg", ".jpeg", ".png")


def copy_matching(source: Path, target: Path, suffixes: tuple[str, ...]) -> list[Path]:
    copied = []
    for path in sorted(source.rglob("*")):
        if path.suffix.lower() in suffixes:
            dest = target / path.relative_to(source)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, dest)
            copied.append(dest)
    return copied


def real_photos(target: Path, darknet: Path | None) -> int:
    from PIL import Image
    from skimage import data

    target.mkdir(parents=True, exist_ok=True)
    n = 0
    for name in ("astronaut", "coffee", "chelsea", "rocket"):
        Image.fromarray(getattr(data, name)()).save(target / f"sk_{name}.jpg", quality=92)
        n += 1
    if darknet is not None:
        for path in sorted(darknet.glob("*.jpg")):
            shutil.copy2(path, target / f"dn_{path.name}")
            n += 1
    return n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--darknet", type=Path, help="darknet's data folder (Debian package darknet)")
    ap.add_argument("--json", type=Path, help="also write the figures to this file")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        bench = tmp / "bench"
        subprocess.run([sys.executable, str(ROOT / "bench" / "make_bench.py"), str(bench)], check=True,
                       capture_output=True)
        pictures = tmp / "pictures"
        n_pictures = len(copy_matching(bench, pictures, PICTURES))
        n_pictures += real_photos(pictures / "real", args.darknet)
        pdfs = tmp / "pdfs"
        n_pages = sum(len(pdfium.PdfDocument(str(p))) for p in copy_matching(bench, pdfs, (".pdf",)))
        n_files = sum(1 for p in bench.rglob("*") if p.is_file())
        figures = {}
        for name, folder, count, unit in (("pictures", pictures, n_pictures, "pictures"),
                                          ("pdfs", pdfs, n_pages, "pages"),
                                          ("bench", bench, n_files, "files")):
            seconds, peak = index_in_subprocess(folder, tmp / f"index-{name}")
            figures[name] = {unit: count, "seconds": round(seconds, 2), f"{unit}_per_s": round(count / seconds, 2),
                             "peak_rss_mib": round(peak)}
            print(f"{name:9} {count:4} {unit:8} {seconds:7.1f} s  {count / seconds:6.2f} {unit}/s  "
                  f"peak RSS {peak:5.0f} MiB", flush=True)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
