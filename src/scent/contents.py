"""What a file's own list of its parts points to: a deck's agenda slide names the titles of other
slides, a PDF's contents page names its sections' headings and page numbers.

Such a page is a short list of every topic, so it sits near any question about the file by meaning
and often wins the file's page; scent.search shows the part it names instead (`targets`)."""
from __future__ import annotations

import re
from collections import Counter

from .storage import StoredUnit

# A list naming at least this many of the file's other parts is its agenda or contents.
CONTENTS_LINES = 3
_AGENDA_LINE_WORDS = 6
# A contents line: an optional number ("3.", "2.1", "IV", "Chapter 3:"), the heading, then a leader
# (dots, or a gap) and the page number it is printed on.
_CONTENTS_LINE = re.compile(
    r"^(?:(?:chapter|section|part)\s+)?(?:(?:\d+(?:\.\d+)*|[ivxlc]+)[.):]?\s+)?"
    r"(?P<title>\S.*?)\s*(?:[.\u00b7\u2026_\s]{2,}|\s)(?P<page>\d{1,4})$", re.IGNORECASE)
_NUMBERING = re.compile(r"^(?:(?:chapter|section|part)\s+)?(?:\d+(?:\.\d+)*|[ivxlc]+)[.):]?\s+", re.IGNORECASE)
# A page's heading is among its first lines (a running header may stand above it).
_HEADING_LINES = 4


def may_list(unit: StoredUnit) -> bool:
    """Whether `unit` looks like an agenda slide or a contents page (before its file is read)."""
    if unit.kind == "slide":
        lines = _lines(unit.text)[1:]  # below the slide's title
        return len(lines) >= CONTENTS_LINES and all(len(line.split()) <= _AGENDA_LINE_WORDS for line in lines)
    if unit.kind == "pdf_page":
        return sum(bool(_CONTENTS_LINE.match(line)) for line in _lines(unit.text)) >= CONTENTS_LINES
    return False


def targets(unit: StoredUnit, parts: list[StoredUnit]) -> list[tuple[str, StoredUnit]]:
    """(title, part) for each part of the file that `unit` lists, in its order, where `unit` is an
    agenda slide or a contents page naming at least CONTENTS_LINES of them; [] otherwise. `parts`:
    the file's units in reading order."""
    if not may_list(unit):
        return []
    return _agenda(unit, parts) if unit.kind == "slide" else _contents(unit, parts)


def _agenda(unit: StoredUnit, parts: list[StoredUnit]) -> list[tuple[str, StoredUnit]]:
    lines = _lines(unit.text)[1:]
    titled = {o.title.strip().lower(): o for o in reversed(parts)
              if o.id != unit.id and o.kind == "slide" and o.title.strip()}
    named = [(line, titled[line.lower()]) for line in lines if line.lower() in titled]
    return named if len(named) >= CONTENTS_LINES else []


def _contents(unit: StoredUnit, parts: list[StoredUnit]) -> list[tuple[str, StoredUnit]]:
    entries = [(m["title"], int(m["page"])) for m in map(_CONTENTS_LINE.match, _lines(unit.text)) if m]
    pages = {o.page: o for o in parts if o.kind == "pdf_page" and o.id != unit.id and o.page}
    headed = {}  # a heading -> the first page after the contents that starts with it
    for number in sorted(pages):
        if number > (unit.page or 0):
            for line in _lines(pages[number].text)[:_HEADING_LINES]:
                headed.setdefault(_heading(line), pages[number])
    found = [(title, printed, headed.get(_heading(title))) for title, printed in entries]
    if sum(part is not None for _, _, part in found) < CONTENTS_LINES:
        return []  # lines ending in numbers, but not the headings of the pages after them
    # A heading not found (worded otherwise on its page) is at its printed number, moved as the found
    # ones are (a title page and contents before page 1).
    shift = Counter(part.page - printed for _, printed, part in found if part is not None).most_common(1)[0][0]
    return [(title, part if part is not None else pages.get(printed + shift))
            for title, printed, part in found if part is not None or printed + shift in pages]


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.split("\n") if line.strip()]


def _heading(line: str) -> str:
    return " ".join(_NUMBERING.sub("", line.strip()).lower().split())
