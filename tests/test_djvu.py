"""DjVu books (scent.extract.djvu), on tests/data/lighthouse.djvu: two A4 pages at 150 dpi made
with DjVuLibre 3.5.28 (cjb2 from two bilevel pictures of text, drawn in DejaVu Sans), then djvused:
page 1 given a hidden text layer of three lines, page 2 none (a scan without OCR); metadata
title "Lighthouse Records", author "Ada Quill", year 1888; an outline "Chapter One" -> page 1,
"Tide table" -> page 2."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from test_formats import reason_of
from scent import Index, ocr
from scent.extract import Limits, extract, file_kind

from conftest import FakeEmbedder

pytest.importorskip("djvu_rs")
BOOK = Path(__file__).parent / "data" / "lighthouse.djvu"
PAGE_1 = ("Chapter One\nThe lighthouse keeper's logbook, 1887: fog on the north reef for three days,\n"
          "the lamp kept burning through the night by hand.\nAda Quill, 1888")


def test_a_djvu_book_is_its_pages_text_layer_outline_and_metadata():
    got = extract(str(BOOK), Limits())
    assert file_kind(str(BOOK)) == got.kind == "pdf"
    assert got.title == "Lighthouse Records"
    # Page 1's outline title is in its text already; page 2 has only its outline title.
    assert [(s.kind, s.page, s.text) for s in got.sections] == [("pdf_page", 1, PAGE_1), ("pdf_page", 2, "Tide table")]
    assert got.meta == {"page_count": 2, "truncated": False}


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract is not installed (scripts/setup.sh installs it)")
def test_a_scanned_djvu_page_without_text_is_read_by_ocr():
    got = extract(str(BOOK), Limits(ocr=ocr.engine("tesseract")))
    # Page 1's layer is long enough to be its text: it is not read again.
    assert [(s.kind, s.page, s.text) for s in got.sections] == [
        ("pdf_page", 1, PAGE_1), ("pdf_page", 2, "Tide table"),
        ("ocr", 2, "Harbour tide table\nfor March 1888\nhigh water 06:12")]


def test_pages_past_max_pdf_pages_are_not_read():
    got = extract(str(BOOK), Limits(max_pdf_pages=1))
    assert [s.page for s in got.sections] == [1] and got.meta == {"page_count": 2, "truncated": True}


def test_a_djvu_book_is_found_at_its_page_and_has_thumbnails(tmp_path):
    from scent.serve.files import content_type, make_thumbnail

    shutil.copy(BOOK, tmp_path / "lighthouse.djvu")
    idx = Index(tmp_path, embedder=FakeEmbedder())
    idx.update()
    top = idx.search("tide table", strategy="keyword")[0]
    assert (top.path, top.page) == ("lighthouse.djvu", 2)
    assert make_thumbnail(tmp_path / "lighthouse.djvu", "pdf", 2)[:3] == b"\xff\xd8\xff"  # a JPEG
    assert make_thumbnail(BOOK.read_bytes(), "pdf", 1, name="in.zip#lighthouse.djvu")[:3] == b"\xff\xd8\xff"
    assert content_type(tmp_path / "lighthouse.djvu")[0] == "application/octet-stream"  # no browser shows it


@pytest.mark.parametrize("data, says", [
    (b"AT&TFORM\x00\x00\x00\x10DJVM", "claims 16 bytes but only 4 are available"),
    (b"not a djvu at all", "bad magic bytes"),
    (BOOK.read_bytes()[:600], "claims 1236 bytes but only 588 are available"),  # cut short: djvu-rs reads none of it
])
def test_a_damaged_djvu_is_one_line(tmp_path, data, says):
    path = tmp_path / "broken.djvu"
    path.write_bytes(data)
    reason = reason_of(path)
    assert reason.startswith("not a readable DjVu document (DecodeError: ") and says in reason


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract is not installed (scripts/setup.sh installs it)")
def test_a_djvu_page_whose_picture_is_damaged_costs_only_itself(tmp_path):
    data = bytearray(BOOK.read_bytes())
    at = data.find(b"Sjbz", data.find(b"Sjbz") + 4)  # page 2's bilevel picture
    data[at + 8:at + 16] = b"\xff" * 8
    (tmp_path / "bent.djvu").write_bytes(bytes(data))
    got = extract(str(tmp_path / "bent.djvu"), Limits(ocr=ocr.engine("tesseract")))
    assert [(s.page, s.text) for s in got.sections] == [(1, PAGE_1), (2, "")]
    assert got.meta["unreadable_pages"] == [2]
