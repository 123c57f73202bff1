"""Passages from units: overlaps written once, budgets kept, citations (hand-computed)."""
from __future__ import annotations

import pytest

from conftest import FakeEmbedder
from scent import Index
from scent.errors import UsageError
from scent.passages import Passage, budget, estimate_tokens, file_text, merge, once, render
from scent.storage import StoredUnit

TEXT = "alpha beta gamma delta epsilon zeta eta theta"


def su(uid, start, end, page=None, kind="text", path="a.md", title=""):
    return StoredUnit(uid, path, "text", kind, page, start, end, title, "en", TEXT[start:end] if kind == "text"
                      else f"page {page} words", 0.0)


def test_overlapping_and_touching_chunks_merge_once():
    # [0, 16) "alpha beta gamma", [11, 30) "gamma delta epsilon": "gamma" is shared; [30, 35) " zeta"
    # touches it; [36, 45) "eta theta" is apart
    merged = merge([su(2, 11, 30), su(1, 0, 16), su(4, 30, 35), su(3, 36, 45)])
    assert [(p.start, p.end, p.text, p.unit_ids) for p in merged] == [
        (0, 35, "alpha beta gamma delta epsilon zeta", [1, 2, 4]), (36, 45, "eta theta", [3])]


def test_pages_and_kinds_never_merge():
    merged = merge([su(1, 0, 0, page=1, kind="pdf_page", path="b.pdf"), su(2, 0, 0, page=2, kind="pdf_page",
                                                                             path="b.pdf"),
                    su(3, 0, 0, page=1, kind="ocr", path="b.pdf")])
    assert [(p.page, p.kind) for p in merged] == [(1, "pdf_page"), (1, "ocr"), (2, "pdf_page")]
    text, where = file_text([su(1, 0, 0, page=1, kind="pdf_page", path="b.pdf"),
                             su(3, 0, 0, page=1, kind="ocr", path="b.pdf")])
    assert text == "[page 1] page 1 words\n\n[text in a picture] page 1 words"
    assert where == {1: 0, 3: len("[page 1] page 1 words\n\n")}


def test_estimates_err_high_outside_ascii():
    assert estimate_tokens("abcd" * 10) == 10
    assert estimate_tokens("किराया") == 6       # one a character
    assert estimate_tokens("") == 0


def test_budget_takes_whole_passages_then_cuts_one_at_a_word():
    words = " ".join(f"word{n}" for n in range(200))  # 1,189 ASCII characters: 298 tokens
    ps = [Passage("a.md", None, "text", "", 0, 10, "short passage here", [1]),
          Passage("b.pdf", 3, "pdf_page", "", 0, len(words), words, [2])]
    chosen = budget(ps, 200)
    assert [p.path for p in chosen] == ["a.md", "b.pdf"]
    assert chosen[1].text.endswith(" …") and words.startswith(chosen[1].text[:-2])
    assert estimate_tokens(render(chosen)) <= 200
    assert render(chosen).startswith("[1] a.md\nshort passage here\n\n[2] b.pdf, page 3\nword0 word1")
    assert [p.path for p in budget(ps, 20)] == ["a.md"]  # no room for a useful cut of the second


def test_a_passage_a_better_one_already_gives_is_left_out():
    best = Passage("a.md", None, "text", "", 0, 10, "same words", [1], 0.9)
    copy = Passage("copy/a.md", None, "text", "", 0, 10, "same words", [2], 0.8)
    other = Passage("b.md", None, "text", "", 0, 11, "other words", [3], 0.7)
    assert once([best, copy, other]) == [best, other]


def test_a_copy_gives_the_context_nothing_twice(tmp_path, notes):
    (notes / "copy").mkdir()
    (notes / "copy" / "recipe.txt").write_text((notes / "recipe.txt").read_text())
    with Index(notes, index_dir=tmp_path / "idx", embedder=FakeEmbedder()) as idx:
        idx.update()
        texts = [p.text for p in idx.context('"tomato soup"', tokens=2000).passages]
        assert len(texts) == len(set(texts)) and any("tomato" in t.lower() for t in texts)


def test_context_over_a_real_folder(tmp_path, notes):
    (notes / "long.md").write_text("# Deposit rules\n\n" + " ".join(["The deposit is refunded in full."] * 80))
    with Index(notes, index_dir=tmp_path / "idx", embedder=FakeEmbedder()) as idx:
        idx.update()
        found = idx.context("deposit refunded", tokens=300)
        assert found.passages and estimate_tokens(found.text) <= 300
        # long.md's overlapping chunks came back as one passage, not twice the shared words
        long_passages = [p for p in found.passages if p.path == "long.md"]
        assert len(long_passages) == 1
        d = found.to_dict()
        assert d["budget"] == 300 and d["tokens"] == estimate_tokens(found.text) and d["text"] == found.text
        assert idx.context('"tomato soup"', tokens=100).passages[0].path == "recipe.txt"
        with pytest.raises(UsageError, match="tokens must be between 50 and 100,000"):
            idx.context("deposit", tokens=10)


def test_a_citation_names_a_part_as_a_result_does():
    from scent.passages import Passage, cite

    def at(kind, path, page):
        return cite(Passage(path, page, kind, "", 0, 1, "words", [1]))

    assert at("pdf_page", "lease.pdf", 4) == "lease.pdf, page 4"
    assert at("email", "inbox.mbox", 3) == "inbox.mbox, message 3"
    assert at("slide", "deck.pptx", 2) == "deck.pptx, slide 2"
    assert at("text", "notes.md", None) == "notes.md"


def test_a_passage_carries_its_files_confidence_as_a_search_weighs_it(tmp_path, notes):
    with Index(notes, index_dir=tmp_path / "idx", embedder=FakeEmbedder()) as idx:
        idx.update()
        found = idx.context("deposit refund", tokens=2000)
        top = idx.search("deposit refund", k=1)[0]
        assert found.passages[0].path == top.path == "lease.md"
        assert (found.passages[0].confidence, found.passages[0].weak) == (top.confidence, top.weak)
        assert found.to_dict()["passages"][0]["confidence"] == top.confidence
        nonsense = idx.context("xyzzyplugh frimble", tokens=2000).passages
        assert nonsense and all(p.weak and 0 <= p.confidence < 0.5 for p in nonsense)
