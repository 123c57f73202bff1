"""Reading iCalendar and vCard text (ical.py, vcard.py) with vobject, so that bad input loses only
itself: lines vobject cannot read are skipped, and a file damaged or cut short is read up to its
last complete entry, with a note of what was left out.

Values are not converted (transform=False): a date written wrong or a time zone vobject does not
know would otherwise fail the whole file; the readers read the values they use themselves."""
from __future__ import annotations

import logging
import re

from scent.errors import ExtractError
from scent.units import Section
from .base import Limits, laid_out

_ENTRY_END = re.compile(r"^END:(VEVENT|VTODO|VJOURNAL|VCARD)[ \t]*\r?$", re.M | re.I)
# Text properties whose commas vobject reads as a list's, keeping the first item alone ("Parents
# evening, Year 5" was "Parents evening"; a note lost all after its first comma). The standards
# want "\," there, but many calendars and cards leave them bare. Not the ones whose commas part
# values (CATEGORIES, RRULE's BYDAY=MO,WE, EXDATE's dates): those are read as lists.
_TEXT_PROPERTIES = frozenset({"SUMMARY", "DESCRIPTION", "LOCATION", "COMMENT", "CONTACT", "X-WR-CALNAME",
                              "X-WR-CALDESC", "FN", "NOTE", "TITLE", "ROLE", "LABEL", "NICKNAME"})
_PROPERTY = re.compile(r"(?:[A-Za-z0-9-]+\.)?([A-Za-z0-9-]+)[;:]")
_BARE_COMMA = re.compile(r"(\\*),")


def components(path: str, text: str, top: str, what: str) -> tuple[list, str | None]:
    """The file's top-level components (VCALENDAR or VCARD), and a note when only a first part
    could be read. ExtractError when nothing can be, or the file is not `what` at all."""
    import vobject  # only a folder with calendars or contacts pays for its import

    # Each skipped line would be an ERROR on stderr; it is a line of a file, not a fault of scent.
    logging.getLogger("vobject.base").setLevel(logging.CRITICAL)
    if not text.lstrip("\ufeff \t\r\n").upper().startswith(f"BEGIN:{top}"):
        raise ExtractError(path, f"not {what} (it does not begin with BEGIN:{top})")
    text = _commas_escaped(text)
    try:
        return list(vobject.readComponents(text, transform=False, ignoreUnreadable=True)), None
    except Exception as e:  # noqa: BLE001 - vobject raises its own errors and plain ones
        reason = f"{type(e).__name__}: {e}"
        ends = list(_ENTRY_END.finditer(text))
        if ends:
            kept = text[:ends[-1].end()] + ("\nEND:VCALENDAR\n" if top == "VCALENDAR" else "\n")
            try:
                found = list(vobject.readComponents(kept, transform=False, ignoreUnreadable=True))
            except Exception:  # noqa: BLE001
                found = []
            if found:
                line = text.count("\n", 0, ends[-1].end()) + 1
                return found, f"the file is damaged or cut short after line {line}; the rest was not read ({reason})"
        raise ExtractError(path, f"not readable as {what} ({reason}); it may be damaged or cut short") from None


def _commas_escaped(text: str) -> str:
    """`text` with the bare commas of text properties' values escaped (_TEXT_PROPERTIES), folded
    lines included. A comma after an odd number of backslashes is escaped already."""
    if "," not in text:
        return text
    lines = text.splitlines(keepends=True)
    in_text = False
    for n, line in enumerate(lines):
        if line[:1] in (" ", "\t"):  # a folded line goes on with the one before
            value_at = 1
        else:
            m = _PROPERTY.match(line)
            in_text = bool(m) and m.group(1).upper() in _TEXT_PROPERTIES
            value_at = _value_start(line) if in_text else -1
        if in_text and value_at >= 0 and "," in line[value_at:]:
            lines[n] = line[:value_at] + _BARE_COMMA.sub(_escape, line[value_at:])
    return "".join(lines)


def _value_start(line: str) -> int:
    """Where a content line's value begins: after the first colon outside a quoted parameter."""
    quoted = False
    for i, ch in enumerate(line):
        if ch == '"':
            quoted = not quoted
        elif ch == ":" and not quoted:
            return i + 1
    return -1


def _escape(m: re.Match) -> str:
    return m.group(0) if len(m.group(1)) % 2 else m.group(1) + "\\,"


def numbered(entries: list, say, kind: str, limits: Limits, noun: str, meta: dict,
             dated=lambda entry: None, until=lambda entry: None) -> list[Section]:
    """One section per entry (an event, a card), numbered as its page, titled by its first line,
    dated by `dated` (None: the file's date) and lasting `until` (Section.until); past
    limits.max_sections the rest is left out, and meta["truncated"] says so."""
    if len(entries) > limits.max_sections:
        meta["truncated"] = f"only the first {limits.max_sections} of {len(entries)} {noun} were read"
    kept = entries[:limits.max_sections]
    return laid_out([Section(text=text, kind=kind, page=number, title=text.split("\n", 1)[0], date=dated(entry),
                             until=until(entry))
                     for number, (text, entry) in enumerate(zip(map(say, kept), kept), start=1)])
