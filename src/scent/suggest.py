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

After the file's own queries (aspect `file`) come each page's, at most one of each aspect per page
(a file without pages is one page), in the order a reader meets them:

- `topic`, broad: the page's own heading (a slide's title), else its best key phrase;
- `detail`, specific: an ID-like code on the page, else its best key phrase that no other page
  of the file holds;
- `visual`: what one of its pictures shows, from the picture's description (scent.describe):
  its most specific kind ("bar chart" rather than "chart") and the first thing in it ("photo of
  seven umbrellas") or, for a chart, diagram, screenshot or scanned document, the first line of
  words read in it ("bar chart marlin: projected data vs usable disk").

No page's query repeats one made for an earlier page, so a running header gives one page its
topic, not every page. They feed the web UI's chips and `scent eval --synthetic` (scent.evaluate).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import cache
from itertools import chain

from .kinds import PICTURE_KINDS  # their text says what a picture shows (scent.describe's words first)
from .query import MARK_CLASS, _chunks, clean, is_id_like
from .stopwords import STOPWORDS
from .units import Suggestion, UnitRecord

MAX_PER_FILE = 5
MAX_PAGES = 50  # pages of a file that get queries of their own: the first ones
FILE, TOPIC, DETAIL, VISUAL = "file", "topic", "detail", "visual"  # a Suggestion's aspect
MAX_IDS = 2
MAX_PHRASES = 2
MAX_CHARS = 60
# Units holding text read from a picture (OCR or a description); an `image` unit only describes
# the file (name, folder, date, camera), which makes no example query.
PICTURE_TEXT_KINDS = frozenset({"ocr", "pdf_image", "docx_image", "slide_image", "notebook_image", "odt_image",
                                "epub_image"})
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
# A slide without a title is titled by its number, which names no topic.
_NUMBERED = re.compile(r"(?:slide|page) \d+", re.I)
# The kinds of picture scent.describe names, as a query says them, and how specific each is:
# the most specific one said is used ("bar chart" over "chart", "diagram" over "drawing").
# `True`: a picture of text, whose subject is the first line of words read in it.
PICTURE_KIND_WORDS = {
    "photo": (0, "photo", False), "drawing": (0, "drawing", False),
    "chart": (1, "chart", True), "diagram": (1, "diagram", True), "screenshot": (1, "screenshot", True),
    "document page": (1, "document page", True),
    "bar chart": (2, "bar chart", True), "line chart or graph": (2, "line chart", True),
    "labelled parts diagram with numbered callouts": (2, "parts diagram", True),
    "photo of a document": (2, "photo of a document", True), "calendar": (2, "calendar", True),
    "terminal": (2, "terminal", True), "chat messages": (2, "chat", True), "receipt": (2, "receipt", True),
}
# How scent.describe counts things ("three horses"); "a"/"an" start a single thing.
_COUNTS = frozenset("a an two three four five six seven eight nine ten many".split())
# The classifier's words start so ("a photo of a tiger cat"): the kind is said already.
_SAID_KIND = re.compile(r"a (?:photo|drawing) of ")
_BRACKETED = re.compile(r"\([^)]*\)|\[[^]]*\]")

# A letter: a word character that is no digit or underscore, or a combining mark (a Devanagari or
# Tamil vowel sign is part of its word, though not a word character to Python).
_LETTER = f"(?:[^\\W\\d_]|[{MARK_CLASS}])"
_WORD = re.compile(f"{_LETTER}+(?:['\u2019]{_LETTER}+)?")
# A whitespace-separated piece: leading punctuation, the word, trailing punctuation.
_PIECE = re.compile(f"([^\\w{MARK_CLASS}]*)(.*?)([^\\w{MARK_CLASS}]*)", re.S)
_FILE_NAME = re.compile(r"[\w.-]+\.[A-Za-z0-9]{1,5}")
_CODE = re.compile(r"[A-Za-z0-9]+(?:[-_./][A-Za-z0-9]+)*")
_SIZE = re.compile(r"\d+x\d+")


def suggestions(title: str, units: list[UnitRecord]) -> list[Suggestion]:
    """Example queries for one file: up to MAX_PER_FILE for the whole file (aspect `file`), best
    first, then a topic, a detail and a visual query for each of its first MAX_PAGES pages, where
    it has them. No text is in either part twice (compared without case); a page's query may
    repeat one of the file's, since each part is complete on its own (chips use both, an
    evaluation the pages')."""
    # Each text's phrases and codes are found once: a file without pages has the same text for
    # the whole file and its one page, and RAKE over a long file takes a good part of a second.
    phrases, codes = cache(key_phrases), cache(_ids)
    return ([Suggestion(text) for text in _file_queries(title, units, phrases, codes)]
            + _page_queries(title, units, phrases, codes))


def _file_queries(title: str, units: list[UnitRecord], phrases_of: Callable[[str], list[str]],
                  codes_of: Callable[[str], list[str]]) -> list[str]:
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
    for code in codes_of(text)[:MAX_IDS]:
        add(code)
    for phrase in phrases_of(text)[:MAX_PHRASES]:
        add(phrase)
    # From a picture's text only its codes: OCR garbles words ("I based segmentation letermine
    # markers") far more often than it garbles a whole code, and a chip must read as a query.
    for u in units:
        if u.kind in PICTURE_TEXT_KINDS:
            for code in codes_of(u.text)[:1]:
                add(code)
    return list(out.values())


def _page_queries(title: str, units: list[UnitRecord], phrases_of: Callable[[str], list[str]],
                  codes_of: Callable[[str], list[str]]) -> list[Suggestion]:
    """Each page's topic, detail and visual query, none repeating an earlier one."""
    pages: dict[int | None, list[UnitRecord]] = {}
    for u in units:
        if u.page in pages or len(pages) < MAX_PAGES:
            pages.setdefault(u.page, []).append(u)
    prose = {page: "\n".join(u.text for u in mine if u.kind not in NOT_PROSE) for page, mine in pages.items()}
    # How many pages hold each two- and three-word run: a detail is a phrase of one page alone.
    spread: dict[str, int] = {}
    if len(pages) > 1:
        for text in prose.values():
            for run in _runs(text):
                spread[run] = spread.get(run, 0) + 1
    out: list[Suggestion] = []
    used: set[str] = set()  # casefolded

    def first(*candidates: Iterable[str | None]) -> str | None:
        """The first candidate that is a useful query and not one made before (looked at lazily)."""
        for text in chain(*candidates):
            text = " ".join(text.split()) if text else ""
            if _useful(text) and text.casefold() not in used:
                used.add(text.casefold())
                return text
        return None

    for page, mine in pages.items():
        phrases = phrases_of(prose[page])
        headings = (u.title for u in mine if u.kind in HEADING_KINDS and u.title and u.title != title
                    and not _NUMBERED.fullmatch(u.title.strip()))
        codes = codes_of(prose[page]) + codes_of("\n".join(u.text for u in mine if u.kind in PICTURE_TEXT_KINDS))
        specific = (p for p in phrases if spread.get(p.casefold(), 1) == 1)
        read = "\n".join(u.text for u in mine if u.kind == "ocr")  # a picture file's text is a unit apart
        pictures = (_picture_query(u.text, read if u.kind == "image" else "") for u in mine if u.kind in PICTURE_KINDS)
        for aspect, text in ((TOPIC, first(headings, phrases)), (DETAIL, first(codes, specific)),
                             (VISUAL, first(pictures))):
            if text:
                out.append(Suggestion(text, page, aspect))
    return out


def _picture_query(text: str, read: str = "") -> str | None:
    """A query for the picture a unit's `text` describes: "photo, seven umbrellas, a yellow
    umbrella, blue, sky" -> "photo of seven umbrellas"; "chart, bar chart, white\nmarlin: data vs
    disk (TB)\n16" -> "bar chart marlin: data vs disk". The lines after the first are the words
    read in it; `read` stands in for them when they are kept apart (a picture file's OCR unit).
    None when the text names no kind of picture (a picture file's name, folders and size) or the
    picture has no subject to name."""
    first, _, rest = text.partition("\n")
    items = [item.strip() for item in first.split(",") if item.strip()]
    kinds = [PICTURE_KIND_WORDS[item.casefold()] for item in items if item.casefold() in PICTURE_KIND_WORDS]
    if not kinds:
        return None
    _, kind, of_text = max(kinds, key=lambda k: k[0])  # the first of the most specific
    thing = next((item for item in items if item.split()[0].casefold() in _COUNTS), None)
    if thing:
        return f"{kind} of {_SAID_KIND.sub('', thing, count=1)}"
    line = _first_line_of_words(rest or read) if of_text else None
    if not line:
        return None
    words, shown = line.split(), kind
    for word in words:  # as many words as fit a query
        if len(shown) + 1 + len(word) > MAX_CHARS:
            break
        shown += " " + word
    return shown if shown != kind else None


def _first_line_of_words(text: str) -> str | None:
    """The first line of `text` with two words of three letters or more, and words for at least
    half of its pieces (an axis of numbers, or OCR's noise, is no caption); bracketed asides out."""
    for line in text.splitlines():
        line = " ".join(_BRACKETED.sub(" ", line).split()).strip(" ,;:-")
        pieces = line.split()
        words = [p for p in pieces if _WORD.search(p)]
        if sum(len(w) >= 3 for w in _WORD.findall(line)) >= 2 and 2 * len(words) >= len(pieces):
            return line
    return None


def _runs(text: str) -> set[str]:
    """The casefolded two- and three-word runs of `text`'s words, as key_phrases joins them."""
    words = [w.casefold() for w in _WORD.findall(clean(text))]
    return {" ".join(words[i:i + n]) for n in (2, 3) for i in range(len(words) - n + 1)}


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
