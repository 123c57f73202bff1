"""Bad input and crash safety: broken files, files that vanish, SIGKILL, concurrent use.

Plumbing only, so the fake embedder stands in for the model. Processes that must die or run
alongside the test run a small script (written below) with a slow copy of that embedder.
"""
from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fpdf import FPDF

import scent.indexing
from scent import Index, ScentError, Settings

# ---- helpers -------------------------------------------------------------------------------


def make_pdf(pages: list[str], password: str | None = None) -> bytes:
    pdf = FPDF()
    if password:
        pdf.set_encryption(owner_password="o", user_password=password)
    for text in pages:
        pdf.add_page()
        pdf.set_font("helvetica", size=12)
        pdf.multi_cell(0, 8, text)
    return bytes(pdf.output())


def errors(idx: Index) -> dict[str, str]:
    return {e["path"]: e["reason"] for e in idx.status()["errors"]}


def paths(results) -> list[str]:
    return [r.path for r in results]


# ---- bad files -----------------------------------------------------------------------------

GOOD_PDF = ["The boiler was serviced in March by a gas engineer.", "Page two is about bleeding the radiators."]
# What each bad file is, and words its skip reason must hold.
BAD = {
    "corrupt.pdf": "unreadable PDF",
    "truncated.pdf": "unreadable PDF",
    "encrypted.pdf": "encrypted PDF",
    "binary.txt": "binary data",
    "big.txt": "over the 1.0 MB limit",
}


@pytest.fixture
def messy(tmp_path):
    root = tmp_path / "messy"
    root.mkdir()
    (root / "good.md").write_text("# Garden\n\nPlant the garlic cloves in October, pointy end up.\n")
    good_pdf = make_pdf(GOOD_PDF)
    (root / "good.pdf").write_bytes(good_pdf)
    (root / "corrupt.pdf").write_bytes(b"%PDF-1.4\n" + bytes(range(256)) * 20)
    (root / "truncated.pdf").write_bytes(good_pdf[: len(good_pdf) // 2])
    (root / "encrypted.pdf").write_bytes(make_pdf(["The safe combination is hidden here."], password="u"))
    (root / "binary.txt").write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 8)
    # 1.5 MB of text against max_file_mb=1.
    line = "a long log line about a heartbeat from the sensor\n"
    (root / "big.txt").write_text(line * (int(1.5 * 1024 * 1024) // len(line) + 1))
    return root


def test_bad_files_are_skipped_and_the_rest_indexed(messy, fake_embedder):
    idx = Index(messy, settings=Settings(max_file_mb=1), embedder=fake_embedder)
    report = idx.update()
    assert report.added == 2
    skipped = dict(report.skipped)
    assert set(skipped) == set(BAD)
    for name, words in BAD.items():
        assert words in skipped[name], (name, skipped[name])
    assert errors(idx) == skipped
    assert idx.status()["files"] == 2
    assert paths(idx.search("garlic cloves", strategy="keyword")) == ["good.md"]
    hit = idx.search("bleeding radiators", strategy="keyword")[0]
    assert (hit.path, hit.page) == ("good.pdf", 2)
    # Nothing from the bad files reached the index.
    assert not idx.search("safe combination", strategy="keyword")
    assert not idx.search("heartbeat sensor", strategy="keyword")


def test_fixed_file_is_indexed_and_leaves_the_error_list(messy, fake_embedder):
    idx = Index(messy, settings=Settings(max_file_mb=1), embedder=fake_embedder)
    idx.update()
    (messy / "binary.txt").write_text("Now plain text: the wallpaper paste recipe.\n")
    (messy / "encrypted.pdf").write_bytes(make_pdf(["The safe combination is 12-34-56."]))
    report = idx.update()
    assert (report.added, report.updated, report.unchanged) == (2, 0, 2)
    assert set(dict(report.skipped)) == set(BAD) - {"binary.txt", "encrypted.pdf"}
    assert set(errors(idx)) == set(BAD) - {"binary.txt", "encrypted.pdf"}
    assert paths(idx.search("wallpaper paste", strategy="keyword")) == ["binary.txt"]
    assert paths(idx.search("safe combination", strategy="keyword")) == ["encrypted.pdf"]


def test_raising_the_limit_indexes_the_big_file(messy, fake_embedder):
    idx = Index(messy, settings=Settings(max_file_mb=1), embedder=fake_embedder)
    idx.update()
    idx.settings = Settings(max_file_mb=2)
    report = idx.update()
    assert "big.txt" not in dict(report.skipped)
    assert "big.txt" not in errors(idx)
    assert paths(idx.search("heartbeat sensor", strategy="keyword")) == ["big.txt"]


def test_size_limit_reason_names_the_setting_to_change(messy, fake_embedder):
    idx = Index(messy, settings=Settings(max_file_mb=1), embedder=fake_embedder)
    reason = dict(idx.update().skipped)["big.txt"]
    assert "max_file_mb" in reason


def test_deleted_bad_file_leaves_the_error_list(messy, fake_embedder):
    idx = Index(messy, settings=Settings(max_file_mb=1), embedder=fake_embedder)
    idx.update()
    os.remove(messy / "corrupt.pdf")
    idx.update()
    assert set(errors(idx)) == set(BAD) - {"corrupt.pdf"}


# ---- names and queries that are not UTF-8 ------------------------------------------------------

class StrictEmbedder:
    """conftest's FakeEmbedder, encoding every text as UTF-8 first, as the real model does."""

    def __init__(self, inner):
        self.inner, self.model_id, self.dim = inner, inner.model_id, inner.dim

    def embed_queries(self, texts):
        return self.inner.embed_queries([t.encode("utf-8").decode() for t in texts])

    def embed_passages(self, texts):
        return self.inner.embed_passages([t.encode("utf-8").decode() for t in texts])


def test_names_that_are_not_utf8_are_reported_and_the_rest_indexed(tmp_path, fake_embedder):
    root = tmp_path / "names"
    root.mkdir()
    raw = os.fsencode(root)
    with open(raw + b"/caf\xe9.txt", "wb") as f:  # a Latin-1 name
        f.write(b"menu of the cafe\n")
    os.mkdir(raw + b"/d\xff")
    with open(raw + b"/d\xff/inside.txt", "wb") as f:
        f.write(b"inside the odd folder\n")
    (root / "zebra.txt").write_text("the last file of the walk\n")
    idx = Index(root, embedder=StrictEmbedder(fake_embedder))
    report = idx.update()
    assert report.added == 1
    skipped = dict(report.skipped)
    assert set(skipped) == {"caf\\xe9.txt", "d\\xff"}
    assert all("not valid UTF-8" in reason and "rename" in reason for reason in skipped.values())
    assert errors(idx) == skipped
    assert paths(idx.search("last file walk", strategy="keyword")) == ["zebra.txt"]


def test_folder_whose_path_is_not_utf8_is_refused_in_one_line(tmp_path, fake_embedder):
    root = os.fsdecode(os.fsencode(tmp_path) + b"/caf\xe9")
    os.mkdir(root)
    with open(os.path.join(root, "menu.txt"), "w") as f:
        f.write("soup of the day\n")
    with pytest.raises(ScentError, match=r"caf\\xe9 is not valid UTF-8.*rename the folder") as info:
        Index(root, embedder=StrictEmbedder(fake_embedder))
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("query", ["\ud800", "deposit \ud800 refund", "deposit \udcff refund", "\udc80\udfff"])
def test_query_with_lone_surrogates_is_answered(notes, fake_embedder, query):
    idx = Index(notes, embedder=StrictEmbedder(fake_embedder))
    idx.update()
    results = idx.search(query)
    assert results  # dense search always has candidates
    if "deposit" in query:
        assert results[0].path == "lease.md"


def test_folder_tree_1000_levels_deep_is_walked(tmp_path, fake_embedder):
    root = bottom = tmp_path / "deep"
    root.mkdir()
    for _ in range(1000):  # one at a time: mkdir(parents=True) recurses too
        bottom = bottom / "d"
        bottom.mkdir()
    (bottom / "deep.txt").write_text("the bottom of the well\n")
    (root / "top.txt").write_text("the top of the tree\n")
    try:
        idx = Index(root, embedder=fake_embedder)
        report = idx.update()
        assert (report.added, report.skipped) == (2, [])
        assert paths(idx.search("bottom well", strategy="keyword")) == ["d/" * 1000 + "deep.txt"]
    finally:
        # Removed here from the bottom up: pytest's own clean-up (shutil.rmtree) recurses per level.
        (bottom / "deep.txt").unlink()
        while bottom != root:
            bottom.rmdir()
            bottom = bottom.parent


def test_broken_links_link_loops_and_fifos_are_reported_and_kept_in_status(tmp_path, fake_embedder):
    root = tmp_path / "links"
    root.mkdir()
    (root / "real.txt").write_text("a real note about tulips\n")
    os.symlink(root / "gone.txt", root / "dangling.txt")
    os.symlink("loop-b.txt", root / "loop-a.txt")
    os.symlink("loop-a.txt", root / "loop-b.txt")
    os.mkfifo(root / "notes.txt")  # opening it would block the run
    idx = Index(root, embedder=fake_embedder)
    for _ in range(2):  # reported again by the next run, and still in the status
        report = idx.update()
        assert report.added in (0, 1) and idx.status()["files"] == 1
        skipped = dict(report.skipped)
        assert set(skipped) == {"dangling.txt", "loop-a.txt", "loop-b.txt", "notes.txt"}
        assert skipped["dangling.txt"].startswith(f"broken link: its target {root / 'gone.txt'} does not exist")
        assert skipped["loop-a.txt"].startswith("link loop: loop-b.txt leads back to itself")
        assert skipped["notes.txt"].startswith("a named pipe (FIFO), not a regular file")
        assert not any("permissions" in reason for reason in skipped.values())
        assert errors(idx) == skipped


def jpeg_with_corrupt_exif(path: Path) -> None:
    """A JPEG whose EXIF camera model points past the end of the EXIF block."""
    from PIL import Image

    exif = Image.Exif()
    exif[0x010F] = "Canon"
    exif[0x0110] = "Canon EOS R5 with a long model name"
    raw = bytearray(exif.tobytes())
    entry = raw.find(bytes.fromhex("0110 0002"))  # tag, type ASCII; then count and offset
    raw[entry + 8:entry + 12] = (0x1000).to_bytes(4, "big")
    Image.new("RGB", (64, 48), "orange").save(path, exif=bytes(raw))


def test_damaged_exif_is_one_warning_line_not_raw_pillow_warnings(tmp_path, fake_embedder):
    import warnings

    root = tmp_path / "photos"
    root.mkdir()
    jpeg_with_corrupt_exif(root / "harbour.jpg")
    idx = Index(root, embedder=fake_embedder, settings=Settings(ocr=True, describe=True))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        report = idx.update()
    assert [str(w.message) for w in caught] == []
    assert report.added == 1
    assert [path for path, _ in report.warnings] == ["harbour.jpg"]
    reason = report.warnings[0][1]
    assert reason.startswith("its EXIF data is damaged (") and "\n" not in reason
    assert paths(idx.search("harbour", strategy="keyword")) == ["harbour.jpg"]


# ---- text that is too long -------------------------------------------------------------------

def recording(fake_embedder):
    """An embedder like `fake_embedder` and the list of every passage text it is given."""
    seen = []

    class Recording(type(fake_embedder)):
        def embed_passages(self, texts):
            seen.extend(texts)
            return super().embed_passages(texts)

    return Recording(), seen


def test_one_line_without_spaces_becomes_a_few_bounded_units(tmp_path, fake_embedder):
    root = tmp_path / "long"
    root.mkdir()
    (root / "minified.py").write_text("x" * 2_000_000)  # 100,000 words of 20 characters
    (root / "notes.md").write_text("Prose stays whole. " * 300 + "QUJD" * 2_000 + " And after the blob, more prose.")
    idx = Index(root, embedder=fake_embedder)
    report = idx.update()
    # Windows of 180 words every 150: the last starts at word 99,900, so 99,900 / 150 + 1 = 667
    # units, of which the first 16 are kept: none holds a word.
    assert report.units == 16 + len(idx.file_units("notes.md"))
    assert report.warnings == [("minified.py", "651 units of text without words (base64, minified code, one very "
                                               "long line) were left out; its first 16 such units are indexed")]
    assert max(len(u.text) for u in idx.file_units("minified.py")) == 180 * 20
    # Beside prose a blob is a few units of its own (8,000 characters: 400 words), the prose all kept.
    assert "after the blob, more prose." in idx.file_units("notes.md")[-1].text


def test_a_blob_in_text_is_embedded_by_its_head_and_without_sentences(tmp_path, fake_embedder):
    # A mail saved with its attachment: 100 lines of base64 after the prose.
    import base64

    from scent.chunk import wordless
    from scent.indexing import EMBED_HEAD_CHARS

    root = tmp_path / "mail"
    root.mkdir()
    blob = "\n".join(base64.b64encode(bytes(range(i, i + 57))).decode() for i in range(100))
    (root / "saved.txt").write_text("The invoice is attached. Please pay it by Friday. Thanks, Ana.\n\n" + blob)
    (root / "vendor.js").write_text("".join(f"function f{i}(a){{return a.map(g{i}).filter(h{i})}};" for i in range(500)))
    (root / "app.js").write_text("".join(f"export const applicationSettingNumber{i:03d} = loadTheApplicationSetting('{i}');\n"
                                         for i in range(20)))
    embedder, seen = recording(fake_embedder)
    idx = Index(root, embedder=embedder)
    idx.update()
    blobs = [u for u in idx.file_units("saved.txt") + idx.file_units("vendor.js") if wordless(u.text)]
    assert len(blobs) >= 3 and all(len(u.text) > 1000 for u in blobs)  # the keyword index keeps all of it
    heads = [t for t in seen if wordless(t) and "SettingNumber" not in t]
    # each blob unit once (its lines are no sentences), and only its head
    assert len(heads) == len(blobs)
    assert all(len(t) <= len("vendor.js\n") + EMBED_HEAD_CHARS for t in heads)
    # code in lines reads as wordless too (long names), but is embedded whole
    code = idx.file_units("app.js")
    assert wordless(code[0].text) and any(len(t) >= len(code[0].text) and "SettingNumber019" in t for t in seen)


def test_a_log_is_embedded_by_the_head_of_its_first_units_without_sentences(tmp_path, fake_embedder):
    from scent.chunk import log_lines
    from scent.indexing import EMBED_HEAD_CHARS, TABLE_UNITS_EMBEDDED

    root = tmp_path / "logs"
    root.mkdir()
    lines = [f"2025-03-{i % 28 + 1:02d}T10:{i % 60:02d}:00Z api method=GET path=/v2/items/{i} status=200 duration_ms={i % 90}"
             for i in range(3000)]
    lines[2950] = "2025-03-30T23:59:00Z api payment gateway timeout for merchant Kestrel Books"
    (root / "api.log").write_text("\n".join(lines) + "\n")
    embedder, seen = recording(fake_embedder)
    idx = Index(root, embedder=embedder)
    report = idx.update()
    units = idx.file_units("api.log")
    assert all(log_lines(u.text) for u in units) and len(units) > TABLE_UNITS_EMBEDDED
    # no sentence vectors (a log's lines are records), the first units only, each by its head
    assert len(seen) == report.embedded == TABLE_UNITS_EMBEDDED
    assert all(len(t) <= len("api\n") + EMBED_HEAD_CHARS for t in seen)
    assert paths(idx.search("Kestrel Books gateway timeout", strategy="keyword")) == ["api.log"]


def test_log_lines_are_mostly_time_stamped():
    from scent.chunk import log_lines

    stamped = ["2025-02-10T14:00:00Z tollgate-api status=409", "2025-10-01 03:00:01 backup-nas: starting",
               "Mar  4 10:01:02 host sshd[311]: Accepted key", "[2025-06-09 02:00:40] INFO indexed", "10:01:02 done"]
    assert log_lines("\n".join(stamped))
    assert not log_lines("\n".join(stamped[:4]))  # fewer than five lines
    assert not log_lines("\n".join(stamped + ["a note", "about", "the", "backup", "run", "today"]))  # 5 of 11
    assert not log_lines("Met on 2025-03-04 at 10:00.\nAgreed the plan.\nNext steps.\nBudget.\nDates.")


def test_code_with_long_names_is_kept_whole(tmp_path, fake_embedder):
    # Long identifiers make code read as wordless (chunk.wordless), but it is no blob: every unit stays.
    from scent.chunk import wordless

    root = tmp_path / "src"
    root.mkdir()
    body = "".join(f"def compute_the_settlement_total_{i:02d}(previous_balance_amount, outstanding_charges):\n"
                   f"    adjusted_settlement_value = previous_balance_amount - outstanding_charges_{i:02d}\n"
                   f"    return round_to_the_nearest_penny(adjusted_settlement_value)\n\n" for i in range(60))
    (root / "settlement.py").write_text(body)
    idx = Index(root, embedder=fake_embedder)
    report = idx.update()
    units = idx.file_units("settlement.py")
    assert sum(wordless(u.text) for u in units) > 16 and report.warnings == []
    assert "compute_the_settlement_total_59" in units[-1].text
    assert paths(idx.search("compute_the_settlement_total_59", strategy="keyword")) == ["settlement.py"]


def test_a_long_table_has_vectors_for_its_first_units_and_keywords_for_all(tmp_path, fake_embedder):
    from scent.indexing import TABLE_UNITS_EMBEDDED

    root = tmp_path / "bank"
    root.mkdir()
    rows = [f"2024-01-{i % 28 + 1:02d},card payment {i},{i % 97}.50" for i in range(3000)]
    rows[2900] = "2024-12-24,Pawsworth Vet Clinic dental,212.00"
    (root / "export.csv").write_text("date,what,amount\n" + "\n".join(rows) + "\n")
    idx = Index(root, embedder=fake_embedder)
    report = idx.update()
    assert report.units > TABLE_UNITS_EMBEDDED + 40
    assert fake_embedder.passages_seen == TABLE_UNITS_EMBEDDED
    # a row past them is found by its words, and the file by meaning through its first units
    assert paths(idx.search("Pawsworth dental", strategy="keyword")) == ["export.csv"]
    assert paths(idx.search("card payment", strategy="dense")) == ["export.csv"]


def test_each_sheet_of_a_workbook_is_a_table_of_its_own(tmp_path, fake_embedder):
    import openpyxl

    from scent.indexing import TABLE_UNITS_EMBEDDED

    root = tmp_path / "book"
    root.mkdir()
    book = openpyxl.Workbook()
    for n, name in enumerate(("Shop sales", "Wedding budget")):
        sheet = book.active if n == 0 else book.create_sheet(name)
        sheet.title = name
        sheet.append(["date", "what", "amount"])
        for i in range(2500):
            sheet.append([f"2024-01-{i % 28 + 1:02d}", f"{name.lower()} item {i}", i % 97])
    book.save(root / "money.xlsx")
    idx = Index(root, embedder=fake_embedder)
    report = idx.update()
    assert report.units > 2 * TABLE_UNITS_EMBEDDED + 20
    assert fake_embedder.passages_seen == 2 * TABLE_UNITS_EMBEDDED  # the first units of each sheet


def test_units_past_max_units_per_file_are_left_out_with_a_warning(tmp_path, fake_embedder):
    root = tmp_path / "long"
    root.mkdir()
    (root / "words.txt").write_text(" ".join(f"word{i:02d}" for i in range(100)))  # 7 characters a word
    idx = Index(root, embedder=fake_embedder,
                settings=Settings(chunk_words=10, chunk_overlap=0, max_units_per_file=3))
    report = idx.update()
    assert report.units == 3
    # The third unit ends after word29: 30 words of 6 characters and 29 spaces.
    assert report.warnings == [("words.txt", "only its first 3 units were indexed (to character 209); "
                                             "raise max_units_per_file to index the rest")]
    assert [u.text.split()[-1] for u in idx.file_units("words.txt")] == ["word09", "word19", "word29"]


def test_a_log_past_max_units_per_file_keeps_its_newest_lines(tmp_path, fake_embedder):
    # A log is written at its end: kept from its start, a 50 MB log lost its newest 85%.
    root = tmp_path / "logs"
    root.mkdir()
    lines = [f"2024-05-01 00:{i // 60:02d}:{i % 60:02d} INFO job{i:03d} done" for i in range(100)]  # 5 words a line
    (root / "app.log").write_text("\n".join(lines) + "\n")
    idx = Index(root, embedder=fake_embedder, settings=Settings(chunk_words=10, chunk_overlap=0, max_units_per_file=3))
    report = idx.update()
    kept = idx.file_units("app.log")
    # Units of two lines (ten words) counted from a line about eight from the end (the first three units'
    # 221 characters and a unit's more: 294 of 3,700), 94: its last three units, the very last one line.
    assert [u.text.split()[3] for u in kept] == ["job095", "job097", "job099"]
    assert [u.line for u in kept] == [96, 98, 100]
    assert report.warnings == [("app.log", "only its last 3 units were indexed (a log's newest lines, from line 96); "
                                           "raise max_units_per_file to index the rest")]
    assert idx.search("job099", k=1)[0].line == 100


def test_query_longer_than_the_limit_is_refused_in_one_line(notes, fake_embedder):
    from scent.errors import UsageError
    from scent.query import MAX_QUERY_CHARS

    idx = Index(notes, embedder=fake_embedder)
    idx.update()
    assert idx.search(("deposit " * MAX_QUERY_CHARS)[:MAX_QUERY_CHARS])[0].path == "lease.md"
    with pytest.raises(UsageError, match=r"^the query is 20,000 characters long, over the 1,000 searched; shorten"):
        idx.search("x" * 20_000)


# ---- files that vanish while indexing ------------------------------------------------------

@pytest.fixture
def ten_notes(tmp_path):
    root = tmp_path / "ten"
    root.mkdir()
    for i in range(10):
        (root / f"note{i}.txt").write_text(f"Note number {i}: the kettle descaling schedule, item{i}.\n")
    return root


# Two readers, given two files ahead each: note4 goes to a reader once note0's answer is taken, so
# deleting it while note0 is read deletes it before it is read, after the walk listed and hashed it.
TWO_READERS = Settings(index_workers=2)


def extract_then_delete(folder: Path, real_extract):
    def extract(path, limits):
        if os.path.basename(path) == "note0.txt" and (folder / "note4.txt").exists():
            os.remove(folder / "note4.txt")
        return real_extract(path, limits)
    return extract


def test_file_vanishing_before_extraction_is_skipped(ten_notes, fake_embedder, monkeypatch):
    monkeypatch.setattr(scent.indexing, "extract", extract_then_delete(ten_notes, scent.indexing.extract))
    idx = Index(ten_notes, embedder=fake_embedder, settings=TWO_READERS)
    report = idx.update()
    assert [p for p, _ in report.skipped] == ["note4.txt"]
    assert "vanished" in report.skipped[0][1]
    assert report.added == 9
    assert sorted(paths(idx.search("kettle descaling", k=20, strategy="keyword"))) == \
        [f"note{i}.txt" for i in range(10) if i != 4]
    assert set(errors(idx)) == {"note4.txt"}


def test_file_vanishing_before_hashing_is_skipped(ten_notes, fake_embedder, monkeypatch):
    # Timing only: the walk lists note7, then it is deleted before update() reads its bytes.
    real_walk = scent.indexing.walk

    def walk_then_delete(*args, **kwargs):
        found = list(real_walk(*args, **kwargs))
        os.remove(ten_notes / "note7.txt")
        yield from found

    monkeypatch.setattr(scent.indexing, "walk", walk_then_delete)
    idx = Index(ten_notes, embedder=fake_embedder)
    report = idx.update()
    assert [p for p, _ in report.skipped] == ["note7.txt"]
    assert "vanished" in report.skipped[0][1]
    assert report.added == 9
    assert "note7.txt" not in paths(idx.search("kettle descaling", k=20, strategy="keyword"))


def test_vanished_file_that_comes_back_is_indexed(ten_notes, fake_embedder, monkeypatch):
    real_extract = scent.indexing.extract
    content = (ten_notes / "note4.txt").read_bytes()
    monkeypatch.setattr(scent.indexing, "extract", extract_then_delete(ten_notes, real_extract))
    idx = Index(ten_notes, embedder=fake_embedder, settings=TWO_READERS)
    assert [p for p, _ in idx.update().skipped] == ["note4.txt"]
    monkeypatch.setattr(scent.indexing, "extract", real_extract)
    (ten_notes / "note4.txt").write_bytes(content)
    report = idx.update()
    assert (report.added, report.unchanged, report.skipped) == (1, 9, [])
    assert errors(idx) == {}
    assert paths(idx.search("item4", strategy="keyword")) == ["note4.txt"]


class Stopped(BaseException):
    """Stands in for a kill: nothing of the run's code handles it."""


def test_a_stopped_run_keeps_every_file_whose_vectors_were_made(ten_notes, fake_embedder):
    for i in range(10, 20):
        (ten_notes / f"note{i}.txt").write_text(f"Note number {i}: the kettle descaling schedule, item{i}.\n")

    class StopsInItsThirdBatch(type(fake_embedder)):
        calls = 0

        def embed_passages(self, texts):
            self.calls += 1
            if self.calls == 3:
                raise Stopped
            return super().embed_passages(texts)

    settings = Settings(embed_batch=4, sentence_vectors=False)  # one text a file
    with Index(ten_notes, embedder=StopsInItsThirdBatch(), settings=settings) as idx:
        with pytest.raises(Stopped):
            idx.update()
    with Index(ten_notes, embedder=fake_embedder, settings=settings) as idx:
        # Two batches of four files' texts were embedded before the stop: those eight files were saved.
        assert idx.status()["files"] == 8
        report = idx.update()
        assert (report.added, report.unchanged) == (12, 8)


# ---- processes: a slow indexer to kill, search beside, or race --------------------------------

INDEXER = r'''
import sys, time
sys.path.insert(0, sys.argv[4])  # the tests folder, for conftest's fake embedder
from conftest import FakeEmbedder
from scent import Index, Settings


class SlowHashedWords(FakeEmbedder):
    """conftest.FakeEmbedder's vectors (same model id), a little slower per text."""

    def __init__(self, delay):
        super().__init__()
        self.delay = delay
        self.calls = 0

    def embed_passages(self, texts):
        self.calls += 1
        if self.calls == 1:
            print("embedding", flush=True)
        time.sleep(self.delay * len(texts))
        return super().embed_passages(texts)


folder, index_dir, delay = sys.argv[1], sys.argv[2], float(sys.argv[3])
idx = Index(folder, index_dir=index_dir, embedder=SlowHashedWords(delay), settings=Settings(embed_batch=8))
print("start", flush=True)
done = [0]


def said(p):  # a line after each file written, as before (a stage change alone is not one)
    if p.files_done != done[0]:
        done[0] = p.files_done
        print(f"progress {p.files_done}/{p.files_total}", flush=True)


report = idx.update(progress=said)
print(f"done {report.added} {report.updated} {report.deleted} {report.renamed}", flush=True)
'''

N_FILES = 60
COMMON = "zebrafinch"


def write_corpus(root: Path) -> None:
    """60 Markdown files of three sections each (three units); COMMON is in some sections
    only, and one empty file (a file that rightly has no units)."""
    root.mkdir(parents=True, exist_ok=True)
    for i in range(N_FILES):
        parts = [f"# Entry {i}\n\n{COMMON} sighting number {i} near the pond, marker m{i:03d}.",
                 f"# Weather {i}\n\nCloudy with light wind; the barometer read {1000 + i} hPa.",
                 f"# Notes {i}\n\n" + (f"Another {COMMON} by the feeder." if i % 3 == 0 else "Nothing else seen.")]
        (root / f"d{i // 20}" / f"log{i:03d}.md").parent.mkdir(exist_ok=True)
        (root / f"d{i // 20}" / f"log{i:03d}.md").write_text("\n\n".join(parts) + "\n")
    (root / "empty.txt").write_text("")


@pytest.fixture
def indexer(tmp_path):
    script = tmp_path / "slow_indexer.py"
    script.write_text(INDEXER)

    def start(folder: Path, index_dir: Path, delay: float = 0.004) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, str(script), str(folder), str(index_dir), str(delay),
                                 str(Path(__file__).resolve().parent)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env={**os.environ, "PYTHONUNBUFFERED": "1"})
    return start


def wait_for(proc: subprocess.Popen, marker: str) -> bool:
    """Read the script's lines until one starts with `marker`; False if it ended first."""
    for line in proc.stdout:
        if line.startswith(marker):
            return True
    proc.wait()
    assert proc.returncode == 0, proc.stderr.read()
    return False


def reference_units(folder: Path, tmp_path: Path, fake_embedder) -> dict[str, tuple[str, list[str]]]:
    """path -> (hash, unit texts) of a clean, uninterrupted index of the folder as it is now."""
    ref_dir = tmp_path / f"ref-{time.monotonic_ns()}"
    with Index(folder, index_dir=ref_dir, embedder=fake_embedder) as ref:
        ref.update()
    return file_units(ref_dir)


def file_units(index_dir: Path) -> dict[str, tuple[str, list[str]]]:
    db = sqlite3.connect(index_dir / "index.db")
    try:
        out = {path: (digest, []) for path, digest in db.execute("SELECT path, hash FROM files")}
        for path, text in db.execute("SELECT f.path, u.text FROM units u JOIN files f ON f.id = u.file_id "
                                     "ORDER BY f.path, u.place"):
            out[path][1].append(text)
    finally:
        db.close()
    return out


def check_consistent(index_dir: Path, folder: Path, tmp_path: Path, fake_embedder) -> int:
    """The checks a killed index must pass; returns how many files it holds."""
    db = sqlite3.connect(index_dir / "index.db")
    try:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        # FTS5 against its external content table (rank = 1 compares with `units` too).
        db.execute("INSERT INTO units_fts(units_fts, rank) VALUES('integrity-check', 1)")
        db.execute("INSERT INTO ids_fts(ids_fts, rank) VALUES('integrity-check', 1)")
        n_units = db.execute("SELECT COUNT(*) FROM units").fetchone()[0]
        assert db.execute("SELECT COUNT(*) FROM units_fts_docsize").fetchone()[0] == n_units
        texts = db.execute("SELECT row, text FROM units").fetchall()
        with_word = {row for row, text in texts if re.search(rf"\b{COMMON}\b", text)}
        fts_hits = {r[0] for r in db.execute("SELECT rowid FROM units_fts WHERE units_fts MATCH ?",
                                             (f"text : {COMMON}",))}
        assert fts_hits == with_word
        # No unit without its file or without its vector.
        assert db.execute("SELECT COUNT(*) FROM units WHERE file_id NOT IN (SELECT id FROM files)").fetchone() == (0,)
        assert db.execute("SELECT COUNT(*) FROM units WHERE text != '' AND id NOT IN "
                          "(SELECT unit_id FROM vectors WHERE field = 'unit')").fetchone() == (0,)
        sizes = dict(db.execute("SELECT path, size FROM files"))
    finally:
        db.close()

    # Every file the index holds has exactly the units an uninterrupted run gives it.
    got = file_units(index_dir)
    want = reference_units(folder, tmp_path, fake_embedder)
    for path, (digest, units) in got.items():
        assert units or sizes[path] == 0, f"{path} is indexed without units"
        if path in want and want[path][0] == digest:
            assert units == want[path][1], path

    # A new Index opens it and searches it; keyword hits are exactly the files holding the word.
    with Index(index_dir=index_dir, embedder=fake_embedder) as idx:
        hits = idx.search(COMMON, k=1000, strategy="keyword")
        assert sorted(paths(hits)) == sorted(p for p, (_, units) in got.items()
                                             if any(re.search(rf"\b{COMMON}\b", t) for t in units))
        if any(units for _, units in got.values()):  # saved per file: empty.txt (no units) may be alone
            assert idx.search("pond sighting", k=5)
        idx.status()
    return len(got)


def test_sigkill_at_any_moment_leaves_a_usable_index(tmp_path, indexer, fake_embedder):
    folder = tmp_path / "birds"
    write_corpus(folder)
    index_dir = tmp_path / "index"
    # (line the script prints, then seconds to wait) before each SIGKILL: while walking and
    # hashing, mid-way through embedding, just after a batch is written, and a little later.
    kills = [("start", 0.0), ("start", 0.05), ("embedding", 0.02), ("progress", 0.0), ("progress", 0.03),
             ("start", 0.0), ("embedding", 0.0)]
    counts = []
    for round_no, (marker, delay) in enumerate(kills):
        if round_no == 5:
            # Give the next runs deletions, renames and edits to be killed in, too.
            os.remove(folder / "d0" / "log000.md")
            os.rename(folder / "d0" / "log001.md", folder / "d0" / "log001-renamed.md")
            (folder / "d0" / "log002.md").write_text(f"# Edited\n\nA {COMMON} came back today.\n")
            (folder / "d2" / "log059.md").write_text("# Edited\n\nNo birds today.\n")
        proc = indexer(folder, index_dir)
        reached = wait_for(proc, marker)
        assert reached, f"round {round_no}: the indexer finished before {marker!r}"
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert proc.returncode == -signal.SIGKILL
        proc.stdout.close()
        proc.stderr.close()
        counts.append(check_consistent(index_dir, folder, tmp_path, fake_embedder))

    # Work survives the kills: by the last round some files were written, but not all.
    assert 0 < max(counts) < N_FILES + 1

    # A plain run finishes the job, and the result equals an uninterrupted index.
    with Index(folder, index_dir=index_dir, embedder=fake_embedder) as idx:
        report = idx.update()
        assert report.skipped == []
        assert idx.status()["files"] == N_FILES + 1 - 1  # 60 logs - 1 deleted + empty.txt
    final = file_units(index_dir)
    want = reference_units(folder, tmp_path, fake_embedder)
    assert final == want
    check_consistent(index_dir, folder, tmp_path, fake_embedder)


def test_search_while_indexing(tmp_path, indexer, fake_embedder):
    folder = tmp_path / "birds"
    write_corpus(folder)
    index_dir = tmp_path / "index"
    proc = indexer(folder, index_dir, delay=0.01)
    assert wait_for(proc, "start")
    searches, partial_seen = 0, False
    with Index(index_dir=index_dir, embedder=fake_embedder) as kept_open:
        while proc.poll() is None:
            # One Index kept open (the web app) and a fresh one each time (the CLI).
            with Index(index_dir=index_dir, embedder=fake_embedder) as fresh:
                for idx in (kept_open, fresh):
                    files = idx.status()["files"]
                    results = idx.search(f"{COMMON} pond", k=100)
                    assert all((folder / r.path).is_file() for r in results)
                    searches += 1
                    partial_seen |= 0 < files < N_FILES + 1
    out, err = proc.communicate()
    assert proc.returncode == 0, err
    assert "locked" not in err
    assert out.strip().endswith(f"done {N_FILES + 1} 0 0 0")
    assert searches > 0 and partial_seen, "no search overlapped the indexing run"
    check_consistent(index_dir, folder, tmp_path, fake_embedder)


def test_second_update_from_another_process_is_refused(tmp_path, indexer, fake_embedder):
    folder = tmp_path / "birds"
    write_corpus(folder)
    index_dir = tmp_path / "index"
    proc = indexer(folder, index_dir, delay=0.01)
    assert wait_for(proc, "embedding")  # the first run holds the lock now
    with Index(folder, index_dir=index_dir, embedder=fake_embedder) as second:
        with pytest.raises(ScentError, match="another scent is indexing"):
            second.update()
    out, err = proc.communicate()
    assert proc.returncode == 0, err
    assert out.strip().endswith(f"done {N_FILES + 1} 0 0 0")
    with Index(folder, index_dir=index_dir, embedder=fake_embedder) as idx:
        assert idx.status()["files"] == N_FILES + 1
        assert idx.status()["errors"] == []
        assert idx.update().unchanged == N_FILES + 1
    check_consistent(index_dir, folder, tmp_path, fake_embedder)


def test_second_update_in_the_same_process_is_refused(ten_notes, fake_embedder):
    """No timing at all: the first update's embedder starts the second update."""
    refused = []

    class Reentrant(type(fake_embedder)):
        def embed_passages(self, texts):
            if not refused:
                with Index(ten_notes, embedder=fake_embedder) as second:
                    with pytest.raises(ScentError, match="another scent is indexing") as info:
                        second.update()
                    refused.append(info.value)
            return super().embed_passages(texts)

    with Index(ten_notes, embedder=Reentrant()) as idx:
        report = idx.update()
        assert refused and report.added == 10
        assert idx.update().unchanged == 10


def test_a_transaction_sqlite_rolled_back_itself_keeps_the_error_that_says_why(tmp_path):
    # After SQLITE_FULL SQLite has rolled the transaction back: a ROLLBACK then raised "cannot rollback -
    # no transaction is active" in place of the "database or disk is full" that says what to do.
    from scent.engines.sqlite.db import transaction

    db = sqlite3.connect(tmp_path / "t.db", isolation_level=None)
    db.execute("CREATE TABLE t (x)")
    with pytest.raises(sqlite3.OperationalError, match="database or disk is full"):
        with transaction(db):
            db.execute("INSERT INTO t VALUES (1)")
            db.execute("ROLLBACK")  # as SQLite does on a full disk
            raise sqlite3.OperationalError("database or disk is full")
    assert not db.in_transaction and db.execute("SELECT count(*) FROM t").fetchone() == (0,)
    with pytest.raises(ValueError):
        with transaction(db):
            db.execute("INSERT INTO t VALUES (2)")
            raise ValueError("any other failure")
    assert db.execute("SELECT count(*) FROM t").fetchone() == (0,)  # rolled back here


def test_output_to_a_full_device_is_one_line(tmp_path):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    with open("/dev/full", "w") as full:
        out = subprocess.run([sys.executable, "-m", "scent", "--help"], stdout=full, stderr=subprocess.PIPE,
                             text=True, timeout=60, env={**os.environ, "SCENT_HOME": str(tmp_path)})
    assert "Traceback" not in out.stderr and out.returncode != 0
