"""Google Keep notes as Google Takeout exports them (Takeout/Keep/): one .json and one .html per
note, the same note twice. The JSON is read as the note it is (kind `text`): its title, its text
or its checklist (ticked items [x], open ones [ ]), its labels, the links it holds, the names of
the pictures and recordings attached to it (files of their own beside it), and "in Keep's trash"
or "archived" where it is; dated by when the note was made, not by the export. The HTML page is
shown as a part of the JSON note (FileRecord.part_of: one result, as a Live Photo's two files are)
and takes the note's date; the JSON's bytes count as the page's (`json_of`, scent.extract.companions),
so the page follows it when it changes or goes. Not a reader of its own: jsondata and html ask
`note` and `twin`.
"""
from __future__ import annotations

import os

from scent.units import Extracted, Section
from .base import load_json, one_line

# What every note of every Keep export holds, and no other JSON file scent has met does.
_MARKS = ("userEditedTimestampUsec", "createdTimestampUsec")
_BODY = ("textContent", "listContent")
MAX_TWIN_BYTES = 4 * 1024 * 1024  # a note's JSON; a bigger file beside a page is not one


def is_note(data) -> bool:
    return (isinstance(data, dict) and any(isinstance(data.get(k), int) for k in _MARKS)
            and any(k in data for k in (*_BODY, "title")))


def note(data, name: str) -> Extracted | None:
    """The Keep note `data` (a JSON file's value) as a text note; None when it is not one."""
    if not is_note(data):
        return None
    lines = []
    body = data.get("textContent")
    if isinstance(body, str) and body.strip():
        lines.append(body.strip())
    for item in data.get("listContent") or ():
        if isinstance(item, dict) and one_line(item.get("text")):
            lines.append(f"{'[x]' if item.get('isChecked') else '[ ]'} {one_line(item.get('text'))}")
    labels = [one_line(label.get("name")) for label in data.get("labels") or () if isinstance(label, dict)]
    if any(labels):
        lines.append("Labels: " + ", ".join(filter(None, labels)))
    for link in data.get("annotations") or ():
        if isinstance(link, dict) and (said := " ".join(filter(None, (one_line(link.get("title")),
                                                                       one_line(link.get("url")))))):
            lines.append(f"Link: {said}")
    attached = [os.path.basename(one_line(a.get("filePath"))) for a in data.get("attachments") or ()
                if isinstance(a, dict) and one_line(a.get("filePath"))]
    if attached:
        lines.append("Attached: " + ", ".join(attached))
    if data.get("isTrashed") is True:
        lines.append("in Keep's trash")
    elif data.get("isArchived") is True:
        lines.append("archived")
    title = one_line(data.get("title")) or (lines[0].split("\n", 1)[0][:80] if lines else "")
    text = "\n".join(lines) or title
    sections = [Section(text=text, kind="text", title=title)] if text else []
    return Extracted(kind="text", sections=sections, title=title or name, date=_date(data))


def json_of(path: str, exists=os.path.isfile) -> list[str]:
    """The JSON beside a page that may be its Keep note's (NOTE.json beside NOTE.html): read with
    the page, so that the JSON's change or removal reads the page again."""
    json_path = os.path.splitext(path)[0] + ".json"
    return [json_path] if exists(json_path) else []


def twin(path: str, root: str | None) -> tuple[str, float | None] | None:
    """For a Keep note's HTML page at `path`: the JSON of the same note beside it (its path relative
    to `root`) and the note's date; None for any other page."""
    found = json_of(path)
    if root is None or not found:
        return None
    json_path = found[0]
    try:
        if os.path.getsize(json_path) > MAX_TWIN_BYTES:
            return None
        with open(json_path, encoding="utf-8") as f:
            data = load_json(f.read())
    except (OSError, ValueError, RecursionError):
        return None
    if not is_note(data):
        return None
    rel = os.path.relpath(json_path, root)
    return None if rel.startswith("..") else (rel.replace(os.sep, "/"), _date(data))


def _date(data: dict) -> float | None:
    for key in ("createdTimestampUsec", "userEditedTimestampUsec"):
        value = data.get(key)
        if isinstance(value, int) and value > 0:
            return value / 1e6
    return None
