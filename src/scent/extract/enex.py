"""Evernote exports (.enex): the notes a person kept in Evernote, as its Export writes them (one
note, or a whole notebook in one XML file). Indexed as text (kind `text`), one section per note,
numbered as its page ("note 3"): its title, its body (ENML, read as a page is: lists, tables, a
checkbox as [x] or [ ]), its tasks, its tags, who wrote it, where it was written (GPS, in words:
scent.places) and the page it was clipped from; dated by when the note was made, so a date filter
finds the note, not the day of the export.

A note's attachments (a scanned receipt, a PDF, a photo of a whiteboard) are files inside the
export (scent.extract.members), each indexed as a file of its own: `Notebook.enex#3/receipt.png`
for note 3's, named by their file name (else `attachment-N` and their type's extension), dated by
their note; where the body shows one, its name stands there in brackets.

Read in one pass by lxml's iterparse, without entities, DTDs or the network, one note held at a
time (an export of 10,000 notes with their attachments runs to gigabytes); text past max_file_mb or
notes past max_units_per_file are left out with a note, as an mbox's messages are. Encrypted text
(en-crypt) is said to be there, not read.
"""
from __future__ import annotations

import binascii
import hashlib
import io
import os
import re
from collections.abc import Iterator
from datetime import datetime, timezone

from lxml import etree

from scent.errors import ExtractError
from scent.places import place_words
from scent.units import Extracted, Section
from .base import Limits, laid_out, one_line, unreadable
from .html import _BREAK, _CUT, _normalise, _parse, _visible_pieces
from .members import Entry, MemberReader, attach, attachment_name, bounded

EXTENSIONS = (".enex",)
KIND = "text"

_MEDIA = re.compile(r"<en-media\b[^>]*?\bhash\s*=\s*[\"']([0-9a-fA-F]+)[\"'][^>]*?(?:/>|>\s*</en-media>)", re.I)
_TODO = re.compile(r"<en-todo\b([^>]*?)(?:/>|>\s*</en-todo>)", re.I)
_CHECKED = re.compile(r"\bchecked\s*=\s*[\"']true[\"']", re.I)
_CRYPT = re.compile(r"<en-crypt\b.*?</en-crypt>", re.I | re.S)


def extract(path: str, limits: Limits) -> Extracted:
    sections, meta, read = [], {}, 0
    reader = MemberReader(path, limits, "export")
    more = True
    try:
        for number, note in _notes(path, meta):
            if number > limits.max_sections:
                meta["left_out"] = [f"only its first {limits.max_sections} notes were indexed (max_units_per_file); "
                                    "raise max_units_per_file to read more, or export the notebooks one by one"]
                break
            names = _attachments(note)
            text = _note_text(note, {digest: name for name, _, digest in names})
            read += len(text)
            if read > limits.max_text_bytes:
                meta["left_out"] = [f"only the first {number - 1} notes were indexed (max_file_mb); "
                                    "raise max_file_mb to read the rest"]
                break
            date = _time(note.findtext("created")) or _time(note.findtext("updated"))
            title = one_line(note.findtext("title"))
            sections.append(Section(text=text, kind=KIND, page=number, title=title, date=date))
            for name, data, _ in names if more else ():
                if not reader.add(Entry(f"{number}/{name}", len(data), lambda data=data: data, date=date)):
                    more = False
                    break
        meta["notes"] = len(sections)
        one = sections[0] if len(sections) == 1 else None
        got = Extracted(kind=KIND, sections=laid_out(sections), title=(one and one.title) or os.path.basename(path),
                        date=one.date if one else None, meta=meta)
        return attach(got, reader)
    finally:
        reader.__exit__(None, None, None)


def read_member(path: str, name: str, max_bytes: int) -> bytes:
    """The bytes of attachment `name` (`N/file` for note N's); ExtractError when it is not there."""
    number, _, wanted = name.partition("/")
    if number.isdigit():
        for n, note in _notes(path):
            if n == int(number):
                for found, data, _ in _attachments(note):
                    if found == wanted:
                        return bounded(io.BytesIO(data), path, name, len(data), max_bytes)
                break
    raise ExtractError(path, f"the export holds no attachment {name} (any more); re-index the folder")


def _notes(path: str, meta: dict | None = None) -> Iterator[tuple[int, etree._Element]]:
    """Each <note> of the export, numbered from 1, whole; dropped from memory once the next is read.
    An export cut short gives the notes before the break, and says so in `meta`."""
    events = etree.iterparse(path, events=("start", "end"), resolve_entities=False, no_network=True,
                             load_dtd=False, huge_tree=True, remove_comments=True, remove_pis=True)
    number, depth = 0, 0
    try:
        for event, element in events:
            if event == "start":
                if depth == 0 and element.tag != "en-export":
                    raise unreadable(path, "Evernote export", f"its XML is a <{element.tag}>, not an <en-export>")
                depth += 1
                continue
            depth -= 1
            if element.tag == "note" and depth == 1:
                number += 1
                yield number, element
                element.clear()
                parent = element.getparent()
                while parent is not None and element.getprevious() is not None:
                    del parent[0]
    except etree.XMLSyntaxError as e:
        if number == 0:
            raise unreadable(path, "Evernote export", f"its XML does not parse: {e}") from None
        if meta is not None:
            meta.setdefault("left_out", []).append(f"its XML breaks off after note {number} ({e}): the notes "
                                                   "before are indexed")


def _attachments(note) -> list[tuple[str, bytes, str]]:
    """(name, bytes, MD5) of each of the note's resources, named as the index shows them."""
    out, seen = [], set()
    for n, resource in enumerate(note.iterfind("resource"), 1):
        try:
            data = binascii.a2b_base64(resource.findtext("data") or "")
        except (binascii.Error, ValueError):
            data = b""  # read as empty, so its reader says what it is
        name = attachment_name(resource.findtext("resource-attributes/file-name") or "", n,
                               one_line(resource.findtext("mime")), seen)
        out.append((name, data, hashlib.md5(data).hexdigest()))
    return out


def _note_text(note, named: dict[str, str]) -> str:
    """The note's body, then its tasks, tags, author, place and source, a line each."""
    content = note.findtext("content") or ""
    content = _MEDIA.sub(lambda m: f" [{named.get(m.group(1).lower(), 'attachment')}] ", content)
    content = _TODO.sub(lambda m: "[x] " if _CHECKED.search(m.group(1)) else "[ ] ", content)
    content = _CRYPT.sub(" (encrypted text) ", content)
    soup = _parse("note", content.replace(_CUT, "").replace(_BREAK, ""))
    lines = [_normalise(" ".join("".join(_visible_pieces(soup)[0]).split(_CUT)))]
    lines += [f"Task: {title}" for task in note.iterfind("task") if (title := one_line(task.findtext("title")))]
    tags = [t for tag in note.iterfind("tag") if (t := one_line(tag.text))]
    if tags:
        lines.append("Tags: " + ", ".join(tags))
    attributes = note.find("note-attributes")
    if attributes is not None:
        if author := one_line(attributes.findtext("author")):
            lines.append(f"Author: {author}")
        if place := _place(attributes):
            lines.append(f"Written {place}")
        if source := one_line(attributes.findtext("source-url")):
            lines.append(f"Source: {source}")
    return "\n".join(line for line in lines if line)


def _place(attributes) -> str:
    try:
        lat, lon = float(attributes.findtext("latitude") or ""), float(attributes.findtext("longitude") or "")
    except ValueError:
        return ""
    return place_words(lat, lon)


def _time(text: str | None) -> float | None:
    """Evernote's 20240105T091500Z as seconds since the epoch."""
    try:
        return datetime.strptime((text or "").strip(), "%Y%m%dT%H%M%SZ").replace(tzinfo=timezone.utc).timestamp()
    except ValueError:
        return None

