"""Guess the natural language of a unit's text (ISO 639-1), or None when unsure."""
from __future__ import annotations

from functools import lru_cache

# Below this many letters a guess is noise (file names, a table cell).
MIN_LETTERS = 20
MIN_CONFIDENCE = 0.6
NO_LANGUAGE_KINDS = frozenset({"code", "image", "json"})
# Restricting the guesser to widely written languages stops short Spanish notes being called
# Aragonese or Extremaduran (probability 0.56 -> 0.99 on a one-line note).
LANGUAGES = (
    "en", "es", "fr", "de", "pt", "it", "nl", "sv", "da", "no", "fi", "pl", "cs", "hu", "ro", "el",
    "ru", "uk", "tr", "ar", "he", "fa", "ur", "hi", "bn", "mr", "ta", "te", "th", "vi", "id",
    "zh", "ja", "ko",
)


@lru_cache(maxsize=1)
def _identifier():
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    identifier = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    identifier.set_languages(list(LANGUAGES))
    return identifier


def detect(text: str, kind: str = "text") -> str | None:
    if kind in NO_LANGUAGE_KINDS or sum(ch.isalpha() for ch in text[:2000]) < MIN_LETTERS:
        return None
    lang, prob = _identifier().classify(text[:2000])
    return lang if prob >= MIN_CONFIDENCE else None
