"""Outlines (scent.extract.opml): an outliner's export with notes, and a podcast app's list of
subscriptions, laid out as OmniOutliner and Pocket Casts write them."""
from __future__ import annotations

from scent.extract import Limits, extract, file_kind
from test_formats import reason_of

OUTLINE = """<?xml version="1.0" encoding="utf-8"?>
<opml version="2.0">
  <head><title>Harbour project</title></head>
  <body>
    <outline text="Budget">
      <outline text="Dredging the east quay" _note="quote from Okafor Marine, 42,000 EUR">
        <outline text="ask about May start"/>
      </outline>
    </outline>
    <outline text="Podcasts">
      <outline type="rss" text="Ports Weekly" xmlUrl="https://example.org/ports.xml" htmlUrl="https://example.org"/>
    </outline>
  </body>
</opml>"""


def test_an_outline_is_its_items_indented_with_notes_and_feeds(tmp_path):
    path = tmp_path / "harbour.opml"
    path.write_text(OUTLINE)
    got = extract(str(path), Limits())
    assert file_kind(str(path)) == got.kind == "text"
    assert got.title == "Harbour project"
    assert [(s.title, s.text) for s in got.sections] == [
        ("Budget", "Budget\n  Dredging the east quay\n    quote from Okafor Marine, 42,000 EUR\n    ask about May start"),
        ("Podcasts", "Podcasts\n  Ports Weekly (feed: https://example.org/ports.xml)")]


def test_a_deep_outline_is_read_with_its_indent_bounded_and_a_hostile_one_is_one_line(tmp_path):
    path = tmp_path / "deep.opml"
    path.write_text("<opml><body>" + "<outline text='x'>" * 200 + "</outline>" * 200 + "</body></opml>")
    got = extract(str(path), Limits())
    assert got.sections[0].text.count("x") == 200
    assert max(len(line) for line in got.sections[0].text.split("\n")) == 2 * 64 + 1
    path.write_text("<opml><body>" + "<outline text='x'>" * 3000 + "</outline>" * 3000 + "</body></opml>")
    assert "Excessive depth" in reason_of(path)  # lxml's own bound (256), one line


def test_not_an_outline_says_so(tmp_path):
    path = tmp_path / "feeds.opml"
    path.write_text("<rss><channel/></rss>")
    assert "not an <opml>" in reason_of(path)
    path.write_text("<opml><body>")
    assert "does not parse" in reason_of(path)
