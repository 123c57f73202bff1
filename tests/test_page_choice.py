"""Which unit (page) a file shows (scent.search.choose, page_evidence)."""
from __future__ import annotations

import math

import pytest

from scent.filters import Filters
from scent.query import parse
from scent.search import Fusion, Request, choose, page_evidence
from scent.settings import Settings
from scent.storage import StoredUnit

MANUAL = "manual.pdf"


def page(uid: int, number: int, text: str, kind: str = "pdf_page") -> StoredUnit:
    return StoredUnit(uid, MANUAL, "pdf", kind, number, 0, len(text), "", "en", text, 0.0)


UNITS = {
    3: page(3, 3, "First use. Fill the machine tank and switch the machine on."),
    6: page(6, 6, "Warranty and service. The machine has a two-year warranty."),
    5: page(5, 5, "Troubleshooting the coffee machine."),
}
QUERY = "how long is the warranty on the coffee machine"


def request(text: str = QUERY, **values) -> Request:
    return Request(text, parse(text), Filters(), Settings().with_values(**values), engine=None, embed_query=None)


def fusion(scores: dict[int, float]) -> Fusion:
    return Fusion({}, scores, [(MANUAL, max(scores.values()))], {})


def test_proximity_weighs_a_query_word_by_how_few_pages_hold_it():
    near = page_evidence(parse(QUERY), list(UNITS.values()))
    # "coffee" is on 1 of the 3 pages, "machine" on all 3, "warranty" on 1; "long" on none.
    coffee, machine, warranty = math.log1p(3 / 1), math.log1p(3 / 3), math.log1p(3 / 1)
    total = coffee + machine + warranty
    assert near[3] == pytest.approx(machine / total)
    assert near[6] == pytest.approx((warranty + machine) / total)
    assert near[5] == pytest.approx((coffee + machine) / total)


def test_a_fused_tie_goes_to_the_page_whose_rarer_words_sit_together():
    # pages 3 and 6: ranks 1 and 3 in one list, 3 and 1 in the other; page 5 behind
    tie = fusion({3: 1 / 61 + 1 / 63, 6: 1 / 63 + 1 / 61, 5: 1 / 62 + 1 / 64})
    assert choose(request(page_choice="fused"), tie, UNITS)[MANUAL] == 3  # the first of the tie
    # both contenders hold "machine" (on all 3 pages: weight log 2), only page 6 "warranty" (log 4)
    assert choose(request(page_choice="proximity"), tie, UNITS)[MANUAL] == 6


def test_proximity_outweighs_a_small_fused_lead_only_when_it_is_given_weight():
    # page 3: ranks 1 and 2 in the two lists; page 6: ranks 1 and 3
    scores = fusion({3: 1 / 61 + 1 / 62, 6: 1 / 61 + 1 / 63, 5: 1 / 64})
    assert choose(request(page_choice="fused"), scores, UNITS)[MANUAL] == 3
    assert choose(request(page_choice="proximity"), scores, UNITS)[MANUAL] == 3  # ties only
    # page 5 is 0.0169 behind, out of reach of a 1/61 = 0.0164 gain. Page 6 holds "warranty" and
    # "machine" (log 4 + log 2 of the file's log 4 + log 2 + log 4: 0.6), page 3 "machine" (0.2):
    # 1/62 - 1/63 = 0.00026 behind and (0.6 - 0.2) / 61 = 0.0066 ahead
    assert choose(request(page_choice="proximity", page_proximity=1.0), scores, UNITS)[MANUAL] == 6


def test_only_the_files_asked_for_are_weighed():
    tie = fusion({3: 0.03, 6: 0.03, 5: 0.01})
    assert choose(request(page_choice="proximity"), tie, UNITS, paths=[])[MANUAL] == 3  # the first of the tie


def test_a_query_for_a_picture_is_still_answered_by_the_picture():
    units = {**UNITS, 9: page(9, 2, "photo, a coffee machine, silver", kind="pdf_image")}
    scores = fusion({3: 0.03, 6: 0.03, 5: 0.01, 9: 0.005})
    text = "photo of the coffee machine warranty"
    assert choose(request(text, page_choice="proximity", page_proximity=4.0), scores, units)[MANUAL] == 9


def test_a_real_pdf_shows_the_chosen_page_and_its_snippet_and_replays_alike(tmp_path, fake_embedder):
    from fpdf import FPDF

    from scent import Index, candidates, replay
    from scent.evaluate import LabelledQuery

    folder = tmp_path / "docs"
    folder.mkdir()
    pdf = FPDF()
    pdf.set_font("Helvetica", size=12)
    for text in ("First use: fill the machine tank and switch the machine on.",
                 "Warranty: the machine has a two-year warranty from the date of purchase.",
                 "Troubleshooting: the coffee machine pump is loud."):
        pdf.add_page()
        pdf.multi_cell(0, 6, text)
    pdf.output(str(folder / "manual.pdf"))
    settings = Settings().with_values(match="or")  # page_choice=proximity, the default
    with Index(folder, index_dir=tmp_path / "idx", settings=settings, embedder=fake_embedder) as idx:
        idx.update()
        result = idx.search("machine warranty")[0]
        assert (result.path, result.page) == ("manual.pdf", 2)
        assert "two-year warranty" in result.snippet  # the snippet is the shown page's
        queries = [LabelledQuery("a", "machine warranty", "manual.pdf", page=2),
                   LabelledQuery("b", "coffee machine", "manual.pdf", page=3)]
        records = candidates.record_folder(idx, queries)
    assert all("near" in u for u in records[0].units.values())
    assert replay.check_replay(records) == 0


def test_a_deck_found_at_its_agenda_shows_the_slide_the_agenda_names(tmp_path, fake_embedder, monkeypatch):
    from pptx import Presentation

    from scent import Index, contents

    folder = tmp_path / "decks"
    folder.mkdir()
    deck = Presentation()
    slides = [("Q2 review", "Nordalia management team, July"),
              ("Agenda", "Highlights\nRevenue by office\nPeople\nRisks\nNext quarter"),
              ("Highlights", "Revenue up 9 percent on last year"), ("Revenue by office", "Madrid, Lyon and Munich"),
              ("People", "Headcount 90, eight open positions"),
              ("Risks", "A supplier below its contract's delivery rate for three months; one IT administrator"),
              ("Next quarter", "Close the automation decision")]
    for title, body in slides:
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        slide.shapes.title.text = title
        slide.placeholders[1].text = body
    deck.save(folder / "qbr.pptx")
    with Index(folder, index_dir=tmp_path / "idx", embedder=fake_embedder) as idx:
        idx.update()
        # The agenda alone holds both words (a keyword query of two words needs both): its page wins, and
        # of the titles it names only "Risks" holds one of them.
        assert idx.search("risks agenda", strategy="keyword")[0].page == 6
        monkeypatch.setattr(contents, "CONTENTS_LINES", 99)  # no slide is an agenda: the fused best is shown
        assert idx.search("risks agenda", strategy="keyword")[0].page == 2
