"""What the CLI prints of users' files (names, snippets, reasons) never acts on the terminal:
every control character shows as an escape; --json stays exact."""
import json
import sys

import pytest

from scent import Index
from scent.terminal import json_line, visible

from conftest import FakeEmbedder

EVIL_NAME = "evil\x1b[31m\x9b2J.txt"      # CSI colour, then a C1 CSI clearing the screen
EVIL_TEXT = "walrus \x1b]52;c;cHduZWQ=\x07 tusks \x1b[2J\n"  # OSC 52 sets the clipboard
BROKEN = "bad\x1b[5m\u202e.pdf"            # blink, then a right-to-left override


def test_visible_writes_controls_out():
    assert visible("a\x1b[2Jb\x07\x9b\x7f\tc\u202ed") == "a\\x1b[2Jb\\x07\\x9b\\x7f\\x09c\\u202ed"
    assert visible("naïve 東京 हिन्दी क्‍ष 👨‍👩‍👧") == "naïve 東京 हिन्दी क्‍ष 👨‍👩‍👧"  # ZWJ kept


def test_json_line_is_exact_and_has_no_raw_control():
    obj = {"path": "a\x1b[31m\x9b\u202e.txt", "t": "東京"}
    line = json_line(obj)
    assert line == '{"path": "a\\u001b[31m\\u009b\\u202e.txt", "t": "東京"}'
    assert json.loads(line) == obj


@pytest.fixture
def evil(tmp_path, monkeypatch):
    folder = tmp_path / "f"
    folder.mkdir()
    (folder / EVIL_NAME).write_text(EVIL_TEXT)
    (folder / BROKEN).write_bytes(b"%PDF-1.4 cut short")
    monkeypatch.setattr("scent.index.E5Embedder", FakeEmbedder)  # the CLI in process, on a fake-built index
    monkeypatch.setattr("scent.embed.E5Embedder", FakeEmbedder)  # what `scent search` starts loading first
    with Index(folder, index_dir=tmp_path / "idx") as idx:
        idx.update()
    return tmp_path / "idx"


def _scent(monkeypatch, capsys, *args):
    from scent.cli import main
    monkeypatch.setattr(sys, "argv", ["scent", *args])
    try:
        main()
        code = 0
    except SystemExit as exit:
        code = exit.code
    out, err = capsys.readouterr()
    return code, out, err


def _no_raw_controls(text):
    assert not [c for c in text if c != "\n" and (ord(c) < 0x20 or 0x7f <= ord(c) < 0xa0 or c == "\u202e")], text


def test_search_output_shows_escapes(evil, monkeypatch, capsys):
    code, out, err = _scent(monkeypatch, capsys, "search", "walrus", "tusks", "--index", str(evil), "--explain")
    assert code == 0
    _no_raw_controls(out + err)
    assert "evil\\x1b[31m\\x9b2J.txt" in out
    assert "\\x1b]52;c;cHduZWQ=\\x07 tusks \\x1b[2J" in out


def test_search_json_is_exact(evil, monkeypatch, capsys):
    code, out, _ = _scent(monkeypatch, capsys, "search", "walrus", "--index", str(evil), "--json")
    assert code == 0
    _no_raw_controls(out)
    assert json.loads(out.splitlines()[0])["path"] == EVIL_NAME


def test_status_output_shows_escapes(evil, monkeypatch, capsys):
    code, out, _ = _scent(monkeypatch, capsys, "status", "--index", str(evil))
    assert code == 0
    _no_raw_controls(out)
    assert "skipped: bad\\x1b[5m\\u202e.pdf: unreadable PDF" in out


def test_index_messages_and_errors_show_escapes(evil, tmp_path, monkeypatch, capsys):
    code, out, err = _scent(monkeypatch, capsys, "index", str(tmp_path / "f"), "--index", str(evil), "--rebuild", "-q")
    assert code == 0
    _no_raw_controls(out + err)
    assert "scent: skipped bad\\x1b[5m\\u202e.pdf: unreadable PDF" in err
    code, out, err = _scent(monkeypatch, capsys, "status", "--index", str(tmp_path / "no\x1b[2Jindex"))
    assert code == 1
    _no_raw_controls(err)
    assert err.startswith("scent: error: no index in ") and "no\\x1b[2Jindex" in err
