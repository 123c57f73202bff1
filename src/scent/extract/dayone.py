"""Day One journals as Day One exports them (File > Export > JSON: Journal.json, alone or in the
export's zip). Read by the JSON reader (scent.extract.jsondata), which asks `journal` first. Each
entry is a file of its own inside the journal (scent.extract.members), `Journal.json#3.md` for
entry 3, so that each is a result of its own, dated by when it was written (a date filter finds the
entry, not the day of the export), shown and filtered as a file is; the journal itself is a line
naming how many entries it holds and when they were written. An entry's text: its Markdown (Day
One's escapes undone, its photos' links left out), its tags, and where it was written (Day One's
place names: "Written at Café A Brasileira, Lisboa, Portugal"). Its photos are files of the export's
folder, indexed as pictures are. A journal inside another file (the export's zip, unopened) is one
file whose sections are its entries, each dated: files inside files are read one level deep.
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import re
from collections.abc import Iterator
from datetime import datetime, timezone

from scent.errors import ExtractError
from scent.units import Extracted, Member, Section
from .base import Limits, laid_out
from .members import Dates, bounded

KIND = "text"
_MOMENT = re.compile(r"!\[[^\]]*\]\(dayone-moment:[^)]*\)")  # a photo's place in the text
_ESCAPED = re.compile(r"\\([\\`*_{}\[\]()#+\-.!>|~])")  # Markdown escapes Day One writes (\. \-)


def journal(data, name: str, limits: Limits) -> Extracted | None:
    """A Day One export: a line naming its entries, which are its members `N.md` (N: the entry's place
    in the export, from 1); None when `data` is not one. An entry the index holds as it is (its JSON
    unchanged, `limits.indexed`) is named and not read again."""
    if not _is_journal(data):
        return None
    if limits.member_depth <= 0:  # inside another file (the export's zip): files inside files are one level deep
        return _sectioned(data, name)
    indexed = dict(limits.indexed)
    dates, members = Dates(), []
    for number, entry in _entries(data):
        date = _date(entry.get("creationDate"))
        dates.add(date)
        digest = hashlib.sha1(json.dumps(entry, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
        member = f"{number}.md"
        if digest == indexed.get(member):
            members.append(Member(member, date=date, hash=digest, unchanged=True))
            continue
        title, text = _entry(entry)
        if text:
            got = Extracted(kind=KIND, sections=[Section(text=text, kind=KIND, title=title)],
                            title=title or f"entry {number}", date=date)
            members.append(Member(member, got, date=date, size=len(text.encode()), hash=digest))
    journal_name = os.path.splitext(name)[0]
    line = dates.line(name, "Day One journal", "entry", "written")
    return Extracted(kind=KIND, sections=[Section(text=line, kind=KIND, title=journal_name)], title=journal_name,
                     members=members)


def _sectioned(data, name: str) -> Extracted:
    """The journal as one file whose sections are its entries, each dated when it was written."""
    sections = []
    for _, entry in _entries(data):
        title, text = _entry(entry)
        if text:
            sections.append(Section(text=text, kind=KIND, title=title, date=_date(entry.get("creationDate"))))
    return Extracted(kind=KIND, sections=laid_out(sections), title=os.path.splitext(name)[0])


def read_entry(data, path: str, name: str, max_bytes: int) -> bytes:
    """Entry `N.md` of the journal `data` as Markdown: what the index read of it."""
    number = name.removesuffix(".md")
    if _is_journal(data) and number.isdigit():
        for n, entry in _entries(data):
            if n == int(number) and (text := _entry(entry)[1]):
                body = f"{text}\n".encode()
                return bounded(io.BytesIO(body), path, name, len(body), max_bytes)
    raise ExtractError(path, f"the journal holds no entry {name} (any more); re-index the folder")


def _entries(data) -> Iterator[tuple[int, dict]]:
    for number, entry in enumerate(data["entries"], 1):
        if isinstance(entry, dict):
            yield number, entry


def _entry(entry: dict) -> tuple[str, str]:
    """(title, text) of an entry: its first line, and its body, tags and place; "" when it has none
    (a photo alone)."""
    body = entry.get("text") if isinstance(entry.get("text"), str) else ""
    body = _ESCAPED.sub(r"\1", _MOMENT.sub("", body)).strip()
    lines = [body] if body else []
    tags = [t.strip() for t in entry.get("tags") or () if isinstance(t, str) and t.strip()]
    if tags:
        lines.append("Tags: " + ", ".join(tags))
    if where := _where(entry.get("location")):
        lines.append(f"Written at {where}")
    title = body.split("\n", 1)[0].lstrip("# ").strip()[:80] if body else ""
    return title, "\n".join(lines)


def _is_journal(data) -> bool:
    entries = data.get("entries") if isinstance(data, dict) else None
    return (isinstance(data.get("metadata") if isinstance(data, dict) else None, dict) and isinstance(entries, list)
            and any(isinstance(e, dict) and "creationDate" in e and ("text" in e or "richText" in e) for e in entries[:20]))


def _where(place) -> str:
    if not isinstance(place, dict):
        return ""
    parts = [place.get(k) for k in ("placeName", "localityName", "administrativeArea", "country")]
    said = list(dict.fromkeys(p.strip() for p in parts if isinstance(p, str) and p.strip()))
    return ", ".join(said)


def _date(text) -> float | None:
    try:
        when = datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    except ValueError:
        return None
    return (when if when.tzinfo else when.replace(tzinfo=timezone.utc)).timestamp()
