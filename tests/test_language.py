"""Language detection answers as py3langid does, from a restricted model mapped from a cache
(a fresh process opens it in about a millisecond instead of unpacking 68 MB)."""
import os

import numpy as np
import pytest
from py3langid.langid import MODEL_FILE, LanguageIdentifier

from scent import language

from conftest import EXAMPLES

TEXTS = [
    "The deposit refund is due within thirty days of the end of the lease.",
    "El depósito se devuelve en un plazo de treinta días después del contrato.",
    "Le dépôt de garantie est rendu dans les trente jours après la fin du bail.",
    "Die Kaution wird innerhalb von dreißig Tagen nach Ende des Mietvertrags erstattet.",
    "जमा राशि पट्टे की समाप्ति के तीस दिनों के भीतर वापस की जाती है।",
    "வைப்புத் தொகை குத்தகை முடிந்த முப்பது நாட்களுக்குள் திருப்பித் தரப்படும்.",
    "押金在租约结束后三十天内退还。", "THE DEPOSIT REFUND IS DUE IN THIRTY DAYS",
    "how much deposit do I get back", "neem oil on jasmine", "1234 5678 ---- ####", "",
]


@pytest.fixture
def fresh(monkeypatch):
    language._identifier.cache_clear()
    yield
    language._identifier.cache_clear()


def reference():
    identifier = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    identifier.set_languages(list(language.LANGUAGES))
    return identifier


def example_texts():
    return [p.read_text(encoding="utf-8", errors="replace")[:2000] for p in sorted(EXAMPLES.rglob("*.md"))]


def test_same_answers_as_py3langid_and_the_cache_is_mapped_the_second_time(fresh, scent_home):
    ref = reference()
    assert language.MODEL_FILE == MODEL_FILE  # the cache is keyed by that file's size and date
    assert ref._alias_pairs == []  # no language twice among LANGUAGES: nothing to fold
    texts = TEXTS + example_texts()
    first = language._identifier()  # built from py3langid's model, and written
    cached = list((scent_home / "cache").glob("langid-*"))
    assert len(cached) == 1 and sorted(p.name for p in cached[0].iterdir()) == sorted(
        f"{n}.npy" for n in language._NAMES)
    language._identifier.cache_clear()
    second = language._identifier()  # read from the files
    assert isinstance(np.asarray(second.ptc).base, np.memmap) or isinstance(second.ptc, np.memmap)
    for text in texts:
        want_lang, want_p = ref.classify(text)
        for model in (first, second):
            lang, p = model.classify(text)
            assert lang == want_lang, text
            assert p == pytest.approx(want_p, abs=1e-6), text


def test_a_read_only_home_still_detects(fresh, scent_home, monkeypatch):
    scent_home.mkdir(parents=True)
    os.chmod(scent_home, 0o500)
    try:
        if os.access(scent_home / "x", os.W_OK) or os.geteuid() == 0:
            monkeypatch.setattr(np, "save", lambda *a, **k: (_ for _ in ()).throw(PermissionError("read-only")))
        assert language.detect(TEXTS[1]) == "es"
        assert not list(scent_home.glob("cache/langid-*"))  # nor a half-written one
    finally:
        os.chmod(scent_home, 0o700)


@pytest.mark.parametrize("text, english", [("Spanish potato omelette", True), ("red bicycle", True),
                                           ("how much deposit do I get back", True), ("receta de pan", False),
                                           ("dépôt de garantie", False), ("K7Q2ZP", False), ("2025", False), ("", False)])
def test_a_text_reads_as_english_when_every_word_is_an_english_word(text, english):
    # "receta" is a Spanish headword, "dépôt" has letters beyond a-z, K7Q2ZP's parts (k, q, zp) are no words
    # together, and a text of no words reads as nothing.
    assert language.reads_as_english(text) is english
