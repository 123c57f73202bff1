"""Google Keep notes as Takeout exports them (scent.extract.keep): each note a .json and an .html
beside it. The JSON is read as the note, the page shown as a part of it. Dates by hand:
1672910100000000 us is 2023-01-05 09:15 UTC; 1580515200000000 us is 2020-02-01 00:00 UTC."""
from __future__ import annotations

import json

import pytest

from conftest import FakeEmbedder
from scent import Filters, Index
from scent.extract import Limits, extract

SHOPPING = {"color": "DEFAULT", "isTrashed": False, "isPinned": True, "isArchived": False,
            "title": "Shopping", "userEditedTimestampUsec": 1672999999000000, "createdTimestampUsec": 1672910100000000,
            "listContent": [{"text": "oat milk", "isChecked": True}, {"text": " rye  bread ", "isChecked": False}],
            "labels": [{"name": "Errands"}, {"name": "Home"}],
            "annotations": [{"description": "", "source": "WEBLINK", "title": "Bakery opening hours",
                             "url": "https://example.org/bakery"}],
            "attachments": [{"filePath": "1f0c7a2b.jpg", "mimetype": "image/jpeg"}]}
IDEA = {"isTrashed": True, "isArchived": False, "title": "", "createdTimestampUsec": 1580515200000000,
        "userEditedTimestampUsec": 1580515200000000, "textContent": "Paint the shed sage green\nbefore May"}
PAGE = ('<html><head><title>Shopping</title></head><body><div class="note DEFAULT"><div class="heading">'
        'Jan 5, 2023, 9:15:00 AM</div><div class="title">Shopping</div><div class="content"><ul class="list">'
        '<li class="listitem checked">oat milk</li><li class="listitem">rye bread</li></ul></div></div></body></html>')


@pytest.fixture
def takeout(tmp_path):
    keep = tmp_path / "Takeout" / "Keep"
    keep.mkdir(parents=True)
    (keep / "Shopping.json").write_text(json.dumps(SHOPPING))
    (keep / "Shopping.html").write_text(PAGE)
    (keep / "2020-02-01T00_00_00.000+00_00.json").write_text(json.dumps(IDEA))
    return tmp_path / "Takeout"


def test_a_keep_note_is_its_title_list_labels_links_and_attachments(takeout):
    got = extract(str(takeout / "Keep" / "Shopping.json"), Limits())
    assert (got.kind, got.title, got.date) == ("text", "Shopping", 1672910100.0)  # made, not edited or exported
    assert [s.text for s in got.sections] == [
        "[x] oat milk\n[ ] rye bread\nLabels: Errands, Home\nLink: Bakery opening hours https://example.org/bakery\n"
        "Attached: 1f0c7a2b.jpg"]


def test_an_untitled_note_is_titled_by_its_first_line_and_says_it_is_in_the_trash(takeout):
    got = extract(str(takeout / "Keep" / "2020-02-01T00_00_00.000+00_00.json"), Limits())
    assert (got.title, got.date) == ("Paint the shed sage green", 1580515200.0)
    assert got.sections[0].text == "Paint the shed sage green\nbefore May\nin Keep's trash"


def test_other_json_is_still_flattened(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text('{"title": "x", "createdTimestampUsec": "not a number"}')
    assert extract(str(path), Limits()).kind == "json"


def test_the_page_is_a_part_of_its_note_one_result_dated_by_the_note(takeout):
    with Index(takeout, index_dir=takeout.parent / "ix", embedder=FakeEmbedder()) as idx:
        idx.update()
        page = extract(str(takeout / "Keep" / "Shopping.html"), Limits(root=str(takeout)))
        assert (page.part_of, page.date) == ("Keep/Shopping.json", 1672910100.0)
        hits = idx.search("oat milk rye bread", strategy="keyword")
        assert [r.path for r in hits] == ["Keep/Shopping.json"]  # its page is not a second result
        assert hits[0].to_dict()["copies"] == ["Keep/Shopping.html"]
        before = idx.search("shed sage", strategy="keyword", filters=Filters.build((), None, None, "2020-12", None))
        assert [r.path for r in before] == ["Keep/2020-02-01T00_00_00.000+00_00.json"]


def test_the_page_is_read_again_when_its_json_changes_or_goes(takeout):
    """The JSON's size, time and bytes count as its page's: the page follows it (a new date, or, the
    JSON deleted, a page of its own again, found by its words)."""
    page, note = takeout / "Keep" / "Shopping.html", takeout / "Keep" / "Shopping.json"
    with Index(takeout, index_dir=takeout.parent / "ix", embedder=FakeEmbedder()) as idx:
        idx.update()
        assert idx.search("rye bread", strategy="keyword")[0].copies == ("Keep/Shopping.html",)
        note.unlink()
        report = idx.update()
        assert (report.updated, report.deleted) == (1, 1)  # the page read again; the note gone
        hit = idx.search("rye bread", strategy="keyword")[0]
        assert (hit.path, hit.copies) == ("Keep/Shopping.html", ())
