"""Split sections into units: chunks of at most `words` words, overlapping by `overlap` words.

A chunk never crosses a section boundary (a page, a heading's body, a table), so a unit keeps
one page number and one title.
"""
from __future__ import annotations

import re
from itertools import islice

from .kinds import PICTURE_KINDS
from .units import Section, Unit

# Chinese and Japanese are written without spaces, so each of their characters counts as a word
# (about a token to the model); otherwise a whole paragraph, or file, was one word and one unit.
# Korean puts spaces between words, so Hangul is not here.
CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f"
# A run of non-space characters longer than this counts as several words (a URL, base64, a
# minified line): a 50 MB file without a space was one unit, and one embedding of hours.
LONGEST_WORD = 20
_WORD = re.compile(rf"[{CJK}]|[^\s{CJK}]{{1,{LONGEST_WORD}}}")
_LONG_RUN = re.compile(rf"[^\s{CJK}]{{{LONGEST_WORD + 1},}}")
# Pictures and pages are one unit each whatever their text length: a page is the answer unit.
UNSPLIT_KINDS = frozenset(PICTURE_KINDS)


def wordless(text: str) -> bool:
    """Whether most of `text` is runs too long to be words (base64, minified code, a hex dump).

    Why it matters: such text costs the model 2-3 times a unit of prose (each character is a
    token or two) and answers no question in words, so a file of it keeps only a few units."""
    return 2 * sum(len(m) for m in _LONG_RUN.findall(text)) > len(text)


# A line that starts with a date and time (ISO 8601, syslog's "Mar  4 10:01:02", a bare time), as a log's do.
_STAMPED = re.compile(r"\[?(?:\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}|[A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2}|\d{2}:\d{2}:\d{2})")


def log_lines(text: str) -> bool:
    """Whether most of `text`'s lines (five or more) are time-stamped records, as a log's are.

    Why it matters: a log's lines are records, like a table's rows, not sentences; a vector for
    each (up to 24 a unit) made a 1.6 MB server log 20,000 embeddings, about half an hour."""
    lines = [line for line in text.splitlines() if line.strip()]
    return len(lines) >= 5 and 2 * sum(bool(_STAMPED.match(line.lstrip())) for line in lines) > len(lines)


def chunk(sections: list[Section], words: int = 180, overlap: int = 30, max_units: int | None = None) -> list[Unit]:
    """The units of `sections`, in reading order; at most `max_units` of them (the first ones),
    and the words of a section are looked at only as far as those units reach."""
    if words < 1 or not 0 <= overlap < words:
        raise ValueError(f"need words >= 1 and 0 <= overlap < words, got {words=}, {overlap=}")
    units: list[Unit] = []
    for sec in sections:
        room = None if max_units is None else max_units - len(units)
        if room is not None and room <= 0:
            break
        # Enough words for `room` full windows; a picture is one unit of all its words.
        need = None if room is None or sec.kind in UNSPLIT_KINDS else (room - 1) * (words - overlap) + words + 1
        spans = [m.span() for m in islice(_WORD.finditer(sec.text), need)]
        if not spans:
            if sec.kind == "pdf_page":  # an empty page is still a page (pictures come later)
                units.append(Unit(sec.kind, "", sec.page, sec.start, sec.start, sec.title, date=sec.date,
                                  until=sec.until))
            continue
        if sec.kind in UNSPLIT_KINDS or len(spans) <= words:
            windows = [(0, len(spans))]
        else:
            step = words - overlap
            windows = []
            for first in range(0, len(spans), step):
                last = min(first + words, len(spans))
                windows.append((first, last))
                if last == len(spans):
                    break
        for first, last in windows:
            a, b = spans[first][0], spans[last - 1][1]
            units.append(Unit(sec.kind, sec.text[a:b], sec.page, sec.start + a, sec.start + b, sec.title,
                              picture=sec.picture, date=sec.date, until=sec.until,
                              line=None if sec.line is None else sec.line + sec.text.count("\n", 0, a)))
    return units[:max_units]


# Sentence ends: . ! ? and the Devanagari danda, before a space; and line breaks (list items,
# headings). Abbreviations split wrongly cost only a shorter part.
_SENTENCE_END = re.compile(r"(?<=[.!?\u0964])\s+|\n+")
MIN_PART_WORDS = 4  # shorter pieces join the next one ("- Water:" + what follows)
MAX_PARTS = 24  # sentences embedded per unit; a longer unit's later sentences rely on its own vector
PART_KINDS = frozenset({"text", "html", "docx", "pdf_page", "ocr", "slide", "odt", "rtf", "epub", "email"})


def sentences(text: str) -> list[str]:
    """The unit's sentences as extra vectors for dense search, or [] when it has only one.

    Why: a chunk's single vector averages its topics, and the small multilingual model loses a
    cross-language match in that average (an English query about neem oil on jasmine scored a
    Tamil garden note 0.78 against 0.82 for an unrelated English note, while the note's own
    sentence about it scored 0.81). Scoring a unit by its best sentence finds it; see
    docs/retrieval-tuning.md for the measurement that made this the default.
    """
    parts, pending = [], ""
    for piece in _SENTENCE_END.split(text):
        piece = piece.strip()
        if not piece:
            continue
        pending = f"{pending} {piece}" if pending else piece
        if len(pending.split()) >= MIN_PART_WORDS:
            parts.append(pending)
            pending = ""
    if pending:
        if parts:
            parts[-1] = f"{parts[-1]} {pending}"
        else:
            parts.append(pending)
    return parts[:MAX_PARTS] if len(parts) > 1 else []



# Regions: the places of a page or picture that a query may be about on their own (a chart's
# title, an axis label, a caption, a table row, one part of a picture's description). Each gets
# a vector of its own in the `regions` field, and late interaction (scent.multivector) scores a
# page by how well each query vector meets its best region. They come from the lines the text
# layer, OCR and scent.describe already give, one per line; short lines join the next up to
# MIN_REGION_WORDS (an OCR'd "62%" alone means nothing to the model), long ones are cut.
REGION_KINDS = frozenset({"pdf_page", "ocr", "pdf_image", "image", "docx_image", "slide", "slide_image",
                          "notebook_image", "odt_image", "epub_image"})
MIN_REGION_WORDS = 3
MAX_REGION_WORDS = 24
MAX_REGIONS = 32  # a page's later regions rely on its own vector and its sentences'
# A line of a picture description is a list of short phrases ("chart, bar chart, blue, white");
# it is split at its commas, so each thing said of the picture is a region of its own.
_LIST_PART = re.compile(r",\s+")


def regions(text: str) -> list[str]:
    """The unit's regions, in reading order, at most MAX_REGIONS; [] when it has no words."""
    pieces: list[tuple[str, str]] = []  # (text, what joins it to a short piece before it)
    for line in text.split("\n"):
        line = " ".join(line.split())
        if not line:
            continue
        parts = _LIST_PART.split(line)
        if len(parts) >= 3 and max(len(p.split()) for p in parts) <= 6:
            pieces.extend((p, ", ") for p in parts)
        else:
            words = line.split()
            pieces.extend((" ".join(words[i:i + MAX_REGION_WORDS]), " ")
                          for i in range(0, len(words), MAX_REGION_WORDS))
    out, pending, lead = [], "", " "
    for piece, joiner in pieces:
        if not pending:
            lead = joiner
        pending = f"{pending}{joiner}{piece}" if pending else piece
        if len(pending.split()) >= MIN_REGION_WORDS:
            out.append(pending)
            pending = ""
    if pending:
        if out and len(out[-1].split()) + len(pending.split()) <= MAX_REGION_WORDS:
            out[-1] = f"{out[-1]}{lead}{pending}"
        else:
            out.append(pending)
    return out[:MAX_REGIONS]
