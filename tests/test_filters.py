import datetime as dt

import pytest

from scent.errors import UsageError
from scent.engines.sqlite.filters import where as sql_where
from scent.filters import Filters


def test_empty_filter_is_true():
    assert sql_where(Filters()) == ("1", [])
    assert Filters.build().empty


def test_kind_aliases_expand_to_unit_kinds():
    condition, params = sql_where(Filters.build(kinds=["image"]))
    assert "f.kind IN (?)" in condition
    assert params == ["image", "docx_image", "epub_image", "image", "notebook_image", "odt_image", "pdf_image",
                      "slide_image"]


def test_path_prefix_and_glob():
    assert sql_where(Filters.build(path="./notes/")) == ("substr(f.path, 1, ?) = ?", [6, "notes/"])
    assert sql_where(Filters.build(path="notes/*.md")) == ("f.path GLOB ?", ["notes/*.md"])


@pytest.mark.parametrize("path, globs", [
    ("**/*.md", ("*.md", "*/*.md")),                  # any folders or none: the top folder's notes too
    ("notes/**/*.md", ("notes/*.md", "notes/*/*.md")),
    ("**/x/**/y", ("x/y", "x/*/y", "*/x/y", "*/x/*/y")),
    ("notes**/x", ("notes**/x",)),                     # two stars inside a name: no folders
    ("[*][*]/x", ("[*][*]/x",)),                       # stars written literally
    ("notes/", ("notes/",))])
def test_two_stars_and_a_slash_are_any_folders_or_none(path, globs):
    assert Filters.build(path=path).globs() == globs


def test_two_stars_and_a_slash_give_one_condition_of_alternatives():
    assert sql_where(Filters.build(path="a/**/*.md")) == ("(f.path GLOB ? OR f.path GLOB ?)", ["a/*.md", "a/*/*.md"])


def test_dates_include_both_days():
    f = Filters.build(after="2025-07-01", before="2025-07-31")
    assert f.after == dt.datetime(2025, 7, 1).timestamp()
    assert f.before == dt.datetime(2025, 8, 1).timestamp()


@pytest.mark.parametrize("kwargs", [
    {"kinds": ["pictures"]}, {"after": "last fortnight"}, {"before": "2024-13"}, {"after": "2025-02-01", "before": "2025-01-01"},
    {"lang": "klingon"}, {"lang": "xx"}])
def test_bad_filters_are_usage_errors(kwargs):
    with pytest.raises(UsageError):
        Filters.build(**kwargs)


def test_a_language_code_is_any_case_and_spaced():
    assert Filters.build(lang=" ES ").lang == "es"


def test_a_language_may_be_named_in_english():
    assert [Filters.build(lang=name).lang for name in ("Tamil", "german", " HINDI ")] == ["ta", "de", "hi"]


@pytest.mark.parametrize("name, day", [("after", "0001-01-01"), ("before", "9999-12-31"), ("after", "0999-12-31")])
def test_days_outside_the_comparable_range_are_usage_errors(name, day):
    with pytest.raises(UsageError, match=rf"^--{name} wants a day between 1000-01-01 and 9998-12-31, got '{day}'"):
        Filters.build(**{name: day})


def test_the_first_and_last_comparable_days():
    f = Filters.build(after="1000-01-01", before="9998-12-31")
    assert f.after == dt.datetime(1000, 1, 1).timestamp()
    assert f.before == dt.datetime(9999, 1, 1).timestamp()


def test_a_view_spells_the_parameter_its_own_way():
    with pytest.raises(UsageError, match=r"^after wants a day between"):
        Filters.build(after="0001-01-01", spell=str)


def test_cli_out_of_range_day_is_one_line_exit_2(tmp_path):
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-c", "from scent.cli import main; main()", "search", "x",
                        "--index", str(tmp_path / "none"), "--before", "9999-12-31"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2
    assert r.stderr == ("scent: error: --before wants a day between 1000-01-01 and 9998-12-31, got '9999-12-31' "
                        "(leave it out to keep every date)\n")


def test_slides_alias_takes_slide_pictures_too():
    assert Filters.build(kinds=["slides"]).unit_kinds() == ("slide", "slide_image")
    assert "slide_image" in Filters.build(kinds=["image"]).unit_kinds()


def _day(y, m, d):
    return dt.datetime(y, m, d).timestamp()


@pytest.mark.parametrize("text, after, before", [
    # today is Wednesday 2026-12-02: weeks start on Monday, ends are included (--before is the
    # first moment after the period)
    ("2024", _day(2024, 1, 1), _day(2025, 1, 1)),
    ("2024-03", _day(2024, 3, 1), _day(2024, 4, 1)),
    ("2024-12", _day(2024, 12, 1), _day(2025, 1, 1)),
    ("today", _day(2026, 12, 2), _day(2026, 12, 3)),
    ("yesterday", _day(2026, 12, 1), _day(2026, 12, 2)),
    ("this week", _day(2026, 11, 30), _day(2026, 12, 7)),
    ("last week", _day(2026, 11, 23), _day(2026, 11, 30)),
    ("This  Month", _day(2026, 12, 1), _day(2027, 1, 1)),
    ("last month", _day(2026, 11, 1), _day(2026, 12, 1)),
    ("last year", _day(2025, 1, 1), _day(2026, 1, 1)),
    ("3 days ago", _day(2026, 11, 29), _day(2026, 11, 30)),
    ("a month ago", _day(2026, 11, 1), _day(2026, 12, 1)),
    ("14 months ago", _day(2025, 10, 1), _day(2025, 11, 1)),
])
def test_named_periods(text, after, before):
    from scent.filters import _parse_date
    today = dt.date(2026, 12, 2)
    assert _parse_date(text, "--after", today=today) == after
    assert _parse_date(text, "--before", end_of_day=True, today=today) == before


def test_a_year_on_both_sides_is_that_year():
    f = Filters.build(after="2024", before="2024")
    assert (f.after, f.before) == (_day(2024, 1, 1), _day(2025, 1, 1))


@pytest.mark.parametrize("text", ["9999", "0999-05", "5000 years ago"])
def test_periods_outside_the_comparable_range(text):
    with pytest.raises(UsageError, match=r"^--after wants a day between"):
        Filters.build(after=text)


def test_a_bad_date_names_the_accepted_forms_and_the_parameter():
    with pytest.raises(UsageError, match=r"^after: wants a date like 2025-07-14, 2025-07 or 2025, or one of today, "
                                         r"yesterday, .*; got 'soonish'$"):
        Filters.build(after="soonish", spell=lambda n: n + ":")


# ---- --only covers every kind of file scent reads ------------------------------------------------

def test_kinds_may_be_one_name_or_names_joined_by_commas():
    assert Filters.build(kinds="pdf").kinds == ("pdf",)  # was read letter by letter: "unknown kind d, f, p"
    assert Filters.build(kinds="pdf, docx").kinds == Filters.build(kinds=["pdf,docx"]).kinds == ("pdf", "docx")
    assert Filters.build(kinds=["pdf", "", " "]).kinds == ("pdf",)
    assert Filters.build(kinds="").kinds == Filters.build(kinds=()).kinds == ()  # none given
    with pytest.raises(UsageError, match="^an empty kind was given"):  # `--only ""`: it searched every kind
        Filters.build(kinds=[""])


def test_every_file_kind_is_accepted_and_an_unknown_one_lists_them_sorted():
    from scent.filters import KNOWN_KINDS
    from scent.syntax import parse
    from scent.kinds import FILE_KINDS

    for kind in FILE_KINDS:
        assert Filters.build(kinds=[kind]).kinds == (kind,)
        assert parse(f"harbour kind:{kind}").filters.kinds == (kind,)
        assert Filters.build(kinds=[kind.upper()]).kinds == (kind,)  # as typed, any case
    with pytest.raises(UsageError) as err:
        Filters.build(kinds=["xlsx"])
    known = str(err.value).removeprefix("unknown kind xlsx; known kinds: ").split(", ")
    assert known == sorted(KNOWN_KINDS) and set(FILE_KINDS) <= set(known)


def _one_file_per_new_kind(folder) -> dict[str, str]:
    """A real file per kind #15 added, made with the format's own library, each saying "harbour"."""
    import mailbox
    from email.message import EmailMessage

    import openpyxl
    from ebooklib import epub
    from odf.opendocument import OpenDocumentText
    from odf.text import P
    from pptx import Presentation

    folder.mkdir()
    book = openpyxl.Workbook()
    book.active.append(["what", "cost"])
    book.active.append(["harbour dues", 40])
    book.save(folder / "dues.xlsx")
    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[1])
    slide.shapes.title.text = "The harbour plan"
    deck.save(folder / "plan.pptx")
    doc = OpenDocumentText()
    doc.text.addElement(P(text="Minutes of the harbour board."))
    doc.save(str(folder / "minutes.odt"))
    (folder / "letter.rtf").write_text(r"{\rtf1\ansi{\fonttbl{\f0 Times;}}\f0 Dear harbour master.\par}")
    ebook = epub.EpubBook()
    ebook.set_identifier("b1")
    ebook.set_title("Harbour tales")
    chapter = epub.EpubHtml(title="One", file_name="one.xhtml")
    chapter.content = "<p>Tales of the harbour.</p>"
    ebook.add_item(chapter)
    ebook.toc, ebook.spine = [chapter], [chapter]
    ebook.add_item(epub.EpubNcx())
    ebook.add_item(epub.EpubNav())
    epub.write_epub(str(folder / "tales.epub"), ebook)
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "ann@x.example", "bo@x.example", "harbour dues"
    message.set_content("The harbour dues are due.")
    box = mailbox.mbox(str(folder / "inbox.mbox"))
    box.add(message)
    box.close()
    (folder / "note.md").write_text("A note on the harbour.\n")
    return {"sheet": "dues.xlsx", "slides": "plan.pptx", "odt": "minutes.odt", "rtf": "letter.rtf",
            "epub": "tales.epub", "email": "inbox.mbox#1.eml", "text": "note.md"}


def test_only_keeps_each_new_kind(tmp_path):
    from scent import Index

    from conftest import FakeEmbedder

    files = _one_file_per_new_kind(tmp_path / "f")
    with Index(tmp_path / "f", index_dir=tmp_path / "idx", embedder=FakeEmbedder()) as idx:
        report = idx.update()
        assert report.skipped == [] and report.added == len(files) + 1  # the mailbox beside its message
        for kind, name in files.items():
            # the mailbox itself is mail too (its one line, which the fake embedder's dense list may hold)
            alone = {name} if kind != "email" else {name, "inbox.mbox"}
            assert name in {r.path for r in idx.search("harbour", k=20, filters=Filters.build(kinds=[kind]))} <= alone
            assert name in {r.path for r in idx.search(f"harbour kind:{kind}", k=20)} <= alone, kind


def test_the_web_ui_offers_every_file_kind():
    import re
    from pathlib import Path

    import scent
    from scent.kinds import FILE_KINDS

    page = (Path(scent.__file__).parent / "serve" / "static" / "index.html").read_text()
    chips = re.findall(r'<input type="checkbox" name="only" value="(\w+)">', page)
    assert sorted(chips) == sorted(FILE_KINDS)  # each once, in the order the page chose
