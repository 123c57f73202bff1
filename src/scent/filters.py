"""Hard metadata filters: a value object that each engine compiles into its own condition
(SQL for SQLite, a payload filter for Qdrant).

Every candidate list is built under the same condition, so a filtered-out document can
never reach fusion. A filter matches a unit when its file's kind or the unit's own kind is
one of `kinds`, its path starts with `path` (or matches it as a glob), its date (the unit's own,
as an event of a calendar has, else its file's) is in [after, before), its language is `lang`,
its unit kind is not excluded, and its file's readers (scent.access) hold one of `readers`, the
asking user's principals (None: no such condition).
"""
from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass

from . import dates
from .errors import UsageError
from .kinds import FILE_KINDS, KIND_ALIASES, UNIT_KINDS
from .terminal import visible

KNOWN_KINDS = frozenset(FILE_KINDS) | frozenset(UNIT_KINDS) | frozenset(KIND_ALIASES)
# Days a filter may name: a UNIX time exists for each in any time zone (year 1 and 9999 have days
# that overflow), and no file is dated before the first.
FIRST_DAY = dt.date(1000, 1, 1)
LAST_DAY = dt.date(9998, 12, 31)


# "**/" at the start of the path or of a name (not "a**/", where ** is two stars of a name).
_ANY_FOLDERS = re.compile(r"(?:^|(?<=/))\*\*/")
_MOST_GLOBS = 16  # "**/" written more than four times: the later ones need a folder


def cli_flag(name: str) -> str:
    return f"--{name}"


@dataclass(frozen=True)
class Filters:
    """What a search keeps, whatever the engine: kinds, path, dates, language, readers."""

    kinds: tuple[str, ...] = ()
    path: str | None = None       # a prefix ("notes/") or a glob ("**/*.md", "notes/*2025*")
    after: float | None = None    # UNIX time, inclusive
    before: float | None = None   # UNIX time, exclusive
    lang: str | None = None
    exclude: tuple[str, ...] = ()  # unit kinds left out (an ablation: what does a kind add?)
    readers: tuple[str, ...] | None = None  # the asking user's principals; None: unrestricted (see scent.access)

    @classmethod
    def build(cls, kinds=(), path=None, after=None, before=None, lang=None,
              spell: Callable[[str], str] = cli_flag) -> "Filters":
        """From user-facing values: kind names (a name, names, or names joined by commas), dates
        (ISO days, months "2024-03", years "2024", "last week", "yesterday" ...; both ends
        included), a language code.
        `spell` names a parameter in error messages as the caller's users know it."""
        if isinstance(kinds, str):  # one kind, or several as the query language writes them (pdf,docx)
            kinds = (kinds,) if kinds else ()
        if kinds and all(k is not None and not k.strip(" ,") for k in kinds):  # `--only ""` searched everything
            raise UsageError(f"an empty kind was given; give one of {', '.join(sorted(KNOWN_KINDS))}, or none "
                             "to keep every kind")
        kinds = tuple(part.strip().lower() for k in kinds if k for part in k.split(",") if part.strip())
        unknown = sorted(set(kinds) - KNOWN_KINDS)
        if unknown:
            raise UsageError(f"unknown kind {', '.join(map(visible, unknown))}; known kinds: {', '.join(sorted(KNOWN_KINDS))}")
        start = _parse_date(after, spell("after")) if after else None
        end = _parse_date(before, spell("before"), end_of_day=True) if before else None
        if start is not None and end is not None and start >= end:
            raise UsageError(f"{_given(spell('after'), after)} is later than {_given(spell('before'), before)}: "
                             "nothing can match")
        path = path.replace("\\", "/").removeprefix("./") if path else None
        lang = lang.strip().lower() if lang else None
        if lang:
            from .language import LANGUAGES, NAMES

            lang = NAMES.get(lang, lang)
            if lang not in LANGUAGES:  # units are labelled with these codes only: any other matches nothing
                raise UsageError(f"unknown language {lang!r} for {spell('lang')}; scent labels notes with the "
                                 f"two-letter codes {', '.join(sorted(LANGUAGES))} (or their English names: tamil)")
        return cls(kinds, path or None, start, end, lang or None)

    @property
    def empty(self) -> bool:
        return not (self.kinds or self.path or self.after is not None or self.before is not None or self.lang
                    or self.exclude or self.readers is not None)

    def unit_kinds(self) -> tuple[str, ...]:
        """The unit kinds `kinds` asks for, aliases expanded (`image` is every picture unit too)."""
        return _expand(self.kinds)

    def excluded_unit_kinds(self) -> tuple[str, ...]:
        return _expand(self.exclude)

    def is_glob(self) -> bool:
        return bool(self.path) and any(ch in self.path for ch in "*?[")

    def globs(self) -> tuple[str, ...]:
        """The path glob as the globs an engine matches, any of them: `**/` at the start of a name
        stands for any folders or none, as in .gitignore and a shell's globstar ("**/*.md" is every
        .md file, those at the top too; "notes/**/*.md" holds notes/a.md). SQLite's GLOB and
        fnmatch read it as `*/`, at least one folder. `*` itself crosses folders in both."""
        alternatives = [""]
        for n, piece in enumerate(_ANY_FOLDERS.split(self.path or "")):
            if n and len(alternatives) < _MOST_GLOBS:
                alternatives = [a + between for a in alternatives for between in ("", "*/")]
            elif n:
                alternatives = [a + "*/" for a in alternatives]
            alternatives = [a + piece for a in alternatives]
        return tuple(dict.fromkeys(alternatives))


def _given(name: str, value) -> str:
    """A parameter with its value as the caller wrote it: --after=2025-03-01, after=..., after:2025."""
    return f"{name}{'' if name.endswith(':') else '='}{value}"


def _expand(kinds: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted({u for k in kinds for u in KIND_ALIASES.get(k, (k,))}))


def _parse_date(text: str, name: str, end_of_day: bool = False, today: dt.date | None = None) -> float:
    """The first moment of the day, month, year or named period `text` (`--after`), or the first
    moment after its end (`--before`: the period's last day is included)."""
    try:
        named = dates.period(text, today)
    except (ValueError, OverflowError):  # year 9999's end, 5000 years ago: no such day
        raise _out_of_range(text, name) from None
    if named is not None:
        first, after_last = named
        if not FIRST_DAY <= first <= LAST_DAY:
            raise _out_of_range(text, name)
        day = after_last if end_of_day else first
        return dt.datetime(day.year, day.month, day.day).timestamp()
    try:
        value = dt.datetime.fromisoformat(text)
    except ValueError:
        raise UsageError(f"{name} wants a date like 2025-07-14, 2025-07 or 2025, or one of "
                         f"{', '.join(dates.NAMED_PERIODS)}; got {text!r}") from None
    if not FIRST_DAY <= value.date() <= LAST_DAY:
        raise _out_of_range(text, name)
    if end_of_day and len(text) <= 10:  # a bare day: include all of it
        value += dt.timedelta(days=1)
    return value.timestamp()


def _out_of_range(text: str, name: str) -> UsageError:
    return UsageError(f"{name} wants a day between {FIRST_DAY} and {LAST_DAY}, got {text!r} "
                      "(leave it out to keep every date)")
