"""The English gloss of other-language text (scent.gloss) and its place in the keyword index."""
from __future__ import annotations

import sqlite3

import pytest

from scent import translate
from scent.gloss import GLOSSED, gloss, translate_query
from scent.query import parse


def test_spanish_words_and_inflected_forms_find_their_headwords():
    # tortilla -> omelette, patatas (plural) -> patata's stem -> potato, cebollas -> onion;
    # "de" and "con" are function words (scent.stopwords) and give nothing.
    assert gloss("Tortilla de patatas con cebollas", "es") == "omelette potato onion"


def test_a_short_plural_finds_its_singular():
    # Stems of short words are under MIN_STEM letters (ovos -> ov) and were not looked up: the
    # singular is (ovo: egg; uva: grape). Not for German, whose plurals are not -s.
    assert gloss("seis ovos batidos", "pt").split()[:2] == ["six", "egg"]
    assert gloss("uvas", "es") == "grape"


def test_french_german_portuguese_and_hindi():
    assert gloss("ratatouille aux aubergines et courgettes", "fr").split()[:4] == [
        "aubergine", "egg", "plant", "courgette"]
    assert "potato" in gloss("Kartoffel", "de").split()
    assert gloss("batata", "pt") == "potato"
    # Hindi has only an English->Hindi dictionary, read backwards; में and और are function words.
    assert gloss("दाल में घी और टमाटर", "hi") == "lentil ghee tomato"


def test_german_compounds_are_read_as_their_two_parts():
    # No dictionary lists Autoversicherung: auto (car ...) + versicherung (insurance ...).
    words = gloss("Autoversicherung", "de").split()
    assert "car" in words and "insurance" in words
    assert gloss("Warmwasser", "de") == "hot water"  # warm + wasser
    # abtast is no word but the stem of abtasten (sampling ...): Abtastrate is a sampling rate
    assert {"sampling", "rate"} <= set(gloss("Abtastrate", "de").split())
    assert gloss("Autoversicherung", "es") == ""  # only German is split


def test_a_german_compounds_parts_are_words_of_their_own():
    from scent.gloss import compound_parts

    # Listed compounds too (Schornsteinfeger is a headword), a part's parts (Restmüll), the linking
    # s read both ways (Einkommens|teuer, Einkommen|steuer); a plain word and a short one give nothing.
    assert compound_parts("Der Schornsteinfeger kommt", "de") == "schornstein feger"
    assert compound_parts("Restmülltonne", "de").split() == ["restmüll", "rest", "müll", "tonne"]
    assert {"einkommen", "steuer"} <= set(compound_parts("Einkommensteuer", "de").split())
    assert compound_parts("Tonne und Miete", "de") == ""
    assert compound_parts("Schornsteinfeger", "en") == ""


def test_a_word_inside_a_german_compound_finds_its_unit(tmp_path, fake_embedder):
    from scent.index import Index

    root = tmp_path / "f"
    root.mkdir()
    (root / "chat.txt").write_text("Der Schornsteinfeger kommt morgen um acht Uhr, bitte die Tür offen lassen.\n")
    (root / "note.txt").write_text("Die Heizung macht Geräusche, der Techniker kommt am Montag vorbei.\n")
    with Index(str(root), index_dir=tmp_path / "ix", embedder=fake_embedder) as idx:
        idx.update()
        assert [r.path for r in idx.search("Schornstein", k=2, strategy="keyword")] == ["chat.txt"]


def test_each_english_word_once():
    assert gloss("patata patatas patata", "es") == "potato"


@pytest.mark.parametrize("lang", ["en", "ta", None, "zz"])
def test_languages_without_a_word_list_give_nothing(lang):
    assert gloss("tortilla de patatas", lang) == ""


def test_every_glossed_language_has_its_word_list():
    for lang in sorted(GLOSSED):
        assert gloss("x", lang) == ""  # loads the list; one letter is no word of it


@pytest.mark.slow  # the real indexer embeds with the real model
def test_a_spanish_note_is_found_by_english_words(tmp_path):
    """End to end through the real indexer and SQLite FTS: the note says no English word."""
    from scent.index import Index
    from scent.settings import Settings

    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "tortilla.md").write_text(
        "# Tortilla de patatas\n\nPelar las patatas y la cebolla. Batir los huevos con sal, mezclar todo y "
        "cocinar a fuego lento en la sartén con aceite de oliva.\n", encoding="utf8")
    (notes / "groceries.md").write_text("# Groceries\n\nMilk, bread and coffee for the week.\n", encoding="utf8")
    for english_gloss, found in ((True, True), (False, False)):
        idx = Index(str(notes), index_dir=tmp_path / f"ix-{english_gloss}",
                    settings=Settings().with_values(english_gloss=english_gloss, sentence_vectors=False))
        idx.update()
        db = sqlite3.connect(tmp_path / f"ix-{english_gloss}" / "index.db")
        rows = db.execute("SELECT f.path FROM units_fts JOIN units u ON u.row = units_fts.rowid JOIN files f ON f.id = u.file_id "
                          "WHERE units_fts MATCH 'potato AND onion AND egg'").fetchall()
        idx.close()
        assert (rows == [("tortilla.md",)]) is found, (english_gloss, rows)


def test_a_spanish_query_also_matches_the_english_words():
    q = translate_query(parse("tortilla de patatas"), "es", "to_english")
    # "de" is a stop word and gone; each word stays one term, widened by its gloss.
    assert [t.fts for t in q.terms] == ['("tortilla" OR "omelette")', '("patatas" OR "potato")']
    assert translate_query(parse("tortilla de patatas"), "es", "off") == parse("tortilla de patatas")


def test_an_english_query_is_widened_only_with_all():
    q = parse("potato omelette")
    assert translate_query(q, "en", "to_english") == q
    widened = [t.fts for t in translate_query(q, "en", "all").terms]
    assert '"patata"' in widened[0] and '"batata"' in widened[0] and '"tortilla"' in widened[1]


def test_a_query_searched_in_english_too_is_moved_toward_its_gloss():
    import numpy as np

    from scent.filters import Filters
    from scent.search import GLOSS_VECTOR_WEIGHT, Request, query_vector
    from scent.settings import Settings

    seen = []

    def embed(text):
        seen.append(text)
        return np.array([1.0, 0.0], np.float32) if text == "bolo de chocolate" else np.array([0.0, 1.0], np.float32)

    r = Request("bolo de chocolate", parse("bolo de chocolate"), Filters(), Settings(), None, embed,
                gloss="cake chocolate")
    v = query_vector(r)
    # Its own vector plus the gloss's at a quarter weight, back to unit length: (1, 0.25) / |(1, 0.25)|.
    assert GLOSS_VECTOR_WEIGHT == 0.25
    assert np.allclose(v, [1 / 1.0625 ** 0.5, 0.25 / 1.0625 ** 0.5])
    assert seen == ["bolo de chocolate", "cake chocolate"]
    query_vector(r)
    assert len(seen) == 2  # once per request
    plain = Request("chocolate cake", parse("chocolate cake"), Filters(), Settings(), None, embed)
    assert np.allclose(query_vector(plain), [0.0, 1.0])


@pytest.fixture
def one_note(tmp_path, fake_embedder):
    """An index of one English note, for reading how queries are prepared (Index._request)."""
    from scent.index import Index

    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "note.md").write_text("# Chocolate cake\n\nMelt the chocolate with the butter. The rent is due on "
                                   "the first day of each month.\n")
    idx = Index(str(notes), index_dir=tmp_path / "ix", embedder=fake_embedder)
    idx.update()
    yield idx
    idx.close()


def test_only_a_query_in_a_glossed_language_gets_a_gloss(one_note):
    portuguese = one_note._request("receita de bolo de chocolate para o aniversário", None, {})
    assert portuguese.lang == "pt" and "cake" in portuguese.gloss.split()
    assert one_note._request("chocolate cake recipe for the birthday party", None, {}).gloss == ""
    assert one_note._request("receita de bolo de chocolate para o aniversário", None,
                             {"translate_query": "off"}).gloss == ""


def test_question_words_are_stop_words_in_every_language():
    # As "when" in English: "wann" was glossed as Wanne (vat), and three terms had to be held.
    assert [t.text for t in parse("wann ist die Miete fällig").terms] == ["Miete", "fällig"]
    assert [t.text for t in parse("¿cuándo hay que pagar el alquiler?").terms] == ["hay", "pagar", "alquiler"]
    assert [t.text for t in parse("combien coûte le loyer").terms] == ["coûte", "loyer"]
    # "comment" is an English word too: kept.
    assert [t.text for t in parse("comment on the chart").terms] == ["comment", "chart"]


def test_a_short_query_in_another_language_is_searched_in_english_too(one_note, monkeypatch):
    # the gloss alone, as where Apertium's French pairs are missing (their translation adds its own words)
    monkeypatch.delitem(translate.ENGINES, "fr")
    short = one_note._request("combien coûte le loyer", None, {})  # 19 letters: read by query_language
    assert short.lang == "fr"
    assert [t.fts for t in short.keywords.terms] == ['("coûte" OR "cost")', '("loyer" OR "rent" OR "money")']
    assert one_note._request("red bicycle", None, {}).lang is None


@pytest.mark.parametrize("text, lang", [
    ("foto del faro al atardecer", "es"),  # 22 letters, the guesser 0.55 sure: below detect's 0.6
    ("a bomba de calor faz subir a conta de luz no inverno", "pt"),  # 0.60
    ("does a heat pump make the electricity bill go up in winter", "en"),
    ("what is the boundary layer thickness on a flat plate at mach two", "en"),
])
def test_a_query_the_guesser_is_unsure_of_needs_a_word_of_its_language(text, lang):
    from scent.language import query_language

    assert query_language(text) == lang


def test_ids_are_never_translated():
    q = parse("invoice INV-00042")
    assert translate_query(q, "en", "all").terms[1] == q.terms[1]


def test_a_missing_word_list_says_what_to_do(monkeypatch, tmp_path):
    import scent.gloss as g
    from scent.errors import ScentError

    g._table.cache_clear()
    monkeypatch.setattr(g, "GLOSSARIES", tmp_path)  # a package folder without its data
    try:
        with pytest.raises(ScentError, match="reinstall scent, or index with --english-gloss false"):
            gloss("patatas", "es")
    finally:
        g._table.cache_clear()


def test_a_glossary_is_read_back_from_the_cache_as_parsed(monkeypatch):
    import scent.gloss as g
    from scent import cache

    g._table.cache_clear()
    parsed = g._table("es")
    kept = cache.path_for(g.GLOSSARIES / "es.tsv.xz", "gloss-es.marshal")
    assert kept.is_file()
    g._table.cache_clear()
    parse = g._parse
    monkeypatch.setattr(g, "_parse", lambda *_: pytest.fail("parsed again, though kept"))
    assert g._table("es") == parsed and g._table("es")[0]["patata"] == parsed[0]["patata"]
    g._table.cache_clear()
    kept.write_bytes(b"\x00damaged")
    monkeypatch.setattr(g, "_parse", parse)
    assert g._table("es") == parsed  # a damaged cache is derived again
    g._table.cache_clear()


from hypothesis import given, settings as hsettings, strategies as st  # noqa: E402


@hsettings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(list("abcdeéñüçàpatsdelo \"'-()*:^") + ["patatas", "chat", "दाल", "Kartoffel",
                                                                           "potato", " OR ", " NOT "]),
                max_size=20).map("".join),
       st.sampled_from(["es", "fr", "de", "pt", "hi", "en"]))
def test_a_widened_query_is_always_valid_fts(text, lang):
    from scent.query import match_expression

    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='porter unicode61')")
    db.execute("INSERT INTO t VALUES ('tortilla de patatas potato omelette')")
    for mode in ("to_english", "all"):
        expression = match_expression(translate_query(parse(text), lang, mode), "or")
        if expression is not None:
            db.execute("SELECT rowid FROM t WHERE t MATCH ?", (expression,)).fetchall()
