"""When a file's content was made, as a person means it: a date written in the file (front matter,
EXIF, a message's Date header, a PDF's CreationDate, a Word file's core `created`: the extractors
read those), else a date in its name
("2025-03-12-standup.md", "Screenshot_20250214-100355.png"), else its modification time.

Why: modification times are when the bytes last moved, not when the note was written. After a
folder is copied every note is "today", and `--after 2025-06-01` found a note named 2025-03-12.
"""
from __future__ import annotations

import datetime as dt
import re

# Year 1970-2099, month, day; with - _ . or nothing between, and no digit just before or after
# (so a 12-digit serial number is not read as a date).
_IN_NAME = re.compile(r"(?<!\d)((?:19[7-9]|20\d)\d)([-_.]?)(0[1-9]|1[0-2])\2(0[1-9]|[12]\d|3[01])(?!\d)")
# YAML front matter at the very start of a Markdown file: --- ... ---, a `date:` line in it.
_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?)\n(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.S)
_DATE_KEY = re.compile(r"^(?:date|created|published)[ \t]*:[ \t]*['\"]?(\d{4}-\d{2}-\d{2})", re.M | re.I)


# English whatever the process locale, so the words match from one run to the next.
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")


def in_words(day: dt.date) -> str:
    """"14 March 2025 (2025-03-14)": the words a person searches for, and the date as typed."""
    return f"{day.day} {MONTHS[day.month - 1]} {day.year} ({day:%Y-%m-%d})"


def _noon_utc(year: int, month: int, day: int) -> float | None:
    # Noon UTC: the same calendar day in every time zone a person is likely to be in.
    try:
        return dt.datetime(year, month, day, 12, tzinfo=dt.timezone.utc).timestamp()
    except ValueError:  # 2025-02-30
        return None


def from_name(name: str) -> float | None:
    """The date in a file's name (its last one: folders are often years, files days), or None."""
    found = None
    for m in _IN_NAME.finditer(name.rsplit("/", 1)[-1]):
        found = _noon_utc(int(m.group(1)), int(m.group(3)), int(m.group(4))) or found
    return found


def from_front_matter(text: str) -> float | None:
    """The `date:` (or `created:`, `published:`) of a Markdown file's front matter, or None."""
    block = _FRONT_MATTER.match(text)
    key = _DATE_KEY.search(block.group(1)) if block else None
    if key is None:
        return None
    year, month, day = (int(p) for p in key.group(1).split("-"))
    return _noon_utc(year, month, day)


def from_value(value) -> float | None:
    """A date as a front-matter value (YAML): a date is noon UTC that day, as a date in a name; a
    datetime that instant (UTC when it has no zone); text starting YYYY-MM-DD that day's noon UTC.
    Anything else, or a year outside 1970-2099, is None."""
    if isinstance(value, dt.datetime):
        return from_datetime(value)
    if isinstance(value, dt.date):
        return _noon_utc(value.year, value.month, value.day) if 1970 <= value.year <= 2099 else None
    m = re.match(r"\s*((?:19[7-9]|20\d)\d)-(\d{2})-(\d{2})", value) if isinstance(value, str) else None
    return _noon_utc(int(m.group(1)), int(m.group(2)), int(m.group(3))) if m else None


def file_date(written: float | None, name: str, mtime: float) -> float:
    """The date search filters and sorts by: written in the file, else in its name, else mtime."""
    if written is not None:
        return written
    named = from_name(name)
    return named if named is not None else mtime


def from_pdf(stamp: str | None) -> float | None:
    """A PDF's CreationDate ("D:20240312093000+01'00'", or only "D:2024"), or None.

    Why: a PDF's bytes are often copied, its creation date stays in it; unreadable ones are None
    (a date a tool wrote wrong is no reason to refuse the file)."""
    m = re.match(r"(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:(Z)|([+-])(\d{2})'?(\d{2})?'?)?",
                 (stamp or "").strip())
    if not m or not 1970 <= int(m.group(1)) <= 2099:
        return None
    year, month, day, hour, minute, second = (int(g) if g else d for g, d in
                                              zip(m.groups()[:6], (0, 1, 1, 0, 0, 0)))
    if m.group(8):
        offset = dt.timedelta(hours=int(m.group(9)), minutes=int(m.group(10) or 0))
        zone = dt.timezone(offset if m.group(8) == "+" else -offset)
    else:
        zone = dt.timezone.utc  # Z, or no zone written: UTC, the same day almost everywhere
    try:
        return dt.datetime(year, month, day, hour, minute, second, tzinfo=zone).timestamp()
    except ValueError:  # month 13, 30 February
        return None


# The `created` of python-docx's own template: every file it makes carries it unless told otherwise.
_TEMPLATE_STAMP = dt.datetime(2013, 12, 23, 23, 15, tzinfo=dt.timezone.utc)


def from_datetime(value: dt.datetime | None) -> float | None:
    """A document property's datetime (Word's core `created`: UTC when it has no zone), or None
    for none, one outside 1970-2099 (1601 or 1899 mean "never set") or a template's stamp."""
    if value is None or not 1970 <= value.year <= 2099:
        return None
    value = value if value.tzinfo else value.replace(tzinfo=dt.timezone.utc)
    return None if value == _TEMPLATE_STAMP else value.timestamp()


def iso(stamp: float | None) -> str | None:
    """A UNIX time as ISO 8601 in this machine's zone, to the second: what JSON output carries; None
    for none, or one no calendar of years 1-9999 holds here."""
    if stamp is None:
        return None
    try:
        return dt.datetime.fromtimestamp(stamp).astimezone().isoformat(timespec="seconds")
    except (ValueError, OverflowError, OSError):  # a mail dated 31 Dec 9999 -1200, a tar member of year -1199
        return None


# ---- periods people name in filters ----------------------------------------------------------

_AGO = re.compile(r"^(\d{1,4}|a|an|one)\s+(day|week|month|year)s?\s+ago$")
_YEAR = re.compile(r"^\d{4}$")
_MONTH = re.compile(r"^(\d{4})-(\d{1,2})$")
NAMED_PERIODS = ("today", "yesterday", "this week", "last week", "this month", "last month", "this year",
                 "last year", "N days/weeks/months/years ago")


def _add_months(day: dt.date, months: int) -> dt.date:
    n = day.year * 12 + day.month - 1 + months
    return dt.date(n // 12, n % 12 + 1, 1)


def _unit_period(unit: str, back: int, today: dt.date) -> tuple[dt.date, dt.date]:
    if unit == "day":
        start = today - dt.timedelta(days=back)
        return start, start + dt.timedelta(days=1)
    if unit == "week":  # weeks start on Monday (ISO 8601)
        start = today - dt.timedelta(days=today.weekday() + 7 * back)
        return start, start + dt.timedelta(days=7)
    if unit == "month":
        start = _add_months(today.replace(day=1), -back)
        return start, _add_months(start, 1)
    start = dt.date(today.year - back, 1, 1)
    return start, dt.date(start.year + 1, 1, 1)


def period(text: str, today: dt.date | None = None) -> tuple[dt.date, dt.date] | None:
    """The days [first, after the last) that `text` names: a year ("2024"), a month ("2024-03"),
    "today", "yesterday", "this/last week|month|year", "3 days ago"; None for anything else
    (a plain ISO date or time is the caller's to read)."""
    today = today or dt.date.today()
    words = " ".join(text.lower().split())
    if _YEAR.match(words):
        return dt.date(int(words), 1, 1), dt.date(int(words) + 1, 1, 1)
    if m := _MONTH.match(words):
        year, month = int(m.group(1)), int(m.group(2))
        if not 1 <= month <= 12:
            return None
        start = dt.date(year, month, 1)
        return start, _add_months(start, 1)
    if words in ("today", "yesterday"):
        return _unit_period("day", words == "yesterday", today)
    first, _, unit = words.partition(" ")
    if first in ("this", "last") and unit in ("week", "month", "year"):
        return _unit_period(unit, first == "last", today)
    if m := _AGO.match(words):
        count = 1 if m.group(1) in ("a", "an", "one") else int(m.group(1))
        return _unit_period(m.group(2), count, today)
    return None


# ---- days a question names ---------------------------------------------------------------------

# "19 March", "19th of March 2025", "March 19", "March 19th, 2025", "Mar 19", "2025-03-19"; English
# month names and their usual short forms. A month ("the March meeting", "rent from March 2025") or a
# year ("taxes 2024") is no day: it is mostly what the answer says, not when its file was written
# (bench/: "rent increase from March 2025" lost its scan to March 2025's other files, 1.0 -> 0.14).
_MONTH_NAMES = {**{m.lower(): n for n, m in enumerate(MONTHS, start=1)},
                **{m[:3].lower(): n for n, m in enumerate(MONTHS, start=1)}, "sept": 9}
_MONTH_WORD = r"(" + "|".join(sorted(_MONTH_NAMES, key=len, reverse=True)) + r")\.?"
_ORDINAL = r"(\d{1,2})(?:st|nd|rd|th)?"
_YEAR_AFTER = r"(?:,?\s+((?:19|20)\d\d))?(?!\d)"
_DAY_MONTH = re.compile(rf"(?<![\w.:/-]){_ORDINAL}\s+(?:of\s+)?{_MONTH_WORD}(?!\w){_YEAR_AFTER}", re.I)
_MONTH_DAY = re.compile(rf"(?<![\w-]){_MONTH_WORD}\s+{_ORDINAL}(?![\w:.,/-]\d|\w){_YEAR_AFTER}", re.I)
_ISO_DAY = re.compile(r"(?<![\w-])((?:19|20)\d\d)-(\d\d)-(\d\d)(?![\w-])")
# "yesterday" is a day a question names; "today" is mostly the present ("the rate today"), not a file's.
_YESTERDAY = re.compile(r"(?<!\w)yesterday(?!\w)", re.I)
# A day named without its year: its last times up to today (a note of last year's 19 March as
# likely as this year's).
YEARS_BACK = 3


def day_words(day: dt.date) -> str:
    """Every way `named_days` reads a day, as words: "7 7th March Mar 2025 2025-03-07"."""
    n = day.day
    ordinal = f"{n}{'th' if 11 <= n <= 13 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"
    month = MONTHS[day.month - 1]
    return f"{n} {ordinal} {month} {month[:3]} {day.year} {day:%Y-%m-%d}"


def named_days(text: str, today: dt.date | None = None) -> list[tuple[dt.date, dt.date]]:
    """The days [first, after the last) a question names, most recent first: "what did I do on 19 March" -> 19 March of this year (if past) and the
    years before; [] when it names none. English month names only."""
    today = today or dt.date.today()
    found: list[tuple[dt.date, dt.date]] = []

    def day(year: int | None, month: int, number: int) -> None:
        years = [year] if year else [today.year - back for back in range(YEARS_BACK + 1)]
        days = []
        for y in years:
            try:
                d = dt.date(y, month, number)
            except ValueError:  # 30 February
                continue
            if year or d <= today:
                days.append((d, d + dt.timedelta(days=1)))
        found.extend(days[:YEARS_BACK])

    taken: list[tuple[int, int]] = []  # spans read once: in "19 March 20 April" March is not 20 March too
    for m in _ISO_DAY.finditer(text):
        try:
            d = dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        except ValueError:
            continue
        found.append((d, d + dt.timedelta(days=1)))
        taken.append(m.span())
    for pattern, order in ((_DAY_MONTH, (1, 2)), (_MONTH_DAY, (2, 1))):
        for m in pattern.finditer(text):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            number, month = int(m.group(order[0])), _MONTH_NAMES[m.group(order[1]).lower()]
            if 1 <= number <= 31:
                day(int(m.group(3)) if m.group(3) else None, month, number)
                taken.append(m.span())
    if _YESTERDAY.search(text):
        found.append(_unit_period("day", 1, today))
    return sorted(dict.fromkeys(found), key=lambda p: p[0], reverse=True)
