"""Example queries made from a file's own content at index time, for the web UI's cold start.

`suggestions(title, units)` gives at most `MAX_PER_FILE` short queries, in this order: the
document title, its first heading, ID-like codes (`LD-2026-0417`), key phrases, and the codes
read in its pictures. Everything is computed from the one file, offline
and deterministically, so a suggestion can be written in the same transaction as the units.

Key phrases follow RAKE (Rose et al., "Automatic keyword extraction from individual documents",
2010): the text is cut into candidate phrases at stop words and punctuation; each word scores
degree / frequency (how many words it co-occurs with in candidates, over how often it occurs),
a phrase scores the sum of its words. Only two- and three-word phrases are kept: one word is too
vague to show as an example, longer ones read as sentences.
"""
from __future__ import annotations

import re

from .query import _chunks, clean, is_id_like
from .stopwords import STOPWORDS
from .storage import UnitRecord

MAX_PER_FILE = 5
MAX_IDS = 2
MAX_PHRASES = 2
MAX_CHARS = 60
# Units holding text read from a picture (OCR or a description); an `image` unit only describes
# the file (name, folder, date, camera), which makes no example query.
PICTURE_TEXT_KINDS = frozenset({"ocr", "pdf_image", "docx_image", "slide_image"})
NOT_PROSE = PICTURE_TEXT_KINDS | {"image"}
# Common verbs that end or start a RAKE candidate too: a phrase cut only at function words keeps
# them ("where deleted files go" -> "deleted files go"), which reads as a fragment, not a query.
PHRASE_BREAKS = frozenset("""
go goes going went gone come comes came coming make makes made making take takes took taken
see sees saw seen use uses using need needs want wants keep keeps kept put puts let lets found
say says said know knows knew think thinks thought try tries tried seems seemed become becomes
""".split())
# Kinds whose unit titles are headings; in code, CSV and JSON they are row ranges and key paths.
HEADING_KINDS = frozenset({"text", "html", "docx", "pdf_page", "slide", "odt", "epub"})

_WORD = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)?")
# A whitespace-separated piece: leading punctuation, the word, trailing punctuation.
_PIECE = re.compile(r"([^\w]*)(.*?)([^\w]*)", re.S)
_FILE_NAME = re.compile(r"[\w.-]+\.[A-Za-z0-9]{1,5}")
_CODE = re.compile(r"[A-Za-z0-9]+(?:[-_./][A-Za-z0-9]+)*")
_SIZE = re.compile(r"\d+x\d+")


def suggestions(title: str, units: list[UnitRecord]) -> list[str]:
    """Up to MAX_PER_FILE example queries for one file, best first, without duplicates."""
    out: dict[str, str] = {}  # casefolded -> as shown

    def add(text: str) -> None:
        text = " ".join(text.split())
        if len(out) < MAX_PER_FILE and _useful(text) and text.casefold() not in out:
            out[text.casefold()] = text

    add(title)
    for u in units:
        if u.kind in HEADING_KINDS and u.title and u.title != title:
            add(u.title)  # the first heading below the title
            break
    text = "\n".join(u.text for u in units if u.kind not in NOT_PROSE)
    for code in _ids(text)[:MAX_IDS]:
        add(code)
    for phrase in key_phrases(text)[:MAX_PHRASES]:
        add(phrase)
    # From a picture's text only its codes: OCR garbles words ("I based segmentation letermine
    # markers") far more often than it garbles a whole code, and a chip must read as a query.
    for u in units:
        if u.kind in PICTURE_TEXT_KINDS:
            for code in _ids(u.text)[:1]:
                add(code)
    return list(out.values())


def key_phrases(text: str) -> list[str]:
    """RAKE candidates of two or three words, best first (ties: first seen first)."""
    candidates: list[tuple[str, ...]] = []
    phrase: list[str] = []
    for line in clean(text).splitlines():
        for piece in line.split():
            lead, word, trail = _PIECE.fullmatch(piece).groups()
            folded = word.casefold()
            keep = (bool(_WORD.fullmatch(word)) and folded not in STOPWORDS and folded not in PHRASE_BREAKS
                    and len(word) > 1)
            if lead or not keep:  # a stop word, number, code or punctuation before a word: a break
                candidates.append(tuple(phrase))
                phrase = []
            if keep:
                phrase.append(word)
            if trail:  # punctuation after a word ends the phrase
                candidates.append(tuple(phrase))
                phrase = []
        candidates.append(tuple(phrase))
        phrase = []
    candidates = [c for c in candidates if c]
    freq: dict[str, int] = {}
    degree: dict[str, int] = {}
    for c in candidates:
        for w in c:
            key = w.casefold()
            freq[key] = freq.get(key, 0) + 1
            degree[key] = degree.get(key, 0) + len(c)
    scored: dict[str, tuple[float, int, str]] = {}
    for pos, c in enumerate(candidates):
        if not 2 <= len(c) <= 3:
            continue
        key = " ".join(w.casefold() for w in c)
        score = sum(degree[w.casefold()] / freq[w.casefold()] for w in c)
        if key not in scored:
            scored[key] = (score, pos, " ".join(c))
    return [shown for _, _, shown in sorted(scored.values(), key=lambda s: (-s[0], s[1]))]


def _ids(text: str) -> list[str]:
    """ID-like codes with at least two letters and two digits, made of letters, digits and
    - _ . / only: a bare date, amount, size (1200x800), decade (1970s) or `key=value` is a
    poor example."""
    found = dict.fromkeys(
        c for c in _chunks(text)
        if is_id_like(c) and _CODE.fullmatch(c) and not _FILE_NAME.fullmatch(c) and not _SIZE.fullmatch(c)
        and sum(ch.isalpha() for ch in c) >= 2 and sum(ch.isdigit() for ch in c) >= 2)
    return list(found)


def _useful(text: str) -> bool:
    """Short enough to be a query, not a file name, and holding a word that is not a stop word."""
    if not text or len(text) > MAX_CHARS or _FILE_NAME.fullmatch(text):
        return False
    if is_id_like(text):
        return True
    return any(w.casefold() not in STOPWORDS and len(w) > 2 for w in _WORD.findall(text))
