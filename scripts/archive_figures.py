"""Files/s and peak RSS of indexing a generated zip of N small members, beside the same N files
loose in a folder (the ratio is the figure: absolute seconds depend on the machine's load). Each
run is a fresh process, the tests' fake embedder (the plumbing, not the model), OCR off, one reader
process (index_workers=1: the zip is one file to read, so a pool would start only for the loose ones).

    .venv/bin/python scripts/archive_figures.py [--members 200]
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import json, resource, sys, time
sys.path.insert(0, {tests!r})
from conftest import FakeEmbedder
from scent import Index
from scent.settings import Settings
started = time.perf_counter()
with Index(sys.argv[1], index_dir=sys.argv[2], settings=Settings(ocr=False, index_workers=1), embedder=FakeEmbedder()) as idx:
    report = idx.update()
    files = idx.status()["files"]
seconds = time.perf_counter() - started
print(json.dumps({{"files": files, "units": report.units, "seconds": seconds,
                  "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""


def note(i: int) -> bytes:
    return (f"# Note {i}\n\nMeeting {i} about the harbour wall, tide tables and the ferry timetable. "
            f"Action {i}: ask about the mooring fees before Friday.\n").encode()


def run(folder: Path, index: Path) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD.format(tests=str(ROOT / "tests")), str(folder), str(index)],
                         capture_output=True, text=True, check=True, env={"PYTHONPATH": str(ROOT / "src"),
                                                                          "SCENT_HOME": str(index.parent / "home")})
    return json.loads(out.stdout.splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--members", type=int, default=200)
    n = ap.parse_args().members
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        (base / "zip").mkdir()
        (base / "loose").mkdir()
        with zipfile.ZipFile(base / "zip" / "notes.zip", "w", zipfile.ZIP_DEFLATED) as z:
            for i in range(n):
                z.writestr(f"notes/n{i:03d}.md", note(i))
                (base / "loose" / f"n{i:03d}.md").write_bytes(note(i))
        rows = {name: run(base / name, base / f"ix-{name}") for name in ("loose", "zip")}
    print("| folder | files in the index | units | seconds | files/s | peak MiB |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, r in rows.items():
        print(f"| {n} notes {'in one zip' if name == 'zip' else 'loose'} | {r['files']} | {r['units']} | "
              f"{r['seconds']:.2f} | {r['files'] / r['seconds']:.0f} | {r['peak_mib']:.0f} |")
    print(f"zip / loose seconds: {rows['zip']['seconds'] / rows['loose']['seconds']:.2f}")


if __name__ == "__main__":
    main()
