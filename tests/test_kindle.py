"""Kindle e-books (scent.extract.kindle), on tests/data/almanac.mobi (Mobipocket 6) and
almanac.azw3 (KF8), both made by calibre 6.13's ebook-convert from one HTML page: two <h1>
chapters of two paragraphs, title "The Keeper's Almanac", author "Ada Quill"; calibre added a
table of contents at the end. The expectations are that page's words."""
from __future__ import annotations

import shutil
import struct
from pathlib import Path

import pytest

from test_formats import reason_of
from scent import Index
from scent.extract import Limits, extract, file_kind
from scent.extract.kindle import _palmdoc, _trailing

from conftest import FakeEmbedder

DATA = Path(__file__).parent / "data"
FOG = ("Chapter One: Fog\nFog lay on the north reef for three days; the keeper wound the lamp by hand every four hours.\n"
       "The relief boat from Peterhead could not land, and the coal ran low.")
TIDES = ("Chapter Two: Tides\nHigh water at the harbour mouth came at 06:12; the almanac gives the spring tides for "
         "March.\nÆrøskøbing's pilot, Søren, sent a telegram about the buoy.")
CONTENTS = "Table of Contents\nChapter One: Fog\nChapter Two: Tides"


def test_a_mobipocket_book_is_its_chapters_title_and_author():
    got = extract(str(DATA / "almanac.mobi"), Limits())
    assert file_kind("almanac.mobi") == file_kind("x.azw") == got.kind == "epub"
    assert got.title == "The Keeper's Almanac"
    # Mobipocket 6 keeps no headings (calibre draws them as big bold type): its page breaks part the
    # chapters, each titled by its first line.
    assert [(s.kind, s.title, s.text) for s in got.sections] == [
        ("epub", "The Keeper's Almanac", "author: Ada Quill"), ("epub", "Chapter One: Fog", FOG),
        ("epub", "Chapter Two: Tides", TIDES), ("epub", "Table of Contents", CONTENTS)]


def test_a_kf8_book_is_cut_at_its_headings_without_its_style_sheet():
    got = extract(str(DATA / "almanac.azw3"), Limits())
    assert [(s.title, s.text) for s in got.sections] == [
        ("The Keeper's Almanac", "author: Ada Quill"), ("Chapter One: Fog", FOG), ("Chapter Two: Tides", TIDES),
        ("Table of Contents", CONTENTS)]


def test_a_kindle_book_is_found_by_its_words(tmp_path):
    shutil.copy(DATA / "almanac.azw3", tmp_path / "almanac.azw3")
    idx = Index(tmp_path, embedder=FakeEmbedder())
    idx.update()
    top = idx.search("Peterhead relief boat", strategy="keyword")[0]
    assert (top.path, top.title) == ("almanac.azw3", "Chapter One: Fog")


def _patched(tmp_path, at: int, value: int) -> Path:
    """almanac.mobi with the 2-byte field `at` bytes into its first record set to `value`."""
    data = bytearray((DATA / "almanac.mobi").read_bytes())
    start = struct.unpack_from(">I", data, 78)[0]
    struct.pack_into(">H", data, start + at, value)
    (tmp_path / "patched.mobi").write_bytes(bytes(data))
    return tmp_path / "patched.mobi"


def test_what_cannot_be_read_is_one_line(tmp_path):
    assert reason_of(_patched(tmp_path, 12, 2)).startswith(
        "not a readable Kindle e-book (it is DRM-protected (encrypted)); scent reads Kindle books without DRM")
    assert reason_of(_patched(tmp_path, 0, 17480)).startswith(
        "not a readable Kindle e-book (its text uses Amazon's HUFF/CDIC compression, which scent does not read)")
    (tmp_path / "note.mobi").write_text("not a book, a note saved as .mobi")
    assert reason_of(tmp_path / "note.mobi").startswith(
        "not a readable Kindle e-book (not a Mobipocket book: no BOOKMOBI Palm database header)")
    (tmp_path / "cut.azw3").write_bytes((DATA / "almanac.azw3").read_bytes()[:2000])
    assert reason_of(tmp_path / "cut.azw3").startswith(
        "not a readable Kindle e-book (its record list points outside the file (cut short?))")


def test_palmdoc_decompression_by_hand():
    # "abc", then 3 bytes from 3 back (0x8018: distance 3, length 0 + 3), then a space and "a" (0xE1),
    # then a run of 2 literal bytes (0x02) that would otherwise be codes.
    assert _palmdoc(b"abc\x80\x18\xe1\x02\x00\x01") == b"abcabc a\x00\x01"
    with pytest.raises(IndexError):
        _palmdoc(b"a\x80\x20")  # 4 back from 1 byte written
    with pytest.raises(IndexError):
        _palmdoc(b"abc" + b"\x80\x1f" * 20_000)  # 10 bytes from each 2: a record inflating to 200 KB


def test_trailing_entries_are_cut_off_a_text_record():
    # One trailing entry (flag bit 1) of size 1 (0x81: the last byte, its own size), then the
    # multibyte flag (bit 0): the byte before says (0 & 3) + 1 = 1 more.
    assert _trailing(b"TEXT\x81", 0b10) == 1
    assert _trailing(b"TEXT\x00\x81", 0b11) == 2
    assert _trailing(b"TEXT", 0) == 0
