"""Every file walked and not indexed is listed with its cause (scent.skipped): files of kinds scent
does not read (counted by the walk), and files it could not read (the catalog's errors); hidden
and ignored files are neither. Expectations are counted by hand from the folders made here."""
from __future__ import annotations

import json
import os
import sys

import pytest

from scent import Index
from scent.settings import Settings
from scent.skipped import MAX_LISTED_PER_GROUP, cause, summary

from conftest import FakeEmbedder

OLE_MAGIC = bytes.fromhex("d0cf11e0a1b11ae1")  # what a password-protected .xlsx is (an OLE container)


def make_folder(root, outside):
    """Indexed: a.md. Not indexed, by hand: 2 .exe, 1 without extension, 1 .ppt (damaged),
    1 damaged .xlsx, 1 encrypted .xlsx, 1 .txt over max_file_mb, 1 broken link named .md.
    Not listed at all: a hidden file, one in node_modules, one .scentignore matches, and a link
    to an .exe outside the folder."""
    (root / "sub").mkdir(parents=True)
    (root / "a.md").write_text("# Ledger\nThe harbour ledger for July.\n")
    (root / "b.exe").write_bytes(b"MZ\x90\x00")
    (root / "sub" / "c.exe").write_bytes(b"MZ\x90\x00")
    (root / "notes").write_text("no extension")
    (root / "d.ppt").write_bytes(OLE_MAGIC + b"\0" * 504)
    (root / "bad.xlsx").write_bytes(b"PK\x03\x04 cut short")
    (root / "locked.xlsx").write_bytes(OLE_MAGIC + b"\0" * 504)
    (root / "big.txt").write_text("word " * 220_000)  # 1.1 MB, over max_file_mb=1
    os.symlink(root / "gone.txt", root / "gone.md")
    (root / ".hidden.exe").write_bytes(b"MZ")
    (root / "node_modules").mkdir()
    (root / "node_modules" / "x.exe").write_bytes(b"MZ")
    (root / ".scentignore").write_text("*.log\n")
    (root / "run.log").write_text("ignored")
    outside.mkdir()
    (outside / "tool.exe").write_bytes(b"MZ")
    os.symlink(outside / "tool.exe", root / "tool.exe")
    return root


EXPECTED = [
    {"ext": ".exe", "cause": "unsupported kind", "files": 2},
    {"ext": "(none)", "cause": "unsupported kind", "files": 1},  # "(" sorts before "."
    {"ext": ".md", "cause": "broken link", "files": 1},
    {"ext": ".ppt", "cause": "damaged", "files": 1},
    {"ext": ".txt", "cause": "too big", "files": 1},
    {"ext": ".xlsx", "cause": "damaged", "files": 1},
    {"ext": ".xlsx", "cause": "encrypted", "files": 1},
]


@pytest.fixture
def built(tmp_path):
    folder = make_folder(tmp_path / "folder", tmp_path / "outside")
    idx = Index(folder, index_dir=tmp_path / "idx", settings=Settings(max_file_mb=1), embedder=FakeEmbedder())
    idx.update()
    yield idx
    idx.close()


def test_status_counts_what_was_not_indexed_per_extension_and_cause(built):
    st = built.status()
    assert st["files"] == 1
    assert st["not_indexed"] == EXPECTED
    assert summary(st["not_indexed"]) == ("2 .exe, 1 (none), 1 .md (broken link), 1 .ppt (damaged), "
                                          "1 .txt (too big), 1 .xlsx (damaged), 1 .xlsx (encrypted)")


def test_skipped_lists_each_file_with_its_cause_and_not_the_ignored_ones(built):
    listed = built.skipped()
    assert [(f["path"], f["cause"]) for f in listed["files"]] == [
        ("b.exe", "unsupported kind"), ("bad.xlsx", "damaged"), ("big.txt", "too big"), ("d.ppt", "damaged"),
        ("gone.md", "broken link"), ("locked.xlsx", "encrypted"), ("notes", "unsupported kind"),
        ("sub/c.exe", "unsupported kind")]
    assert listed["unlisted"] == []
    reasons = {f["path"]: f["reason"] for f in listed["files"]}
    assert reasons["b.exe"].startswith("scent does not index .exe files (it reads archive, audio, calendar, code, contacts, csv")
    assert reasons["b.exe"].endswith("add *.exe to .scentignore to stop listing them")
    assert "password-protected" in reasons["locked.xlsx"]


def test_the_list_of_unsupported_files_is_bounded_and_counts_the_rest(tmp_path):
    folder = tmp_path / "f"
    folder.mkdir()
    for i in range(MAX_LISTED_PER_GROUP + 5):
        (folder / f"disk{i:02d}.iso").write_bytes(b"CD001")
    with Index(folder, index_dir=tmp_path / "idx", embedder=FakeEmbedder()) as idx:
        idx.update()
        assert idx.status()["not_indexed"] == [{"ext": ".iso", "cause": "unsupported kind", "files": 25}]
        listed = idx.skipped()
    assert [f["path"] for f in listed["files"]] == [f"disk{i:02d}.iso" for i in range(MAX_LISTED_PER_GROUP)]
    assert listed["unlisted"] == [{"ext": ".iso", "files": 5}]


def test_a_later_run_replaces_the_record_and_a_refresh_keeps_it(built):
    folder = built.root
    os.remove(os.path.join(folder, "b.exe"))
    with open(os.path.join(folder, "e.iso"), "wb") as fh:
        fh.write(b"CD001")
    # A refresh of some paths (what scent watch does) walks no folder: the record stays the last full run's.
    built.refresh(["b.exe", "e.iso"])
    assert {(c["ext"], c["files"]) for c in built.status()["not_indexed"] if c["cause"] == "unsupported kind"} == {
        (".exe", 2), ("(none)", 1)}
    built.update()
    assert {(c["ext"], c["files"]) for c in built.status()["not_indexed"] if c["cause"] == "unsupported kind"} == {
        (".exe", 1), ("(none)", 1), (".iso", 1)}


def test_a_run_stopped_before_its_end_keeps_the_last_complete_record(built, monkeypatch):
    """The record is replaced in the transaction that ends the run: stopped anywhere before, or
    inside that transaction, the index says what the last complete run found."""
    folder = built.root
    for name in ("f.iso", "g.iso"):
        with open(os.path.join(folder, name), "wb") as fh:
            fh.write(b"CD001")
    with open(os.path.join(folder, "new.md"), "w") as fh:
        fh.write("A new note about the tide tables.\n")
    catalog = type(built.engine.catalog)
    real_set_meta = catalog.set_meta

    def killed(self, key, value):
        if key == "last_indexed":  # after the record was written, inside the same transaction
            raise KeyboardInterrupt
        return real_set_meta(self, key, value)

    monkeypatch.setattr(catalog, "set_meta", killed)
    with pytest.raises(KeyboardInterrupt):
        built.update()
    monkeypatch.undo()
    assert built.status()["not_indexed"] == EXPECTED
    assert built.status()["files"] == 2  # new.md was written, in its own transaction, before the end
    built.update()
    assert {"ext": ".iso", "cause": "unsupported kind", "files": 2} in built.status()["not_indexed"]


@pytest.mark.parametrize("reason, expected", [
    ("Word 97-2003 .doc files are read by catdoc, which is not installed here; sudo apt-get install catdoc",
     "needs a library"),
    ("password-protected (encrypted) Excel .xlsx workbook, or an old binary Office file renamed", "encrypted"),
    ("encrypted PDF: scent cannot read it without the password; ...", "encrypted"),
    ("text file is 1.1 MB, over the 1.0 MB limit; raise the max_file_mb setting", "too big"),
    ("Excel .xlsx workbook inflates to 240.0 MB, over 200.0 MB (4x max_file_mb)", "too big"),
    ("Excel .xlsx workbook part xl/a.xml would inflate 1000 bytes to 1.0 GB (a zip bomb?)", "too big"),
    (".heic pictures need pillow-heif, which is not installed here; pip install pillow-heif", "needs a library"),
    ("its name is not valid UTF-8 (shown as \\xNN); rename it (convmv can) to index it", "bad name"),
    ("broken link: its target x does not exist; fix the link or remove it", "broken link"),
    ("a named pipe (FIFO), not a regular file: scent reads only regular files", "not a regular file"),
    ("cannot read (Permission denied); check its permissions", "unreadable"),
    ("vanished or unreadable while indexing (No such file); will retry next run", "unreadable"),
    ("no space left to read it (No space left on device: a mailbox's messages wait in the index folder, files "
     "inside files in the temporary folder); free some space and index again", "disk full"),
    ("not a readable Excel workbook (BadZipFile: File is not a zip file); it may be damaged", "damaged"),
    ("binary data in a text file (NUL bytes in the first 8 KB)", "damaged"),
    ("reading it crashed the process reading it (a fault in the library that reads .pdf files, on bytes it could "
     "not handle); if it opens in other programs, report it", "crashed its reader"),
    ("online only: its bytes are in the cloud (OneDrive, iCloud Drive, Dropbox), not on this computer, and scent "
     "does not download them; keep it on this device to index it", "online only"),
])
def test_causes_of_scents_own_reasons(reason, expected):
    assert cause(reason) == expected


# ---- the CLI, in process, on a fake-built index ---------------------------------------------------

def _scent(monkeypatch, capsys, *args):
    from scent.cli import main
    monkeypatch.setattr("scent.index.E5Embedder", FakeEmbedder)
    monkeypatch.setattr(sys, "argv", ["scent", *args])
    try:
        main()
        code = 0
    except SystemExit as exit:
        code = exit.code
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_index_says_what_it_passed_by(tmp_path, monkeypatch, capsys):
    folder = make_folder(tmp_path / "folder", tmp_path / "outside")
    code, _, err = _scent(monkeypatch, capsys, "index", str(folder), "--index", str(tmp_path / "idx"), "-q",
                          "--max-file-mb", "1")
    assert code == 0
    assert err.splitlines()[-1] == ("scent: not indexed (kinds scent does not read): 2 .exe, 1 (none); "
                                    "scent status --skipped lists them")
    assert err.count("scent: skipped ") == 5  # the files of kinds it reads, each said as it went


def test_cli_index_says_files_online_only_in_one_line_and_status_counts_them(tmp_path, monkeypatch, capsys):
    folder = tmp_path / "OneDrive"
    folder.mkdir()
    for name in ("a.md", "b.docx", "c.pdf", "here.md"):
        (folder / name).write_text(f"words of {name}")
    monkeypatch.setattr("scent.indexing.online_only", lambda st: st is not None and st.st_size < 16)  # not here.md
    code, _, err = _scent(monkeypatch, capsys, "index", str(folder), "--index", str(tmp_path / "idx"), "-q")
    assert code == 0
    assert [line for line in err.splitlines() if line.startswith("scent: skipped")] == [
        "scent: skipped 3 files online only (in the cloud, not on this computer; scent does not download them): keep "
        "them on this device to index them; scent status --skipped lists them"]
    code, out, _ = _scent(monkeypatch, capsys, "status", "--index", str(tmp_path / "idx"))
    assert "not indexed: 1 .docx (online only), 1 .md (online only), 1 .pdf (online only) (scent status --skipped " \
           "lists them)" in out.splitlines()


def test_cli_status_counts_and_lists_them(built, monkeypatch, capsys):
    index = str(built.index_dir)
    code, out, _ = _scent(monkeypatch, capsys, "status", "--index", index)
    assert code == 0
    assert ("not indexed: 2 .exe, 1 (none), 1 .md (broken link), 1 .ppt (damaged), 1 .txt (too big), "
            "1 .xlsx (damaged), 1 .xlsx (encrypted) (scent status --skipped lists them)") in out.splitlines()
    code, out, _ = _scent(monkeypatch, capsys, "status", "--index", index, "--skipped")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 8 and lines[0].startswith("b.exe: unsupported kind: scent does not index .exe files")
    assert lines[4].startswith("gone.md: broken link: its target")  # the cause said once
    code, out, _ = _scent(monkeypatch, capsys, "status", "--index", index, "--skipped", "--json")
    st = json.loads(out)
    assert st["not_indexed"] == EXPECTED and len(st["skipped"]["files"]) == 8
