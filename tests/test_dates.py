"""Dates people mean: written in the file, else in its name, else the modification time."""
from __future__ import annotations

import datetime as dt
import os

import pytest

from scent import Filters, Index
from scent.dates import file_date, from_front_matter, from_name


def noon(y, m, d):
    return dt.datetime(y, m, d, 12, tzinfo=dt.timezone.utc).timestamp()


def test_a_date_in_the_name():
    assert from_name("notes/2025-03-12-standup.md") == noon(2025, 3, 12)
    assert from_name("Screenshot_20250214-100355.png") == noon(2025, 2, 14)
    assert from_name("trip_2024_07_01.txt") == noon(2024, 7, 1)
    assert from_name("2019/report-2021-11-30.pdf") == noon(2021, 11, 30)  # the file's, not the folder's
    assert from_name("serial-1202503121.txt") is None  # digits run on: not a date
    assert from_name("2025-02-30.md") is None  # no such day
    assert from_name("2025-0312.md") is None  # mixed separators
    assert from_name("cloudnest-2025-04.pdf") is None  # a month is not a day
    assert from_name("IMG_3902.jpg") is None


def test_a_date_in_the_front_matter():
    assert from_front_matter("---\ntitle: Standup\ndate: 2024-05-01\n---\n# Standup\n") == noon(2024, 5, 1)
    assert from_front_matter("---\ncreated: '2023-01-09T10:00'\n---\n") == noon(2023, 1, 9)
    assert from_front_matter("# Standup\n\ndate: 2024-05-01\n") is None  # not front matter
    assert from_front_matter("---\ntitle: x\n---\ndate: 2024-05-01\n") is None  # after it


def test_written_before_named_before_modified():
    assert file_date(5.0, "2025-03-12.md", 9.0) == 5.0
    assert file_date(None, "2025-03-12.md", 9.0) == noon(2025, 3, 12)
    assert file_date(None, "notes.md", 9.0) == 9.0


def test_a_copied_folder_keeps_the_dates_its_notes_mean(tmp_path, fake_embedder):
    root = tmp_path / "notes"
    root.mkdir()
    (root / "2025-03-12-standup.md").write_text("Standup meeting: the release slips a week.\n")
    (root / "planning.md").write_text("---\ndate: 2025-07-02\n---\nPlanning meeting for the autumn.\n")
    (root / "loose.md").write_text("A meeting about the garden.\n")
    copied = noon(2026, 12, 1)
    for p in root.iterdir():
        os.utime(p, (copied, copied))  # what a copy leaves: every file "today"
    idx = Index(root, embedder=fake_embedder)
    idx.update()
    after = Filters.build(after="2025-06-01")
    assert sorted(r.path for r in idx.search("meeting", filters=after, strategy="keyword")) == ["loose.md",
                                                                                               "planning.md"]
    before = Filters.build(before="2025-06-01")
    assert [r.path for r in idx.search("meeting", filters=before, strategy="keyword")] == ["2025-03-12-standup.md"]


def test_pdf_creation_dates():
    from scent.dates import from_pdf
    utc = dt.timezone.utc
    assert from_pdf("D:20240312093000Z") == dt.datetime(2024, 3, 12, 9, 30, tzinfo=utc).timestamp()
    assert from_pdf("D:20240312093000+01'00'") == dt.datetime(2024, 3, 12, 8, 30, tzinfo=utc).timestamp()
    assert from_pdf("D:20240312093000-05'30") == dt.datetime(2024, 3, 12, 15, 0, tzinfo=utc).timestamp()
    assert from_pdf("D:2024") == dt.datetime(2024, 1, 1, tzinfo=utc).timestamp()
    assert from_pdf("20240312") == dt.datetime(2024, 3, 12, tzinfo=utc).timestamp()
    for bad in ("", None, "D:20241312", "D:18991230", "yesterday"):
        assert from_pdf(bad) is None, bad


def test_a_pdf_and_a_word_file_are_dated_by_their_creation_date(tmp_path):
    import docx
    from fpdf import FPDF

    from scent.extract import Limits, extract

    pdf = FPDF()
    pdf.set_creation_date(dt.datetime(2023, 6, 5, 14, 0, tzinfo=dt.timezone.utc))
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    pdf.cell(text="Minutes of the June meeting")
    pdf.output(str(tmp_path / "minutes.pdf"))
    document = docx.Document()
    document.add_paragraph("Draft budget")
    document.core_properties.created = dt.datetime(2022, 1, 20, 8, 0)  # no zone: Word's are UTC
    document.save(str(tmp_path / "budget.docx"))
    untouched = docx.Document()
    untouched.add_paragraph("Made from the template, never dated")
    untouched.save(str(tmp_path / "template.docx"))

    assert extract(str(tmp_path / "minutes.pdf"), Limits()).date == dt.datetime(
        2023, 6, 5, 14, tzinfo=dt.timezone.utc).timestamp()
    assert extract(str(tmp_path / "budget.docx"), Limits()).date == dt.datetime(
        2022, 1, 20, 8, tzinfo=dt.timezone.utc).timestamp()
    assert extract(str(tmp_path / "template.docx"), Limits()).date is None  # python-docx's 2013 stamp


def test_the_days_a_question_names():
    from scent.dates import named_days

    today = dt.date(2026, 12, 7)

    def days(text):
        return [(a.isoformat(), b.isoformat()) for a, b in named_days(text, today)]

    # A day without its year: its last three times up to today.
    assert days("what did I do on 19 March") == [("2026-03-19", "2026-03-20"), ("2025-03-19", "2025-03-20"),
                                                 ("2024-03-19", "2024-03-20")]
    assert days("flight on Dec 24th") == [("2025-12-24", "2025-12-25"), ("2024-12-24", "2024-12-25"),
                                          ("2023-12-24", "2023-12-25")]
    assert days("the 3rd of May 2025") == [("2025-05-03", "2025-05-04")]
    assert days("notes from March 19th, 2025") == [("2025-03-19", "2025-03-20")]
    assert days("standup 2025-03-19") == [("2025-03-19", "2025-03-20")]
    assert days("what happened yesterday") == [("2026-12-06", "2026-12-07")]
    assert days("19 March 20 April") == [("2026-04-20", "2026-04-21"), ("2026-03-19", "2026-03-20"),
                                         ("2025-04-20", "2025-04-21"), ("2025-03-19", "2025-03-20"),
                                         ("2024-04-20", "2024-04-21"), ("2024-03-19", "2024-03-20")]
    assert days("19 march 2025 or 20 march 2025") == [("2025-03-20", "2025-03-21"), ("2025-03-19", "2025-03-20")]
    # No day: a month (with its year or not), a year, "may" as a word, a version number, a day that does not exist, today.
    for text in ("the March meeting", "rent from Sept. 2025", "taxes 2024", "may I ask", "release 1.19 march", "30 February",
                 "the rate today", "2025-02-30", "ticket LD-2026-03-19"):
        assert days(text) == [], text


def test_a_day_named_in_the_question_brings_its_files_forward(tmp_path, fake_embedder):
    root = tmp_path / "journal"
    root.mkdir()
    # Daily notes named by their day, none saying the date in its words; one other note says "March".
    (root / "2025-03-18.md").write_text("Worked on the garden shed roof, then groceries.\n")
    (root / "2025-03-19.md").write_text("Dentist at nine, then wrote the grant report until late.\n")
    (root / "2025-03-20.md").write_text("Quiet day: read a novel, walked the dog.\n")
    (root / "march-plans.md").write_text("Plans for March: what to do about the garden and the report.\n")
    idx = Index(root, embedder=fake_embedder)
    idx.update()
    asked = "what did I do on 19 March 2025"
    assert idx.search(asked, strategy="keyword")[0].path == "2025-03-19.md"
    assert idx.search(asked, strategy="keyword", weight_dated=0)[0].path == "march-plans.md"  # without the list
    lists = idx.search_with_lists(asked, strategy="keyword")[1]
    assert lists["dated"] == ["2025-03-19.md"]
    # A filter holds in it too: a day outside the filter's dates brings nothing forward.
    later = Filters.build(after="2025-04-01")
    assert idx.search_with_lists(asked, filters=later, strategy="keyword")[1]["dated"] == []


def test_a_days_words_are_held_by_its_files_date():
    # How the confidence weighs a file of the day a question names: its date says the day's words.
    from scent.confidence import coverage
    from scent.dates import day_words
    from scent.query import parse

    assert day_words(dt.date(2025, 3, 7)) == "7 7th March Mar 2025 2025-03-07"
    assert day_words(dt.date(2025, 3, 22)) == "22 22nd March Mar 2025 2025-03-22"
    assert day_words(dt.date(2025, 12, 11)) == "11 11th December Dec 2025 2025-12-11"
    asked = parse("notes from the 7th of March")  # topic terms: notes, 7th, march
    assert coverage(asked, "Dentist at nine.") == 0.0
    assert coverage(asked, "Dentist at nine.\n" + day_words(dt.date(2025, 3, 7))) == 2 / 3


def test_a_date_no_calendar_holds_has_no_iso_text():
    from scent.dates import iso

    assert iso(None) is None and iso(0.0).startswith("1970-01-01")
    assert iso(253402300799.0 + 86400 * 2) is None  # after 9999-12-31 in every zone
    assert iso(-1e11) is None  # a tar member's year -1199


def test_a_file_dated_after_2262_is_indexed(tmp_path, fake_embedder):
    # Its mtime in nanoseconds is over SQLite's 64 bits: the run ended with an OverflowError, every time.
    root = tmp_path / "notes"
    root.mkdir()
    (root / "far.md").write_text("A note from a camera with a broken clock.\n")
    (root / "near.md").write_text("A note about wombats.\n")
    far = 13_569_465_600  # 2400-01-01
    try:
        os.utime(root / "far.md", ns=(far * 10**9, far * 10**9))
    except (OSError, OverflowError):
        pytest.skip("this file system does not keep a date in 2400")
    idx = Index(root, embedder=fake_embedder)
    report = idx.update()
    assert report.skipped == [] and idx.status()["files"] == 2
    assert idx.update().unchanged == 2  # the kept time is the one the next walk sees
