"""Split sections into units: chunks of at most `words` words, overlapping by `overlap` words.

A chunk never crosses a section boundary (a page, a heading's body, a table), so a unit keeps
one page number and one title.
"""
from __future__ import annotations

import re

from .units import Section, Unit

_WORD = re.compile(r"\S+")
# Pictures and pages are one unit each whatever their text length: a page is the answer unit.
UNSPLIT_KINDS = frozenset({"image", "pdf_image", "docx_image"})


def chunk(sections: list[Section], words: int = 180, overlap: int = 30) -> list[Unit]:
    if words < 1 or not 0 <= overlap < words:
        raise ValueError(f"need words >= 1 and 0 <= overlap < words, got {words=}, {overlap=}")
    units: list[Unit] = []
    for sec in sections:
        spans = [m.span() for m in _WORD.finditer(sec.text)]
        if not spans:
            if sec.kind == "pdf_page":  # an empty page is still a page (pictures come later)
                units.append(Unit(sec.kind, "", sec.page, sec.start, sec.start, sec.title))
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
            units.append(Unit(sec.kind, sec.text[a:b], sec.page, sec.start + a, sec.start + b, sec.title))
    return units
