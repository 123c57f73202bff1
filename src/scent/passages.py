"""Units back into readable passages: overlapping chunks merged, and passages sized to a token
budget, cited by path and page. What `scent context`, MCP `fetch` and `context` hand an LLM.

Chunks of one section overlap by `chunk_overlap` words, so joining them repeats text; their
character spans (start, end) say exactly how much. Pages and pictures never overlap anything.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from .kinds import place
from .storage import StoredUnit

# Picture units and OCR text are their own passages (their spans do not point into the text).
_OWN_TEXT = ("pdf_page", "text", "code", "html", "docx", "odt", "rtf", "epub", "email", "csv", "json", "sheet",
             "slide", "calendar", "contacts")


def estimate_tokens(text: str) -> int:
    """About how many tokens an LLM reads for `text`, erring high: 4 ASCII characters a token
    (the usual rule for English BPE), and a token for every other character (CJK and Indic text
    run near one a character; accented Latin letters are overcounted)."""
    ascii_chars = sum(ch < "\x80" for ch in text)
    return math.ceil(ascii_chars / 4 + (len(text) - ascii_chars))


@dataclass
class Passage:
    """One cited passage of a file: a unit, or overlapping chunks of one merged."""

    path: str
    page: int | None
    kind: str            # the units' kind
    title: str
    start: int
    end: int
    text: str
    unit_ids: list[int]
    score: float = 0.0
    confidence: float | None = None  # its file's, as a search weighs it (search.best_units)
    weak: bool = False


@dataclass
class Context:
    """`scent context`: the passages chosen for `query` within about `tokens` tokens."""
    query: str
    tokens: int
    passages: list[Passage]
    corrected: dict[str, str] = field(default_factory=dict)  # misspelt word -> the word searched (scent.spelling)
    translation: str = ""  # the query machine-translated into English and searched too (scent.translate)

    @property
    def text(self) -> str:
        return render(self.passages)

    def to_dict(self) -> dict:
        out = {"query": self.query, "budget": self.tokens, "tokens": estimate_tokens(self.text),
               "passages": [{"path": p.path, "page": p.page, "title": p.title, "score": round(p.score, 4),
                             "confidence": p.confidence, "weak": p.weak, "unit_ids": p.unit_ids, "text": p.text}
                            for p in self.passages],
               "text": self.text}
        if self.translation:
            out["translation"] = self.translation
        return {**out, "corrected": self.corrected} if self.corrected else out


def merge(units: list[StoredUnit]) -> list[Passage]:
    """`units` (of any files) as passages: per file, page and kind, units whose spans overlap or
    touch become one, their shared words written once. In reading order."""
    out: list[Passage] = []
    # Text of every kind in reading order (a notebook's markdown, then its code); pictures and OCR after.
    for u in sorted(units, key=lambda u: (u.path, u.page or 0, u.kind not in _OWN_TEXT, u.start, u.kind, u.end)):
        last = out[-1] if out else None
        if (last is not None and u.kind in _OWN_TEXT and (last.path, last.page, last.kind) == (u.path, u.page, u.kind)
                and u.start <= last.end):
            if u.end > last.end:
                last.text += u.text[last.end - u.start:]
                last.end = u.end
            last.unit_ids.append(u.id)
            continue
        out.append(Passage(u.path, u.page, u.kind, u.title, u.start, u.end, u.text, [u.id]))
    return out


def file_text(units: list[StoredUnit]) -> tuple[str, dict[int, int]]:
    """A file's text from its units, each passage once (pages headed `[page N]`, pictures' words
    `[picture] ...`), and where each unit's passage starts in it."""
    parts, where, at = [], {}, 0
    starts = {u.id: u.start for u in units}
    for p in merge(units):
        if not p.text.strip():
            continue
        head = f"[page {p.page}] " if p.kind == "pdf_page" and p.page is not None else ""
        if p.kind == "ocr":
            head += "[text in a picture] "
        elif p.kind not in _OWN_TEXT:
            head += "[picture] "
        piece = head + p.text.strip()
        lead = len(head) - (len(p.text) - len(p.text.lstrip()))
        # Merged units start inside their passage, where their span says (shared words written once).
        # (the first at the passage's head: "[page 4] ...")
        where.update((uid, at + max(0, lead + starts[uid] - p.start) if starts[uid] > p.start else at)
                     for uid in p.unit_ids)
        parts.append(piece)
        at += len(piece) + 2
    return "\n\n".join(parts), where


# A unit's kind -> the kind of the file it is a part of, where the file's kind names its numbered parts.
_FILE_OF = {"slide": "slides", "email": "email", "calendar": "calendar", "contacts": "contacts"}


def cite(p: Passage) -> str:
    """"notes/lease.pdf, page 4 (Deposit)": where a passage is, for a reader to check it; a part
    that is no page is named as a result names it ("inbox.mbox, message 3", "deck.pptx, slide 2")."""
    if p.page is None:
        where = p.path
    else:
        said = place(_FILE_OF.get(p.kind, ""), p.page)
        where = f"{p.path}, {said}" if not said.startswith("p.") else f"{p.path}, page {p.page}"
    return where + (f" ({p.title})" if p.title and p.title not in p.path else "")


def once(passages: list[Passage]) -> list[Passage]:
    """`passages` (best first) without those whose words an earlier one already gives: a copy of
    its file, a paragraph of boilerplate. They would spend the budget on nothing new."""
    seen: set[str] = set()
    out = []
    for p in passages:
        if p.text not in seen:
            seen.add(p.text)
            out.append(p)
    return out


def budget(passages: list[Passage], tokens: int) -> list[Passage]:
    """The first passages (best first) that fit in `tokens` with their citations; the first one
    that does not fit is cut at a word, when enough room is left for it to say something."""
    chosen, left = [], tokens
    for p in passages:
        cost = estimate_tokens(f"[00] {cite(p)}\n\n") + estimate_tokens(p.text)
        if cost <= left:
            chosen.append(p)
            left -= cost
            continue
        room = left - estimate_tokens(f"[00] {cite(p)}\n\n …")
        if room >= 40:  # fewer words than a sentence or two are noise
            cut = _cut(p.text, room)
            chosen.append(Passage(p.path, p.page, p.kind, p.title, p.start, p.start + len(cut), cut + " …",
                                  p.unit_ids, p.score))
        break
    return chosen


def _cut(text: str, tokens: int) -> str:
    """The longest start of `text`, ending at a space, of at most `tokens` estimated tokens."""
    lo, hi = 0, len(text)
    while lo < hi:  # the estimate grows with length: a binary search finds the end
        mid = (lo + hi + 1) // 2
        if estimate_tokens(text[:mid]) <= tokens:
            lo = mid
        else:
            hi = mid - 1
    space = text.rfind(" ", 0, lo + 1)
    return text[:space if space > lo // 2 else lo].rstrip()


def render(passages: list[Passage]) -> str:
    """The passages as text to paste into a prompt: each cited, numbered, best first."""
    return "\n\n".join(f"[{n}] {cite(p)}\n{p.text.strip()}" for n, p in enumerate(passages, start=1))
