"""Bad files as a measured class (tests/badfiles.py makes them): one folder of 40-odd kinds of bad
file beside good ones, indexed by `scent index` itself in a child process (the fake embedder stands
in for the model: the volume is plumbing), run three times. For every kind: at most one line per
file and no traceback, bounded seconds and memory, the run completes, every good file is found, and
later runs neither duplicate nor lose anything.

The costliest kinds (a 2,000-page PDF, a 50 MB single line) are in the slow suite, in a folder of
their own. scripts/bad_input_figures.py --kinds prints the table: kind -> message -> seconds -> MiB.
"""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import badfiles
from conftest import FakeEmbedder
from scent import Index
from scent.terminal import visible

TESTS = Path(__file__).resolve().parent
SRC = TESTS.parent / "src"
MAX_FILE_SECONDS = 20  # any one file's extraction, on a loaded 2-core CI machine
MAX_PEAK_MIB = 1200  # the whole run (the fake embedder; pictures, OCR and descriptions on)


def run_index(folder: Path, index_dir: Path, home: Path, times: Path) -> dict:
    child = index_dir.parent / "bad_files_child.py"
    child.write_text(badfiles.CHILD)
    env = {**os.environ, "SCENT_TESTS": str(TESTS), "SCENT_FAKE_EMBEDDER": "1", "SCENT_BAD_TIMES": str(times),
           "SCENT_HOME": str(home), "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])}
    times.write_text("")
    proc = subprocess.run([sys.executable, str(child), "index", str(folder), "--index", str(index_dir), "-q"],
                          capture_output=True, text=True, env=env, timeout=900)
    lines = proc.stderr.splitlines()
    peak = [int(line.split()[1]) for line in lines if line.startswith("peak-rss-kib ")]
    rows = [json.loads(line) for line in times.read_text().splitlines()]
    return {"rc": proc.returncode, "stderr": proc.stderr, "lines": [l for l in lines if not l.startswith("peak-rss")],
            "peak_mib": peak[0] / 1024 if peak else None, "times": rows}


def snapshot(index_dir: Path) -> dict[str, list[tuple[int, str]]]:
    """path -> [(unit id, text)] of everything the index holds."""
    db = sqlite3.connect(index_dir / "index.db")
    try:
        out: dict[str, list] = {p: [] for (p,) in db.execute("SELECT path FROM files")}
        for path, uid, text in db.execute("SELECT f.path, u.id, u.text FROM units u JOIN files f ON f.id = u.file_id "
                                          "ORDER BY f.path, u.place"):
            out[path].append((uid, text))
        assert db.execute("SELECT COUNT(*), COUNT(DISTINCT path) FROM files").fetchone()[0] == len(out)
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    finally:
        db.close()
    return out


def lines_about(lines: list[str], rel: str) -> list[str]:
    shown = visible(rel)
    return [line for line in lines if line.startswith((f"scent: skipped {shown}: ", f"scent: warning: {shown}: "))]


def build(tmp_path_factory, slow: bool):
    base = tmp_path_factory.mktemp("bad-files-slow" if slow else "bad-files")
    folder = base / "folder"
    only = [k.name for k in badfiles.KINDS if k.slow] if slow else None
    kinds = badfiles.make_folder(folder, slow=slow, only=only)
    runs = []
    for n in range(3):
        if not slow:  # each run finds it, and deletes it just before reading it
            badfiles.write(folder, badfiles.VANISHING, "this file is deleted after the walk found it\n")
        runs.append(run_index(folder, base / "index", base / "home", base / f"times{n}.jsonl"))
    return {"folder": folder, "index": base / "index", "kinds": kinds, "runs": runs, "home": base / "home"}


@pytest.fixture(scope="module")
def bad(tmp_path_factory):
    """The folder indexed three times; each run's lines, times and peak memory, and the index."""
    out = build(tmp_path_factory, slow=False)
    yield out
    badfiles.remove_deep(out["folder"])


def summary(run: dict) -> str:
    return next(line for line in run["lines"] if line.startswith("indexed "))


def test_there_are_at_least_40_kinds():
    assert len(badfiles.KINDS) >= 40
    assert len({k.name for k in badfiles.KINDS}) == len(badfiles.KINDS)


def test_every_run_completes_without_a_traceback(bad):
    for run in bad["runs"]:
        assert run["rc"] == 0, run["stderr"][-3000:]
        assert "Traceback" not in run["stderr"]
        # Every line is a skip, a warning, the closing summary or the kinds it passed by (scent.skipped):
        # nothing raw from a library.
        odd = [l for l in run["lines"] if not l.startswith(("scent: skipped ", "scent: warning: ", "indexed ",
                                                            "scent: not indexed (kinds scent does not read): "))]
        assert odd == []


def test_at_most_one_line_per_file_and_run(bad):
    for run in bad["runs"]:
        for kind in bad["kinds"]:
            for rel in kind.files:
                said = lines_about(run["lines"], rel)
                assert len(said) <= 1, (kind.name, said)


def test_each_kind_comes_to_what_it_should(bad):
    files = snapshot(bad["index"])
    lines = bad["runs"][0]["lines"]
    for kind in bad["kinds"]:
        for rel in kind.files:
            said = lines_about(lines, rel)
            if kind.outcome == "skip":
                assert said and said[0].startswith("scent: skipped "), (kind.name, rel, said)
                assert rel not in files, (kind.name, rel)
            elif kind.outcome == "index":
                assert rel in files, (kind.name, rel, said)
                assert not any(l.startswith("scent: skipped ") for l in said), (kind.name, said)


def test_each_file_takes_bounded_time_and_the_run_bounded_memory(bad):
    run = bad["runs"][0]
    slowest = max(run["times"], key=lambda row: row[1])
    assert slowest[1] < MAX_FILE_SECONDS, slowest
    assert run["peak_mib"] < MAX_PEAK_MIB, run["peak_mib"]


def test_good_files_are_found_after_every_run(bad):
    with Index(index_dir=bad["index"], embedder=FakeEmbedder()) as idx:
        for rel, (_, words) in badfiles.GOOD.items():
            hits = idx.search(words, k=3, strategy="keyword")
            assert hits and hits[0].path == rel, (rel, [h.path for h in hits])
        assert idx.search(badfiles.GOOD_DEEP_WORDS, k=1, strategy="keyword")[0].path == badfiles.DEEP_FILE
        # Nothing from outside the folder: not the file a link points to, not /etc/passwd by an entity
        # (no unit holds all their words; a unit with one of them may well exist).
        assert not idx.search(badfiles.OUTSIDE_WORDS, strategy="keyword", match="and")
        assert not idx.search("root x 0 0", strategy="keyword", match="and")
        # The file that grew while read holds its second line since the second run.
        assert idx.search("martins appended", k=1, strategy="keyword")[0].path == badfiles.GROWING


def test_later_runs_neither_duplicate_nor_lose_anything(bad):
    first, second, third = bad["runs"]
    # The second run re-reads only the file that grew during the first; the third reads nothing.
    assert " 0 new, 1 changed, 0 renamed, 0 deleted," in summary(second), summary(second)
    assert " 0 new, 0 changed, 0 renamed, 0 deleted," in summary(third), summary(third)
    n_files = int(summary(first).split("; ")[-1].split()[0])
    assert summary(third).endswith(f"; {n_files} files, " + summary(first).split(" files, ")[-1])
    # The skips are said again each run (they are still there to fix), and the same ones.
    skipped = [sorted(l for l in run["lines"] if l.startswith("scent: skipped ")) for run in bad["runs"]]
    assert skipped[0] == skipped[1] == skipped[2]


def test_a_clean_build_equals_the_three_runs(bad, tmp_path):
    """What three runs over bad files left equals one clean build of the folder as it is now."""
    got = snapshot(bad["index"])
    fresh = tmp_path / "fresh"
    with Index(bad["folder"], index_dir=fresh, embedder=FakeEmbedder()) as idx:
        idx.update()
    want = snapshot(fresh)
    assert sorted(got) == sorted(want)
    assert {p: [t for _, t in u] for p, u in got.items()} == {p: [t for _, t in u] for p, u in want.items()}


@pytest.mark.slow
def test_the_costliest_kinds(tmp_path_factory):
    out = build(tmp_path_factory, slow=True)
    files = snapshot(out["index"])
    for run in out["runs"]:
        assert run["rc"] == 0 and "Traceback" not in run["stderr"], run["stderr"][-3000:]
        for kind in out["kinds"]:
            for rel in kind.files:
                assert len(lines_about(run["lines"], rel)) <= 1
    assert max(row[1] for row in out["runs"][0]["times"]) < 120
    assert out["runs"][0]["peak_mib"] < 2000
    assert "pdf/ledger-2000-pages.pdf" in files and "text/one-line-50mb.txt" in files
    assert " 0 new, 0 changed, 0 renamed, 0 deleted," in summary(out["runs"][1])
    with Index(index_dir=out["index"], embedder=FakeEmbedder()) as idx:
        hit = idx.search("pier1734", k=1, strategy="keyword")[0]
        assert (hit.path, hit.page) == ("pdf/ledger-2000-pages.pdf", 1734)
        for rel, (_, words) in badfiles.GOOD.items():
            assert idx.search(words, k=1, strategy="keyword")[0].path == rel


# ---- the defects this class found, each on its own -----------------------------------------------

def reason_of(path: Path) -> str:
    from scent.errors import ExtractError
    from scent.extract import extract

    with pytest.raises(ExtractError) as info:
        extract(str(path))
    return info.value.reason


def test_mime_nested_past_the_recursion_limit_is_one_skip(tmp_path):
    badfiles._MAKERS["e-mail nested 1,000 parts deep"](tmp_path)  # was a RecursionError that ended the run
    assert reason_of(tmp_path / "mail/deep.eml").startswith("nested too deeply to read (over Python's limit of")


def test_docx_zip_bomb_is_refused_before_it_inflates(tmp_path):
    badfiles._MAKERS["zip bomb package (1 GiB member)"](tmp_path)  # python-docx inflated 1 GiB, twice
    assert "word/document.xml would inflate" in reason_of(tmp_path / "office/bomb.docx")


def test_xlsx_without_a_workbook_part_says_it_is_not_a_workbook(tmp_path):
    badfiles._MAKERS["package missing its main part"](tmp_path)  # said "file vanished or unreadable"
    assert reason_of(tmp_path / "office/hollow.xlsx") == (
        "not a readable Excel workbook (File contains no valid workbook part); it may be damaged or another "
        "format renamed; open and save it again, or add it to .scentignore")


def test_picture_whose_pixels_do_not_decode_is_one_note(tmp_path):
    from scent.extract import Limits, extract
    from scent.ocr import engine

    badfiles._MAKERS["garbled HEIC"](tmp_path)  # was two notes (OCR, description), one ending in a newline
    got = extract(str(tmp_path / "img/garbled.heic"), Limits(ocr=engine(), describe=True))
    assert "ocr_error" not in got.meta
    assert got.meta["picture_error"].startswith("its pixels did not decode (")
    assert got.meta["picture_error"].endswith("it is indexed by its name and date, without its text or a "
                                              "description of what it shows")
    assert "\n" not in got.meta["picture_error"]
