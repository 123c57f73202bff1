"""Calendars (.ics): one unit per event, to-do or journal entry, numbered as its page and dated
by when it happens (its start, or a to-do's due date). An entry that lasts past its start, or repeats, also carries the last moment it covers
(Section.until: the end of its last occurrence, or open for a series without end), so that
`after:2026` still finds the yearly check-up first held in 2025. An event says what, when (in
words: "Friday 14 March 2025 (2025-03-14) 09:30-10:00 UTC, every year"), where, who organises and
attends, and its notes, so "dentist in March" or "the trip with Ana" finds it; the calendar's name
is the file's title.

Parsed by vobject (line folding, escapes, parameters; scent.extract.vtext); dates are read here,
in the simple forms RFC 5545 allows, so a date written wrong costs only itself."""
from __future__ import annotations

import datetime as dt
import re
from typing import NamedTuple

from scent.dates import in_words
from scent.kinds import UNTIL_OPEN
from scent.units import Extracted
from .base import Limits, read_text
from .vtext import components, numbered

EXTENSIONS = (".ics", ".ical")
VERSION = 2  # 2: a bare comma no longer ends a text (vtext._commas_escaped)
_ENTRIES = {"VEVENT": "", "VTODO": "to do: ", "VJOURNAL": "journal: "}
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_STAMP = re.compile(r"^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})?(Z)?)?$")
_EVERY = {"DAILY": "every day", "WEEKLY": "every week", "MONTHLY": "every month", "YEARLY": "every year"}
# A series of more occurrences (COUNT) is taken as open-ended rather than counted out: dateutil
# steps through each one (~2 ms a thousand), and a calendar may hold max_sections such series.
MAX_COUNTED = 1_000


def _when(line) -> tuple[dt.date, str, str] | None:
    """(the day, its time "09:30" or "" for a whole day, the zone " UTC" or "") of a DTSTART, DTEND or DUE line."""
    return _stamped(str(line.value), "".join(line.params.get("TZID", ())[:1]))


def _stamped(value: str, tzid: str = "") -> tuple[dt.date, str, str] | None:
    """_when of a date or date-time as written (a property's value, an RRULE's UNTIL)."""
    m = _STAMP.match(value.strip())
    if not m:
        return None
    try:
        day = dt.date(int(m[1]), int(m[2]), int(m[3]))
        if m[4] is None:
            return day, "", ""
        dt.time(int(m[4]), int(m[5]))
    except ValueError:
        return None
    zone = " UTC" if m[7] else f" {tzid}" if tzid else ""
    return day, f"{m[4]}:{m[5]}", zone


def _said(day: dt.date, time: str = "", zone: str = "") -> str:
    return " ".join(filter(None, (_WEEKDAYS[day.weekday()], in_words(day), time))) + (zone if time else "")


def _span(entry) -> str:
    start = _when(entry.dtstart) if hasattr(entry, "dtstart") else None
    end = _when(entry.dtend) if hasattr(entry, "dtend") else None
    due = _when(entry.due) if hasattr(entry, "due") else None
    parts = []
    if start:
        day, time, zone = start
        if end and end[0] == day and end[1] and time:
            parts.append(_said(day, f"{time}-{end[1]}", zone))
        else:
            parts.append(_said(*start))
            # A whole-day event's DTEND is the day after its last.
            if end and end[0] > day + dt.timedelta(days=0 if end[1] else 1):
                parts.append(f"to {_said(*end) if end[1] else _said(end[0] - dt.timedelta(days=1))}")
    if due:
        parts.append(f"due {_said(*due)}")
    if rule := _rule(entry):
        freq = re.search(r"FREQ=(\w+)", rule.text)
        every = _EVERY.get(freq[1], "repeating") if freq else "repeating"
        last = _stamped(rule.until) if rule.until else None
        parts.append(f"{every} until {_said(last[0])}" if last else f"{every}, {rule.count} times" if rule.count else every)
    return ", ".join(parts)


class _Rule(NamedTuple):
    """A repeating entry's RRULE as written, with its UNTIL and COUNT (None where it has none)."""
    text: str
    until: str | None
    count: int | None


def _rule(entry) -> _Rule | None:
    if not hasattr(entry, "rrule"):
        return None
    text = str(entry.rrule.value)
    until = re.search(r"UNTIL=([^;]+)", text)
    count = re.search(r"COUNT=(\d+)", text)
    return _Rule(text, until[1] if until else None, int(count[1]) if count else None)


def _moment(day: dt.date, time: str, zone: str) -> dt.datetime:
    """A DTSTART's (DTEND's, DUE's, UNTIL's) moment: in UTC that instant; any other is read as this
    machine's local time, as a date filter's day is (a named zone would move it by hours, and
    filters go by days)."""
    hour, minute = map(int, time.split(":")) if time else (0, 0)
    return dt.datetime(day.year, day.month, day.day, hour, minute, tzinfo=dt.timezone.utc if zone == " UTC" else None)


def _stamp(moment: dt.datetime) -> float | None:
    try:
        return moment.timestamp()
    except (OverflowError, OSError, ValueError):  # a year this platform's clock cannot say
        return None


def _date(entry) -> float | None:
    """When an entry happens, as a UNIX time: its start, else (a to-do) when it is due."""
    for name in ("dtstart", "due"):
        when = _when(getattr(entry, name)) if hasattr(entry, name) else None
        if when:
            return _stamp(_moment(*when))
    return None


def _until(entry) -> float | None:
    """The last moment an entry covers, where that is after its start (Section.until): the end of a
    repeating event's last occurrence (UNTIL_OPEN for a series without COUNT or UNTIL), else the
    end of the event itself or a started to-do's due time. None: it happens at its date."""
    start = _when(entry.dtstart) if hasattr(entry, "dtstart") else None
    if start is None:
        return None
    begin = _moment(*start)
    length = dt.timedelta(0)
    for name in ("dtend", "due"):
        when = _when(getattr(entry, name)) if hasattr(entry, name) else None
        if when:
            # A DTEND is the first moment after the event (a whole day's, the next day's start).
            end = _moment(*when) - (dt.timedelta(seconds=1) if name == "dtend" else dt.timedelta(0))
            # One end in UTC and the other in local time: the hours apart do not matter to a day.
            length = max(end.replace(tzinfo=None) - begin.replace(tzinfo=None), dt.timedelta(0))
            break
    last = begin
    if rule := _rule(entry):
        last = _last_occurrence(rule, begin)
        if last is None:
            return UNTIL_OPEN
    stop, at = _stamp(last + length), _stamp(begin)
    return stop if stop is not None and at is not None and stop > at else None


def _last_occurrence(rule: _Rule, begin: dt.datetime) -> dt.datetime | None:
    """The start of the last occurrence of a series that begins at `begin`, or None when it has
    no end (or more than MAX_COUNTED occurrences). An UNTIL is taken as the series' last start
    (its true last falls within one period before it; filters go by days); a COUNT is counted out
    by dateutil. A rule that cannot be read counts as happening once."""
    if rule.until is not None:
        when = _stamped(rule.until)
        if when is None:
            return begin
        day, time, zone = when
        if not time:  # an UNTIL day includes that day
            return _moment(day, "", zone) + dt.timedelta(days=1, seconds=-1)
        return _moment(*when)
    if rule.count is None or rule.count > MAX_COUNTED:
        return None
    from dateutil.rrule import rrulestr

    try:
        occurrences = list(rrulestr(rule.text, dtstart=begin))
    except (ValueError, TypeError, OverflowError):
        return begin
    return occurrences[-1] if occurrences else begin


def _person(line) -> str:
    """"Dr. Ana Costa <ana@harbourdental.example>" from an ORGANIZER or ATTENDEE line."""
    address = re.sub(r"(?i)^mailto:", "", str(line.value)).strip()
    name = " ".join(line.params.get("CN", ())).strip().strip('"')
    return f"{name} <{address}>" if name and address else name or address


def _text(entry) -> str:
    def value(name: str) -> str:
        return " ".join(str(line.value).strip() for line in entry.contents.get(name, ()) if str(line.value).strip())

    lines = [_ENTRIES[entry.name] + (value("summary") or "(no title)"), _span(entry), value("location"),
             value("description")]
    if organizer := [_person(line) for line in entry.contents.get("organizer", ())]:
        lines.append("organizer: " + ", ".join(organizer))
    if attendees := [_person(line) for line in entry.contents.get("attendee", ())]:
        lines.append("attendees: " + ", ".join(attendees))
    status = value("status").lower()
    if status in ("cancelled", "tentative", "completed"):
        lines.append(status)
    return "\n".join(line for line in lines if line)


def _first_line(entry) -> float:
    return min((line.lineNumber for line in entry.getChildren() if getattr(line, "lineNumber", None) is not None),
               default=float("inf"))


def extract(path: str, limits: Limits) -> Extracted:
    text, encoding = read_text(path, limits)
    calendars, damaged = components(path, text, "VCALENDAR", "an iCalendar file")
    meta: dict = {"encoding": encoding, **({"left_out": [damaged]} if damaged else {})}
    # vobject groups a calendar's entries by kind (events, then to-dos): their lines give the file's order.
    entries = sorted((e for c in calendars for e in c.components() if e.name in _ENTRIES),  # not time zones
                     key=_first_line)
    sections = numbered(entries, _text, "calendar", limits, "entries", meta, dated=_date, until=_until)
    title = " ".join(str(line.value) for c in calendars for line in c.contents.get("x-wr-calname", ()))
    return Extracted(kind="calendar", sections=sections, title=title, meta=meta)
