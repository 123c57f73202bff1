"""Kindle's `My Clippings.txt`: the highlights and notes of every book read on the device, in one
file. Each entry is a section of its own, titled by its book ("The Salt Path (Raynor Winn)") and
dated when it was added; its text the highlight, a note's "note: ...". A bookmark holds no text
and is left out. Read as one text, a highlight's result named no book, its snippet ran from one
book into the next, and the file was among the first five results of most questions asked of a
vault that held it.

The device writes each entry as the book's line, a line of what it is and where ("- Your
Highlight on page 12 | Location 180-182 | Added on Monday, 3 March 2025 10:21:33", in the
device's language), a blank line, the text, and a line of ten = signs.
"""
from __future__ import annotations

import re

from scent.dates import from_datetime
from scent.units import Extracted, Section
from .base import Limits, read_text

FILE_NAME = "my clippings.txt"  # read by this module by its name, not its extension
KIND = "text"
VERSION = 1
_END = re.compile(r"^=+[ \t]*$", re.M)
_NOTE = re.compile(r"\b(note|notiz|nota)\b", re.I)  # English, German; Spanish, Italian, Portuguese
_HIGHLIGHT = re.compile(r"highlight|markierung|subrayado|evidenziazione|destaque", re.I)


def extract(path: str, limits: Limits) -> Extracted:
    text, encoding = read_text(path, limits)
    sections = []
    at = 0
    for m in [*_END.finditer(text), None]:
        end = m.start() if m else len(text)
        entry, start = text[at:end], at
        at = m.end() if m else len(text)
        lines = entry.strip("\n").split("\n")
        if len(lines) < 3:  # a bookmark: the book and where, no text
            continue
        book, where = lines[0].strip().lstrip("\ufeff"), lines[1]
        body = "\n".join(lines[2:]).strip()
        if not body:
            continue
        said = f"note: {body}" if _NOTE.search(where) and not _HIGHLIGHT.search(where) else body
        sections.append(Section(text=said, kind="text", title=book, start=start + entry.find(body),
                                date=_added(where)))
    return Extracted(kind="text", sections=sections, title="Kindle clippings", meta={"encoding": encoding})


def _added(where: str) -> float | None:
    """When the entry was added: the last part of its second line, in the device's language
    ("Added on Monday, 3 March 2025 10:21:33"); None when no date can be read from it."""
    from dateutil import parser

    part = where.rsplit("|", 1)[-1]
    try:
        return from_datetime(parser.parse(part, fuzzy=True))
    except (ValueError, OverflowError):
        return None
