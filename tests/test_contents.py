"""A file's own list of its parts (scent.contents): a PDF's contents page, a deck's agenda slide,
and the page a search shows when it finds the file at that list."""
from __future__ import annotations

from scent import contents
from scent.storage import StoredUnit

REPORT = "report.pdf"


def page(number: int, text: str, kind: str = "pdf_page", title: str = "") -> StoredUnit:
    return StoredUnit(number, REPORT, "pdf", kind, number, 0, len(text), title, "en", text, 0.0)


CONTENTS = page(2, "Contents\n1. Introduction ........ 3\n2. Market overview ........ 4\n"
                   "3. Risks ........ 6\n4. Outlook ........ 7")
PAGES = [page(1, "Halvorsen Dairy - Annual Report 2025"), CONTENTS,
         page(3, "1. Introduction\nThis report covers the year."),
         page(4, "2. Market overview\nMilk prices rose by four percent."),
         page(5, "Milk volumes by month, in thousands of litres."),
         page(6, "Halvorsen Dairy 2025\n3. Risks\nFeed costs could climb after a dry summer."),
         page(7, "4. Outlook\nA yoghurt line in the autumn.")]


def test_a_contents_page_points_each_heading_at_the_page_that_starts_with_it():
    named = contents.targets(CONTENTS, PAGES)
    # Page 6's heading is under a running header, within the first lines.
    assert [(title, part.page) for title, part in named] == [
        ("Introduction", 3), ("Market overview", 4), ("Risks", 6), ("Outlook", 7)]


def test_a_heading_worded_otherwise_on_its_page_is_found_at_its_printed_number_moved_as_the_others():
    # Printed numbers count from the first page after the title and contents: printed 1 is page 3.
    listing = page(2, "Contents\nIntroduction . . . . 1\nMarket overview . . . . 2\nWhat could go wrong . . . . 4\n"
                      "Outlook . . . . 5")
    named = contents.targets(listing, [PAGES[0], listing, *PAGES[2:]])
    assert [(title, part.page) for title, part in named] == [
        ("Introduction", 3), ("Market overview", 4), ("What could go wrong", 6), ("Outlook", 7)]


def test_prose_with_numbers_at_line_ends_is_not_a_contents_page():
    prose = page(2, "The herd grew to 120\ncows and the barn held 80\nin winter; the price was 4\n"
                    "crowns a litre in 2025")
    assert contents.may_list(prose)  # it looks like one, line by line
    assert contents.targets(prose, [PAGES[0], prose, *PAGES[2:]]) == []  # but names no page's heading


def test_fewer_than_three_entries_are_no_contents():
    short = page(2, "Contents\n1. Introduction ........ 3\n2. Market overview ........ 4")
    assert not contents.may_list(short)
    assert contents.targets(short, PAGES) == []


def test_an_agenda_slide_names_the_slides_titled_by_its_lines():
    slides = [StoredUnit(i, "q2.pptx", "slides", "slide", i, 0, 1, title, "en", f"{title}\n{body}", 0.0)
              for i, (title, body) in enumerate([("Agenda", "Highlights\nPeople\nRisks"), ("Highlights", "Revenue up"),
                                                 ("People", "Headcount 90"), ("Risks", "A late supplier")], start=1)]
    assert [(title, part.page) for title, part in contents.targets(slides[0], slides)] == [
        ("Highlights", 2), ("People", 3), ("Risks", 4)]
    assert contents.targets(slides[1], slides) == []  # one line under its title


def test_a_report_found_at_its_contents_page_shows_the_section_the_query_names(tmp_path, fake_embedder):
    from fpdf import FPDF

    from scent import Index

    folder = tmp_path / "reports"
    folder.mkdir()
    sections = [("Introduction", "This report covers the fiscal year of the cooperative."),
                ("Market overview", "Milk prices rose by four percent in the year."),
                ("Risks", "Feed costs could climb after a dry summer; one buyer takes most of the cheese."),
                ("Outlook", "A yoghurt line in the autumn.")]
    pdf = FPDF()
    pdf.set_font("helvetica", size=12)
    pdf.add_page()
    pdf.cell(0, 10, "Annual report 2025")
    pdf.add_page()
    pdf.cell(0, 10, "Contents", new_x="LMARGIN", new_y="NEXT")
    for i, (title, _) in enumerate(sections):
        pdf.cell(0, 10, f"{i + 1}. {title} {'.' * 40} {i + 3}", new_x="LMARGIN", new_y="NEXT")
    for i, (title, body) in enumerate(sections):
        pdf.add_page()
        pdf.cell(0, 10, f"{i + 1}. {title}", new_x="LMARGIN", new_y="NEXT")
        pdf.multi_cell(0, 8, body)
    pdf.output(str(folder / "report.pdf"))
    with Index(folder, index_dir=tmp_path / "idx", embedder=fake_embedder) as idx:
        idx.update()
        # Only the contents page holds both words: keyword search finds the file there, and shows
        # the page of the section it names.
        assert idx.search("contents risks", strategy="keyword")[0].page == 5
        # No title of the list holds a query word: the contents page stays.
        assert idx.search("contents", strategy="keyword")[0].page == 2
