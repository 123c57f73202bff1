"""Kindle's My Clippings.txt: an entry a section, titled by its book (scent.extract.clippings)."""
from datetime import datetime, timezone

from scent import Index
from scent.extract import extract, reader_of

from conftest import FakeEmbedder

CLIPPINGS = ("\ufeffThe Salt Path (Raynor Winn)\r\n"
             "- Your Highlight on page 12 | Location 180-182 | Added on Monday, 3 March 2025 10:21:33\r\n\r\n"
             "We walked because there was nowhere else to go.\r\n==========\r\n"
             "Thinking in Systems (Donella Meadows)\r\n"
             "- Your Bookmark on page 40 | Location 600 | Added on Tuesday, 4 March 2025 08:00:00\r\n\r\n\r\n"
             "==========\r\n"
             "Thinking in Systems (Donella Meadows)\r\n"
             "- Your Note on page 41 | Location 612 | Added on Tuesday, 4 March 2025 08:01:00\r\n\r\n"
             "Stocks and flows: the bathtub again\r\n==========\r\n")


def test_each_highlight_and_note_is_a_section_of_its_book_dated_when_added(tmp_path):
    path = tmp_path / "My Clippings.txt"
    path.write_bytes(CLIPPINGS.encode("utf-8"))
    got = extract(str(path))
    assert reader_of(str(path)).startswith("clippings ") and reader_of(str(tmp_path / "clippings.txt")).startswith("text ")
    assert [(s.title, s.text, s.date) for s in got.sections] == [  # the bookmark holds no text: left out
        ("The Salt Path (Raynor Winn)", "We walked because there was nowhere else to go.",
         datetime(2025, 3, 3, 10, 21, 33, tzinfo=timezone.utc).timestamp()),
        ("Thinking in Systems (Donella Meadows)", "note: Stocks and flows: the bathtub again",
         datetime(2025, 3, 4, 8, 1, tzinfo=timezone.utc).timestamp())]


def test_a_highlight_is_found_as_its_book(tmp_path):
    folder = tmp_path / "kindle"
    folder.mkdir()
    (folder / "My Clippings.txt").write_bytes(CLIPPINGS.encode("utf-8"))
    with Index(folder, index_dir=tmp_path / "idx", embedder=FakeEmbedder()) as idx:
        idx.update()
        found = idx.search("bathtub stocks flows", k=1)[0]
    assert (found.title, found.snippet) == ("Thinking in Systems (Donella Meadows)", "note: Stocks and flows: the bathtub again")
