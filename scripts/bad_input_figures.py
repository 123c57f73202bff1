"""Seconds and peak memory per bad input file: each one (the kinds of tests/test_bad_pictures.py,
with the 50-megapixel picture a real 8000x6250 JPEG with noise, and as uncompressed 8- and
16-bit TIFFs, which cannot be decoded at a reduced size) is indexed alone, in a fresh
process, with the shipped defaults (OCR, descriptions, the real embedder; --fake-embedder for
the plumbing alone). Prints a table: file, what happened, seconds, peak RSS of the indexing
process and of Tesseract (a program of its own, run once or more per picture).

    .venv/bin/python scripts/bad_input_figures.py [--fake-embedder] [--json FILE]
    .venv/bin/python scripts/bad_input_figures.py --kinds [--json FILE]

--kinds measures instead every kind of tests/badfiles.py (the 40-odd kinds of tests/test_bad_files.py),
each alone in a fresh `scent index` process (the fake embedder; OCR and descriptions on): the line it
printed for the kind's files, the seconds their extraction took, and the process's peak RSS (a bare
run of the same process, one small note, is the first row).

The first row, one small note, is the fixed cost of a run (imports, models): read the rows
below it against it. Seconds are the whole child process, model loading included.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
import badfiles  # noqa: E402  (the bad-file class of tests/test_bad_files.py)
import test_bad_pictures as bad  # noqa: E402  (the same file makers as the test)

TIMEOUT_S = 600

# Indexes sys.argv[1] into sys.argv[2] with the settings in sys.argv[3] (JSON) and prints one
# JSON line. Its peak RSS is VmHWM, the peak of its own memory: ru_maxrss is no good here, as
# Linux starts a new program's ru_maxrss at the peak of the process that started it.
CHILD = r"""
import json, sys, time
t = time.perf_counter()
from scent import Index, Settings
embedder = None
if sys.argv[4] == "fake":
    sys.path.insert(0, sys.argv[5])
    from conftest import FakeEmbedder
    embedder = FakeEmbedder()
with Index(sys.argv[1], index_dir=sys.argv[2], settings=Settings().with_values(**json.loads(sys.argv[3])),
           embedder=embedder) as idx:
    report = idx.update()
    units = idx.status()["units_by_kind"]
seconds = time.perf_counter() - t
peak = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(json.dumps({"seconds": seconds, "rss_mib": peak / 1024, "skipped": report.skipped,
                  "warnings": report.warnings, "units": units}))
"""
# Tesseract runs as a program of its own: a `tesseract` earlier on PATH runs the real one under
# GNU time, which appends its peak RSS (KB) to $SCENT_FIGURES_OCR_LOG, one line per call.
OCR_WRAPPER = """#!/bin/sh
exec /usr/bin/time -a -o "$SCENT_FIGURES_OCR_LOG" -f %M {tesseract} "$@"
"""


def noisy_pixels(w: int = 8000, h: int = 6250) -> np.ndarray:
    """Sky over ground with per-pixel noise (50 megapixels by default): not trivially compressible."""
    rng = np.random.default_rng(11)
    rows = np.linspace(0, 1, h, dtype=np.float32)[:, None]
    pixels = np.empty((h, w, 3), np.uint8)
    for c, (sky, ground) in enumerate(((90, 50), (150, 140), (230, 60))):
        pixels[..., c] = np.where(rows < 0.6, sky * (1 - 0.3 * rows), ground).astype(np.uint8)
        pixels[..., c] += rng.integers(0, 25, (h, w), dtype=np.uint8)  # at most 254: no wrap
    return pixels


def fifty_megapixel_jpeg(path: Path) -> None:
    """A JPEG of ~20 MB, as a camera's would be."""
    Image.fromarray(noisy_pixels(), "RGB").save(path, quality=90)


def fifty_megapixel_tiff(path: Path) -> None:
    """Uncompressed 8-bit RGB (150 MB): no JPEG draft to decode it at a reduced size."""
    Image.fromarray(noisy_pixels(), "RGB").save(path)


def fifty_megapixel_16bit_tiff(path: Path) -> None:
    """16-bit grey (100 MB), as a scanner writes: stretched to 8 bits before it is read."""
    Image.fromarray(noisy_pixels()[..., 1].astype(np.uint16) * 257).save(path)


# (name, maker, settings): each is indexed alone; one file may appear with lowered limits too.
CASES = [
    ("small-note.md", lambda p: p.write_text("# Garden\n\nPlant the garlic cloves in October.\n"), {}),
    ("meadow.png", lambda p: bad.photo_like().save(p), {}),
    ("big-photo-50mp.jpg", fifty_megapixel_jpeg, {}),
    ("big-photo-50mp.jpg", fifty_megapixel_jpeg, {"max_image_mp": 20}),
    ("big-scan-50mp.tif", fifty_megapixel_tiff, {}),
    ("big-scan-50mp-16bit.tif", fifty_megapixel_16bit_tiff, {}),
    ("proof-cmyk.tif", bad.cmyk_tiff, {}),
    ("strip-16bit.tif", bad.sixteen_bit_tiff, {}),
    ("hours.gif", bad.animated_gif, {}),
    ("cut-short.jpg", bad.truncated_jpeg, {}),
    ("ledger-2000-pages.pdf", bad.long_pdf, {}),
    ("ledger-2000-pages.pdf", bad.long_pdf, {"max_pdf_pages": 100}),
    ("locked.pdf", bad.encrypted_pdf, {}),
    ("kitchen-broken-picture.docx", None, {}),  # made by docx_with_broken_picture (needs a scratch dir)
]


def what_happened(out: dict) -> str:
    if out["skipped"]:
        return "skipped: " + "; ".join(reason for _, reason in out["skipped"])
    units = ", ".join(f"{n} {kind}" for kind, n in sorted(out["units"].items()))
    said = "; ".join(reason for _, reason in out["warnings"])
    return f"indexed ({units})" + (f"; warning: {said}" if said else "")


def ocr_wrapper(tmp: Path) -> Path | None:
    """A folder holding the `tesseract` that logs its peak RSS (None without tesseract or GNU time)."""
    tesseract = shutil.which("tesseract")
    if tesseract is None or not os.access("/usr/bin/time", os.X_OK):
        return None
    folder = tmp / "bin"
    folder.mkdir()
    wrapper = folder / "tesseract"
    wrapper.write_text(OCR_WRAPPER.format(tesseract=tesseract))
    wrapper.chmod(0o755)
    return folder


def run_one(tmp: Path, number: int, name: str, make, settings: dict, fake: bool, wrapper: Path | None) -> dict:
    folder = tmp / f"case{number:02d}"
    folder.mkdir()
    path = folder / name
    if make is None:
        bad.docx_with_broken_picture(path, tmp)
    else:
        make(path)
    env = {**os.environ, "SCENT_HOME": str(tmp / "scent-home")}
    ocr_log = tmp / f"ocr{number:02d}.log"
    if wrapper is not None:
        env |= {"PATH": f"{wrapper}{os.pathsep}{env.get('PATH', '')}", "SCENT_FIGURES_OCR_LOG": str(ocr_log)}
    started = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, "-c", CHILD, str(folder), str(tmp / f"idx{number:02d}"),
                               json.dumps(settings), "fake" if fake else "real", str(ROOT / "tests")],
                              capture_output=True, text=True, timeout=TIMEOUT_S, env=env)
    except subprocess.TimeoutExpired:
        return {"happened": f"did not finish in {TIMEOUT_S} s", "seconds": float(TIMEOUT_S)}
    finally:
        path.unlink(missing_ok=True)  # a 50 MP file need not wait for the end
    wall = time.perf_counter() - started
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        return {"happened": f"CRASHED (exit {done.returncode}): {last}", "seconds": wall}
    out = json.loads(done.stdout.strip().splitlines()[-1])
    out["happened"] = what_happened(out)
    out["wall_seconds"] = wall
    calls = [int(line) for line in ocr_log.read_text().split()] if ocr_log.is_file() else []
    out["ocr_calls"], out["ocr_rss_mib"] = len(calls), max(calls, default=0) / 1024
    return out


def one_kind(tmp: Path, number: int, kind: badfiles.Kind | None) -> dict:
    """Index one kind alone with `scent index` (badfiles.CHILD); its line, seconds and peak MiB."""
    from scent.terminal import visible

    folder = tmp / f"kind{number:02d}"
    if kind is None:
        folder.mkdir()
        (folder / "note.md").write_text("# Garden\n\nPlant the garlic cloves in October.\n")
        files = ("note.md",)
    else:
        badfiles.make_folder(folder, slow=True, only=[kind.name], good=False)
        files = kind.files
    times = tmp / f"times{number:02d}.jsonl"
    child = tmp / "child.py"
    child.write_text(badfiles.CHILD)
    env = {**os.environ, "SCENT_HOME": str(tmp / "scent-home"), "SCENT_TESTS": str(ROOT / "tests"),
           "SCENT_FAKE_EMBEDDER": "1", "SCENT_BAD_TIMES": str(times),
           "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    times.write_text("")
    done = subprocess.run([sys.executable, str(child), "index", str(folder), "--index", str(tmp / f"idx{number:02d}"),
                           "-q"], capture_output=True, text=True, timeout=TIMEOUT_S, env=env)
    badfiles.remove_deep(folder)
    shutil.rmtree(folder, ignore_errors=True)
    lines = done.stderr.splitlines()
    shown = tuple(visible(f) for f in files)
    said = [line.removeprefix("scent: ") for line in lines
            if any(line.startswith((f"scent: skipped {f}: ", f"scent: warning: {f}: ")) for f in shown)]
    peak = [int(line.split()[1]) / 1024 for line in lines if line.startswith("peak-rss-kib ")]
    rows = [json.loads(line) for line in times.read_text().splitlines()]
    if done.returncode != 0 or "Traceback" in done.stderr:
        message = f"CRASHED (exit {done.returncode}): {lines[-1] if lines else ''}"
    elif said:
        message = said[0] + (f" (+{len(said) - 1} more files like it)" if len(said) > 1 else "")
    else:
        message = "indexed, nothing to say" if rows else "not read (not indexable by name, or walked past)"
    return {"kind": kind.name if kind else "(one small note: the fixed cost)", "message": message,
            "seconds": sum(r[1] for r in rows), "peak_mib": peak[0] if peak else None, "files": len(files)}


def kinds_table(args) -> None:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for number, kind in enumerate([None, *badfiles.KINDS]):
            if args.only and kind is not None and args.only not in kind.name:
                continue
            print(f"{kind.name if kind else 'baseline'} ...", file=sys.stderr, flush=True)
            rows.append(one_kind(Path(tmp), number, kind))
    print("| kind | message | seconds | peak MiB |")
    print("| --- | --- | --- | --- |")
    for r in rows:
        message = r["message"] if len(r["message"]) <= 160 else r["message"][:157] + "..."
        print(f"| {r['kind']} | {message.replace('|', '/')} | {r['seconds']:.2f} | {r['peak_mib'] or 0:.0f} |")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fake-embedder", action="store_true", help="the tests' hashed-words embedder, not the model")
    ap.add_argument("--kinds", action="store_true", help="every kind of tests/badfiles.py instead of the pictures")
    ap.add_argument("--only", help="only the files (or kinds) whose name holds this")
    ap.add_argument("--json", help="write the figures to this file")
    args = ap.parse_args()
    if args.kinds:
        kinds_table(args)
        return

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        wrapper = ocr_wrapper(Path(tmp))
        for number, (name, make, settings) in enumerate(CASES):
            if args.only and args.only not in name:
                continue
            label = name + "".join(f" ({k}={v})" for k, v in settings.items())
            print(f"{label} ...", file=sys.stderr, flush=True)
            out = run_one(Path(tmp), number, name, make, settings, args.fake_embedder, wrapper)
            rows.append({"file": label, **out})

    header = ("file", "what happened", "seconds", "peak RSS MiB", "tesseract runs", "tesseract peak RSS MiB")
    table = [(r["file"], r["happened"], f"{r['seconds']:.1f}", f"{r.get('rss_mib', 0):.0f}",
              str(r.get("ocr_calls", "-")), f"{r['ocr_rss_mib']:.0f}" if r.get("ocr_calls") else "-")
             for r in rows]
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join(" --- " for _ in header) + "|")
    for line in table:
        print("| " + " | ".join(cell.replace("|", "/") for cell in line) + " |")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
