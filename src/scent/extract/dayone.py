"""Day One journals as Day One exports them (File > Export > JSON: Journal.json). Read by the JSON
reader (scent.extract.jsondata), which asks `journal` first: each entry a section of its own (kind
`text`), dated by when it was written, titled by its first line, with its tags and where it was
written (Day One's place names: "Written at Café A Brasileira, Lisboa, Portugal"), its photos'
links left out; the file titled by the journal's name. Not a reader of its own.
"""
from __future__ import annotations

import os
import re
from datetime import datetime, timezone

from scent.units import Extracted, Section
from .base import laid_out

_MOMENT = re.compile(r"!\[[^\]]*\]\(dayone-moment:[^)]*\)")  # a photo's place in the text
_ESCAPED = re.compile(r"\\([\\`*_{}\[\]()#+\-.!>|~])")  # Markdown escapes Day One writes (\. \-)


def journal(data, name: str) -> Extracted | None:
    """A Day One export's entries as sections; None when `data` is not one."""
    if not _is_journal(data):
        return None
    sections = []
    for entry in data["entries"]:
        if not isinstance(entry, dict):
            continue
        body = entry.get("text") if isinstance(entry.get("text"), str) else ""
        body = _ESCAPED.sub(r"\1", _MOMENT.sub("", body)).strip()
        lines = [body] if body else []
        tags = [t.strip() for t in entry.get("tags") or () if isinstance(t, str) and t.strip()]
        if tags:
            lines.append("Tags: " + ", ".join(tags))
        if where := _where(entry.get("location")):
            lines.append(f"Written at {where}")
        if not lines:
            continue
        title = body.split("\n", 1)[0].lstrip("# ").strip()[:80] if body else ""
        sections.append(Section(text="\n".join(lines), kind="text", title=title, date=_date(entry.get("creationDate"))))
    return Extracted(kind="text", sections=laid_out(sections), title=os.path.splitext(name)[0])


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
