"""Day One journals (scent.extract.dayone) as Day One's JSON export writes them: Markdown with its
escapes and photo links, tags, places. Dates by hand: 2023-01-05T09:15:00Z is 1672910100 s."""
from __future__ import annotations

import json

from conftest import FakeEmbedder
from scent import Filters, Index
from scent.extract import Limits, extract

JOURNAL = {"metadata": {"version": "1.0"}, "entries": [
    {"uuid": "A1", "creationDate": "2023-01-05T09:15:00Z", "timeZone": "Europe/Lisbon", "starred": False,
     "text": "# Coffee by the river\n\nThe tram to Belém was full\\. ![](dayone-moment://F00D)\nPastéis still warm\\!",
     "tags": ["travel", "lisbon"],
     "location": {"placeName": "Café A Brasileira", "localityName": "Lisboa", "country": "Portugal",
                  "latitude": 38.71, "longitude": -9.14}},
    {"uuid": "B2", "creationDate": "2024-03-02T20:00:00Z", "text": "Quiet day. Repotted the basil."},
    {"uuid": "C3", "creationDate": "2024-03-03T20:00:00Z", "text": "", "photos": [{"md5": "abc"}]}]}


def test_each_entry_is_a_section_dated_when_written(tmp_path):
    path = tmp_path / "Journal.json"
    path.write_text(json.dumps(JOURNAL))
    got = extract(str(path), Limits())
    assert (got.kind, got.title) == ("text", "Journal")
    assert [(s.title, s.date, s.text) for s in got.sections] == [
        ("Coffee by the river", 1672910100.0, "# Coffee by the river\n\nThe tram to Belém was full. \nPastéis still "
                                              "warm!\nTags: travel, lisbon\nWritten at Café A Brasileira, Lisboa, "
                                              "Portugal"),
        ("Quiet day. Repotted the basil.", 1709409600.0, "Quiet day. Repotted the basil.")]  # the empty one left out


def test_an_entry_is_found_by_its_own_date(tmp_path):
    (tmp_path / "j").mkdir()
    (tmp_path / "j" / "Journal.json").write_text(json.dumps(JOURNAL))
    with Index(tmp_path / "j", index_dir=tmp_path / "ix", embedder=FakeEmbedder()) as idx:
        idx.update()
        hits = idx.search("basil tram", strategy="keyword", match="or", filters=Filters.build((), None, "2024", None, None))
        assert [(r.path, r.snippet) for r in hits] == [("Journal.json", "Quiet day. Repotted the basil.")]
