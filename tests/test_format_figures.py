"""scripts/format_figures.py runs end to end on a tiny sample (fake embedder, two formats, one bad
input), so the script cannot rot unnoticed; its figures are not checked, only its shape."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_format_figures_prints_one_json_object(tmp_path, monkeypatch):
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import format_figures
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    monkeypatch.setattr(format_figures, "BAD", [(format_figures.bad_truncated_xlsx, "")])
    formats = format_figures.per_format(tmp_path, ["rtf", "eml"], 2, "fake")
    assert {fmt: (got["files"], got["skipped"]) for fmt, got in formats.items()} == {"rtf": (2, []), "eml": (2, [])}
    assert all(got["rss_mib"] > 0 and got["files_per_s"] > 0 for got in formats.values())
    (row,) = format_figures.bad_inputs(tmp_path, "fake")
    assert row["happened"].startswith("scent: skipped cut.xlsx: not a readable Excel workbook (BadZipFile")


def test_format_figures_blocks_the_heic_codec_in_the_child(tmp_path):
    done = subprocess.run([sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); import format_figures as f; "
                           "from pathlib import Path; w = Path(sys.argv[2]); (w / 'f').mkdir(); "
                           "f.bad_heic_without_codec(w / 'f'); import json; "
                           "print(json.dumps(f.what_happened(f.run_child(w / 'f', w, 'fake', 'pillow_heif'))))",
                           str(ROOT / "scripts"), str(tmp_path)], capture_output=True, text=True, timeout=300,
                          env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout).startswith("scent: skipped IMG_0001.heic: .heic pictures need pillow-heif")
