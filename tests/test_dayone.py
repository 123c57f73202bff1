"""Day One journals (scent.extract.dayone) as Day One's JSON export writes them: Markdown with its
escapes and photo links, tags, places. Dates by hand: 2023-01-05T09:15:00Z is 1672910100 s."""
from __future__ import annotations

import json
import zipfile

import pytest

from conftest import FakeEmbedder
from scent import Filters, Index
from scent.errors import ExtractError
from scent.extract import Limits, extract, holds_files
from scent.extract.members import read_member

JOURNAL = {"metadata": {"version": "1.0"}, "entries": [
    {"uuid": "A1", "creationDate": "2023-01-05T09:15:00Z", "timeZone": "Europe/Lisbon", "starred": False,
     "text": "# Coffee by the river\n\nThe tram to Belém was full\\. ![](dayone-moment://F00D)\nPastéis still warm\\!",
     "tags": ["travel", "lisbon"],
     "location": {"placeName": "Café A Brasileira", "localityName": "Lisboa", "country": "Portugal",
                  "latitude": 38.71, "longitude": -9.14}},
    {"uuid": "B2", "creationDate": "2024-03-02T20:00:00Z", "text": "Quiet day. Repotted the basil."},
    {"uuid": "C3", "creationDate": "2024-03-03T20:00:00Z", "text": "", "photos": [{"md5": "abc"}]}]}


def entries(got):
    """(name, title, date, text) of each entry a journal's reading gave."""
    return [(m.name, m.got.title, m.got.date, m.got.sections[0].text) for m in got.members]


COFFEE = ("1.md", "Coffee by the river", 1672910100.0,
          "# Coffee by the river\n\nThe tram to Belém was full. \nPastéis still warm!\nTags: travel, lisbon\n"
          "Written at Café A Brasileira, Lisboa, Portugal")
BASIL = ("2.md", "Quiet day. Repotted the basil.", 1709409600.0, "Quiet day. Repotted the basil.")


def test_each_entry_is_a_file_dated_when_written(tmp_path):
    path = tmp_path / "Journal.json"
    path.write_text(json.dumps(JOURNAL))
    got = extract(str(path), Limits())
    assert (got.kind, got.title) == ("text", "Journal") and holds_files(str(path))
    assert [s.text for s in got.sections] == ["Journal.json: Day One journal of 3 entries, written 2023-01-05 to "
                                              "2024-03-03"]
    assert entries(got) == [COFFEE, BASIL]  # the third, a photo alone, has no text: its photo is a file of the export
    assert read_member(str(path), "2.md") == b"Quiet day. Repotted the basil.\n"
    with pytest.raises(ExtractError, match="holds no entry 3.md"):
        read_member(str(path), "3.md")


def test_a_journal_inside_a_zip_is_one_file_of_dated_entries(tmp_path):
    """Day One's export is a zip; files inside files are read one level deep, so the journal in it
    keeps its entries as sections, each with its own date."""
    with zipfile.ZipFile(tmp_path / "Export - Journal.zip", "w") as z:
        z.writestr("Journal.json", json.dumps(JOURNAL))
    [member] = extract(str(tmp_path / "Export - Journal.zip"), Limits()).members
    assert (member.name, member.got.title) == ("Journal.json", "Journal") and member.got.members == []
    assert [(s.title, s.date, s.text) for s in member.got.sections] == [COFFEE[1:], BASIL[1:]]


def test_other_json_holds_no_files(tmp_path):
    path = tmp_path / "package.json"
    path.write_text('{"name": "garden-planner", "entries": [{"creationDate": "2024"}]}')
    assert extract(str(path), Limits()).members == []
    with pytest.raises(ExtractError, match="holds no entry 1.md"):
        read_member(str(path), "1.md")


def test_an_entry_is_found_by_its_own_date_and_only_changed_entries_are_read_again(tmp_path):
    (tmp_path / "j").mkdir()
    journal = tmp_path / "j" / "Journal.json"
    journal.write_text(json.dumps(JOURNAL))
    with Index(tmp_path / "j", index_dir=tmp_path / "ix", embedder=FakeEmbedder()) as idx:
        assert idx.update().added == 3  # the journal and its two entries with text
        hits = idx.search("basil tram", strategy="keyword", match="or", filters=Filters.build((), None, "2024", None, None))
        assert [(r.path, r.snippet) for r in hits] == [("Journal.json#2.md", "Quiet day. Repotted the basil.")]
        changed = json.loads(json.dumps(JOURNAL))
        changed["entries"][1]["text"] = "Quiet day. Repotted the basil and the mint."
        changed["entries"].append({"uuid": "D4", "creationDate": "2024-04-01T10:00:00Z", "text": "Ferry, sardines."})
        journal.write_text(json.dumps(changed))
        report = idx.update()
        # the journal's line and the edited entry are read again, the new one added; the first is not read
        assert (report.added, report.updated) == (1, 2) and report.embedded == 3
        assert sorted(r.path for r in idx.search("mint sardines tram", strategy="keyword", match="or")) == [
            "Journal.json#1.md", "Journal.json#2.md", "Journal.json#4.md"]
        changed["entries"] = changed["entries"][:1]
        journal.write_text(json.dumps(changed))
        assert idx.update().deleted == 2
        assert idx.status()["files"] == 2
