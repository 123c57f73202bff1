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


def components(path: str, text: str, top: str, what: str) -> tuple[list, str | None]:
    """The file's top-level components (VCALENDAR or VCARD), and a note when only a first part
    could be read. ExtractError when nothing can be, or the file is not `what` at all."""
    import vobject  # only a folder with calendars or contacts pays for its import

    # Each skipped line would be an ERROR on stderr; it is a line of a file, not a fault of scent.
    logging.getLogger("vobject.base").setLevel(logging.CRITICAL)
    if not text.lstrip("\ufeff \t\r\n").upper().startswith(f"BEGIN:{top}"):
        raise ExtractError(path, f"not {what} (it does not begin with BEGIN:{top})")
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
