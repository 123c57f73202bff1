"""When a file's content was made, as a person means it: a date written in the file (front matter,
EXIF, a message's Date header: the extractors read those), else a date in its name
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


def file_date(written: float | None, name: str, mtime: float) -> float:
    """The date search filters and sorts by: written in the file, else in its name, else mtime."""
    if written is not None:
        return written
    named = from_name(name)
    return named if named is not None else mtime
